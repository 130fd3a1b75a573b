import Foundation
import HearthCrypto
import HearthKit
import HearthProtocol
import HearthStore
import NIOCore
import NIOSSL

/// TLS client certificates: the IRC-over-TLS port asks for one (never requires it), any
/// certificate is accepted as it is — it proves nothing until an account has added its
/// fingerprint (`!cert add`) — and SASL EXTERNAL logs in by that fingerprint.
extension Core {
    static let externalMechanism = "EXTERNAL"

    /// SHA-256 of a certificate's DER bytes, as lowercase hex (`CertificateRules.normalized`).
    static func fingerprint(der: [UInt8]) -> String {
        Scram.sha256(der).map { String(format: "%02x", $0) }.joined()
    }

    /// AUTHENTICATE after EXTERNAL: `+` (or an authzid naming the same account, with or without a
    /// device) logs in as the account that added this connection's certificate (903), else 904.
    func external(_ client: Client, authzid payload: String) {
        client.saslExternal = false
        let authzid = payload.isEmpty ? "" : Data(base64Encoded: payload).flatMap { String(data: $0, encoding: .utf8) }
        let fingerprint = chat.withLock { state in state[client].certificateFingerprint }
        guard let login = authzid else { return externalFailed(client, "malformed EXTERNAL message") }
        // `alice@phone` (or `@phone`) names the device, as in a PLAIN or SCRAM login.
        guard let (authzid, device) = Self.deviceLogin(login) else {
            return externalFailed(client, Self.deviceNameRule)
        }
        client.device = device
        guard let fingerprint else {
            return externalFailed(client, "no client certificate (connect over TLS with one)")
        }
        let services = bot.services
        later(
            client,
            { () -> Result<(AccountRef, [SessionEffect]), BotError> in
                do {
                    guard let account = try await services.store.account(certificateFingerprint: fingerprint) else {
                        return .failure(BotError("no account has this certificate (!cert add, once logged in)"))
                    }
                    guard authzid.isEmpty || IRCNames.fold(authzid) == IRCNames.fold(account.name) else {
                        return .failure(BotError("this certificate belongs to another account"))
                    }
                    let ref = AccountRef(id: account.id, name: account.name)
                    return .success((ref, try await services.loginEffects(ref, tokenHash: nil)))
                } catch {
                    return .failure(BotError("internal error"))
                }
            }
        ) { result in
            client.saslInProgress = false
            switch result {
            case .success(let (account, effects)):
                self.protocolLogin(client, account, tokenHash: nil, effects: effects)
                self.reply(client, .saslSuccess, "SASL authentication successful")
                self.tryCompleteRegistration(client)
            case .failure(let error):
                self.externalFailed(client, error.message)
            }
        }
    }

    private func externalFailed(_ client: Client, _ why: String) {
        client.saslInProgress = false
        reply(client, .saslFail, "SASL authentication failed: \(why)")
        tryCompleteRegistration(client)
    }
}

extension HearthServer {
    /// The IRC-over-TLS port's settings: the HTTPS port's, asking clients for a certificate.
    static func askingForClientCertificates(_ configuration: TLSConfiguration) -> TLSConfiguration {
        var asking = configuration
        asking.certificateVerification = .optionalVerification
        return asking
    }

    /// Any certificate a client gives is accepted (self-signed is the usual case): it is only
    /// an identity once an account has added its fingerprint, which is kept for its connection.
    /// NIOSSL calls this on the connection's loop, during the handshake, leaf certificate first.
    static func acceptingClientCertificate(_ channel: Channel, _ core: Core) -> NIOSSLCustomVerificationCallback {
        { certificates, promise in
            if let der = try? certificates.first?.toDERBytes(),
                let client = (try? channel.pipeline.syncOperations.handler(type: ConnectionHandler.self))?.client
            {
                let fingerprint = Core.fingerprint(der: der)
                core.chat.withLock { state in state[client].certificateFingerprint = fingerprint }
            }
            promise.succeed(.certificateVerified)
        }
    }
}
