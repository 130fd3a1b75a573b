import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol
import NIOCore

/// Where a connection's SCRAM-SHA-256 exchange stands (`Client.scram`).
enum ScramState: Sendable {
    /// Waiting for client-first-message.
    case clientFirst
    /// server-first sent; waiting for client-final-message.
    case clientFinal(Scram.ServerExchange, AccountService.ScramChallenge)
    /// server-final sent; the client's empty answer completes the login.
    case verified(AccountRef)
}

/// AUTHENTICATE: SASL PLAIN with an account's password or a resume token, and
/// SCRAM-SHA-256 with the account's password.
extension Core {
    static let saslChunk = 400
    /// Longest SASL payload accepted (base64), enough for a 600+ byte password.
    static let maxSASLBytes = 4096
    static let saslMechanisms = ["PLAIN", Scram.mechanism, externalMechanism]

    func authenticate(_ client: Client, _ message: IRCMessage) {
        let data = message.params[0]
        if data == "*" { return abortSASL(client) }
        if !client.saslInProgress { return startSASL(client, mechanism: data.uppercased()) }
        guard let payload = bufferSASL(client, data) else { return }
        if let step = client.scram { return scram(client, step, payload) }
        if client.saslExternal { return external(client, authzid: payload) }
        guard let (authcid, secret) = Self.parsePlain(payload) else {
            client.saslInProgress = false
            reply(client, .saslFail, "SASL authentication failed: malformed PLAIN message")
            return
        }
        checkPlain(client, authcid: authcid, secret: secret)
    }

    /// AUTHENTICATE *: the exchange under way stops.
    private func abortSASL(_ client: Client) {
        guard client.saslInProgress else {
            return reply(client, .saslFail, "SASL authentication failed: nothing to abort")
        }
        client.saslInProgress = false
        client.saslBuffer = ""
        reply(client, .saslAborted, "SASL authentication aborted")
    }

    /// The first AUTHENTICATE names the mechanism; a known one is answered with `+`.
    private func startSASL(_ client: Client, mechanism: String) {
        if chat.withLock({ state in state[client].account != nil }) {
            return reply(client, .saslAlready, "You have already authenticated using SASL")
        }
        guard Self.saslMechanisms.contains(mechanism) else {
            reply(client, .saslMechs, Self.saslMechanisms.joined(separator: ","), "are available SASL mechanisms")
            reply(client, .saslFail, "SASL authentication failed: unknown mechanism")
            return
        }
        client.scram = mechanism == Scram.mechanism ? .clientFirst : nil
        client.saslExternal = mechanism == Self.externalMechanism
        client.saslInProgress = true
        client.saslBuffer = ""
        withState { _, out in out.send(client, IRCMessage(command: "AUTHENTICATE", params: ["+"])) }
    }

    /// Adds a chunk to the payload; the whole payload once its last chunk came, else nil.
    private func bufferSASL(_ client: Client, _ data: String) -> String? {
        // One line over a chunk breaks the protocol (905); many chunks adding up to too much
        // are a failed authentication (904), as IRCv3 SASL and irctest expect.
        let tooLong = data.utf8.count > Self.saslChunk
        if data != "+" { client.saslBuffer += data }
        if tooLong || client.saslBuffer.utf8.count > Self.maxSASLBytes {
            client.saslInProgress = false
            client.saslBuffer = ""
            if tooLong {
                reply(client, .saslTooLong, "SASL message too long")
            } else {
                reply(client, .saslFail, "SASL authentication failed: the message is too long")
            }
            return nil
        }
        if data.utf8.count == Self.saslChunk { return nil }  // more chunks follow
        defer { client.saslBuffer = "" }
        return client.saslBuffer
    }

    /// A SASL PLAIN payload's account name and secret (password or resume token); nil when it
    /// is malformed or asks to act as another account.
    static func parsePlain(_ payload: String) -> (authcid: String, secret: String)? {
        let parts = Data(base64Encoded: payload).map { [UInt8]($0) }?.split(
            separator: 0, omittingEmptySubsequences: false)
        guard let parts, parts.count == 3,
            let authzid = String(validating: parts[0], as: UTF8.self),
            let authcid = String(validating: parts[1], as: UTF8.self),
            let secret = String(validating: parts[2], as: UTF8.self),
            authzid.isEmpty || IRCNames.fold(authzid) == IRCNames.fold(authcid)
        else { return nil }
        return (authcid, secret)
    }

