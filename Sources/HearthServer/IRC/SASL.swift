import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol
import NIOCore

/// AUTHENTICATE: SASL PLAIN with an account's password or a resume token.
extension Core {
    static let saslChunk = 400
    /// Longest SASL payload accepted (base64), enough for a 600+ byte password.
    static let maxSASLBytes = 4096

    func authenticate(_ client: Client, _ message: IRCMessage) {
        let data = message.params[0]
        if data == "*" {
            if client.saslInProgress {
                client.saslInProgress = false
                client.saslBuffer = ""
                reply(client, .saslAborted, "SASL authentication aborted")
            } else {
                reply(client, .saslFail, "SASL authentication failed: nothing to abort")
            }
            return
        }
        if !client.saslInProgress {
            if client.account != nil {
                reply(client, .saslAlready, "You have already authenticated using SASL")
                return
            }
            guard data.uppercased() == "PLAIN" else {
                reply(client, .saslMechs, "PLAIN", "are available SASL mechanisms")
                reply(client, .saslFail, "SASL authentication failed: unknown mechanism")
                return
            }
            client.saslInProgress = true
            client.saslBuffer = ""
            withState { $0.send(client, IRCMessage(command: "AUTHENTICATE", params: ["+"])) }
            return
        }
        if data != "+" { client.saslBuffer += data }
        if client.saslBuffer.utf8.count > Self.maxSASLBytes {
            client.saslInProgress = false
            client.saslBuffer = ""
            reply(client, .saslTooLong, "SASL message too long")
            return
        }
        if data.utf8.count == Self.saslChunk { return }  // more chunks follow
        let payload = client.saslBuffer
        client.saslBuffer = ""
        let parts = Data(base64Encoded: payload).map { [UInt8]($0) }?.split(
            separator: 0, omittingEmptySubsequences: false)
        guard let parts, parts.count == 3,
            let authzid = String(validating: parts[0], as: UTF8.self),
            let authcid = String(validating: parts[1], as: UTF8.self),
            let secret = String(validating: parts[2], as: UTF8.self),
            authzid.isEmpty || IRCNames.fold(authzid) == IRCNames.fold(authcid)
        else {
            client.saslInProgress = false
            reply(client, .saslFail, "SASL authentication failed: malformed PLAIN message")
            return
        }
        let services = bot.services
        let accounts = services.accounts
        let address = client.address
        later(
            client,
            { () -> Result<(AccountRef, String?, [SessionEffect]), BotError> in
                do {
                    if SecretCodes.looksLikeResumeToken(secret) {
                        let (account, hash) = try await accounts.checkToken(secret, address: address)
                        guard IRCNames.fold(account.name) == IRCNames.fold(authcid) else {
                            return .failure(BotError("token is for another account"))
                        }
                        let ref = AccountRef(id: account.id, name: account.name)
                        return .success((ref, hash, try await services.loginEffects(ref, tokenHash: hash)))
                    }
                    let account = try await accounts.checkPassword(name: authcid, password: secret, address: address)
                    let ref = AccountRef(id: account.id, name: account.name)
                    return .success((ref, nil, try await services.loginEffects(ref, tokenHash: nil)))
                } catch let error as any UserFacingError {
                    return .failure(BotError(error.message))
                } catch {
                    return .failure(BotError("internal error"))
                }
            }
        ) { result in
            client.saslInProgress = false
            switch result {
            case .success(let (account, hash, effects)):
                self.protocolLogin(client, account, tokenHash: hash, effects: effects)
                self.reply(client, .saslSuccess, "SASL authentication successful")
            case .failure(let error):
                self.reply(client, .saslFail, "SASL authentication failed: \(error.message)")
            }
            self.tryCompleteRegistration(client)
        }
    }
}
