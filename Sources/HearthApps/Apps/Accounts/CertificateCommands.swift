import Foundation
import HearthKit
import HearthStore

/// `!cert`: the TLS client certificates an account logs in with (SASL EXTERNAL).
extension AccountCommands {
    static let cert = BotCommand(
        "cert", group: group, usage: "list | add [FINGERPRINT] | del FINGERPRINT",
        summary: "log in with a TLS client certificate (SASL EXTERNAL): add this connection's, list, remove",
        example: "!cert add", arity: 1...2, requiresLogin: true
    ) { request in
        let account = try request.account()
        let store = request.services.store
        let action = request.words[0].lowercased()
        let given = request.words.dropFirst().first
        if action == "list" {
            guard given == nil else { throw request.usageError("list takes nothing more") }
            let prints = try await store.certificates(accountID: account.id)
            guard !prints.isEmpty else {
                return BotResponse(["You have no certificate. Connect over TLS with one and say !cert add."])
            }
            return BotResponse(["Your certificates (SHA-256):"] + prints.map { "  \($0)" })
        }
        guard action == "add" || action == "del" else { throw request.usageError("unknown action \(action)") }
        guard let text = given ?? (action == "add" ? request.caller.certificateFingerprint : nil) else {
            throw BotError(
                action == "add"
                    ? "this connection gave no client certificate: connect over TLS with one, or name a fingerprint"
                    : "name the fingerprint to remove (!cert list shows them)")
        }
        guard let fingerprint = CertificateRules.normalized(text) else {
            throw BotError("\(text) is not a SHA-256 fingerprint (64 hex digits, colons allowed)")
        }
        if action == "del" {
            guard try await store.removeCertificate(accountID: account.id, fingerprint: fingerprint) else {
                throw BotError("you have no certificate \(fingerprint)")
            }
            return BotResponse(["Removed; that certificate no longer logs you in."])
        }
        switch try await store.addCertificate(accountID: account.id, fingerprint: fingerprint, now: Date()) {
        case .added:
            return BotResponse(["Added \(fingerprint): it now logs you in with SASL EXTERNAL over TLS."])
        case .alreadyYours:
            return BotResponse(["You have that certificate already."])
        case .taken:
            throw BotError("that certificate belongs to another account")
        case .tooMany:
            throw BotError("you have \(CertificateRules.maxPerAccount) certificates, the most: !cert del one first")
        }
    }
}