    /// Checks a PLAIN login off the event loop, then logs in (903) or fails (904). The secret is
    /// a password, a resume token or the web chat's one-time ticket (`ChatTickets`).
    private func checkPlain(_ client: Client, authcid login: String, secret: String) {
        // `alice@phone`: alice's phone, which gets what it missed by itself (IRC/AlwaysOnReplay.swift).
        guard let (authcid, device) = Self.deviceLogin(login) else {
            client.saslInProgress = false
            reply(client, .saslFail, "SASL authentication failed: \(Self.deviceNameRule)")
            return tryCompleteRegistration(client)
        }
        client.device = device
        let services = bot.services
        let accounts = services.accounts
        let address = client.address
        later(
            client,
            { () -> Result<(AccountRef, String?, [SessionEffect]), BotError> in
                do {
                    if ChatTickets.looksLikeTicket(secret) {
                        // The site's session must still be good: signing out there ends the ticket too.
                        guard let entry = try await ChatTickets.redeem(services.store, secret),
                            let account = try await services.store.account(tokenHash: entry.tokenHash),
                            account.id == entry.accountId, IRCNames.fold(account.name) == IRCNames.fold(authcid)
                        else { return .failure(BotError("the chat's sign-in ticket is used or expired")) }
                        let ref = AccountRef(id: account.id, name: account.name)
                        let effects = try await services.loginEffects(ref, tokenHash: entry.tokenHash)
                        return .success((ref, entry.tokenHash, effects))
                    }
                    let (account, hash) = try await accounts.checkSecret(
                        name: authcid, secret: secret, address: address)
                    let ref = AccountRef(id: account.id, name: account.name)
                    return .success((ref, hash, try await services.loginEffects(ref, tokenHash: hash)))
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

    /// One step of SCRAM-SHA-256: client-first → server-first, client-final → server-final
    /// (after the proof, throttled like a password), then the client's empty answer → 900/903.
    func scram(_ client: Client, _ step: ScramState, _ payload: String) {
        let accounts = bot.services.accounts
        if case .verified(let account) = step {
            guard payload.isEmpty else { return self.scramFailed(client, "expected an empty response") }
            let services = bot.services
            later(client, { try? await services.loginEffects(account, tokenHash: nil) }) { effects in
                client.saslInProgress = false
                client.scram = nil
                guard let effects else { return self.scramFailed(client, "internal error") }
                self.protocolLogin(client, account, tokenHash: nil, effects: effects)
                self.reply(client, .saslSuccess, "SASL authentication successful")
                self.tryCompleteRegistration(client)
            }
            return
        }
        guard let text = Data(base64Encoded: payload).flatMap({ String(validating: [UInt8]($0), as: UTF8.self) })
        else { return self.scramFailed(client, "malformed SCRAM message") }
        switch step {
        case .clientFirst:
            let first: Scram.ClientFirst
            do {
                first = try Scram.ClientFirst(parsing: text)
            } catch {
                return self.scramFailed(client, error.reason)
            }
            // As with PLAIN: one may only log in as oneself.
            if let authzid = first.authzid, IRCNames.fold(authzid) != IRCNames.fold(first.username) {
                return self.scramFailed(client, "authzid differs from the user name")
            }
            // `alice@phone` names a device, as with PLAIN; the proof still covers the whole name.
            guard let (name, device) = Self.deviceLogin(first.username) else {
                return self.scramFailed(client, Self.deviceNameRule)
            }
            client.device = device
            later(client, { try? await accounts.scramChallenge(name: name) }) { challenge in
                guard let challenge else { return self.scramFailed(client, "internal error") }
                let exchange = Scram.ServerExchange(
                    clientFirst: first, salt: challenge.credentials.salt,
                    iterations: challenge.credentials.iterations)
                client.scram = .clientFinal(exchange, challenge)
                self.sendSASL(client, exchange.serverFirst)
            }
        case .clientFinal(let exchange, let challenge):
            let address = client.address
            later(
                client,
                { () -> Result<(AccountRef, String), BotError> in
                    do {
                        let (account, serverFinal) = try await accounts.scramFinish(
                            exchange, challenge: challenge, clientFinal: text, address: address)
                        return .success((AccountRef(id: account.id, name: account.name), serverFinal))
                    } catch let error as any UserFacingError {
                        return .failure(BotError(error.message))
                    } catch {
                        return .failure(BotError("internal error"))
                    }
                }
            ) { result in
                switch result {
                case .success(let (account, serverFinal)):
                    client.scram = .verified(account)
                    self.sendSASL(client, serverFinal)
                case .failure(let error):
                    self.scramFailed(client, error.message)
                }
            }
        case .verified:
            break
        }
    }

    func scramFailed(_ client: Client, _ why: String) {
        client.saslInProgress = false
        client.scram = nil
        reply(client, .saslFail, "SASL authentication failed: \(why)")
        tryCompleteRegistration(client)
    }

    /// Sends a server challenge as AUTHENTICATE lines of at most 400 bytes of base64; "+"
    /// after a full last chunk says it ended there.
    func sendSASL(_ client: Client, _ text: String) {
        let encoded = Array(Data(text.utf8).base64EncodedString().utf8)
        var chunks = stride(from: 0, to: encoded.count, by: Self.saslChunk).map {
            String(decoding: encoded[$0..<min($0 + Self.saslChunk, encoded.count)], as: UTF8.self)
        }
        if chunks.isEmpty || chunks.last?.utf8.count == Self.saslChunk { chunks.append("+") }
        withState { _, out in
            for chunk in chunks { out.send(client, IRCMessage(command: "AUTHENTICATE", params: [chunk])) }
        }
    }
}
