import Foundation
import HearthCrypto
import HearthProtocol
import HearthStore

/// draft/webpush: an IRC client (Goguma, or Ergo's own clients) registers its device's push
/// subscription with `WEBPUSH REGISTER <endpoint> <keys>` and gets IRC lines pushed to it (a
/// private message while none of its account's connections is here, a mention while away).
/// The server's VAPID key is the ISUPPORT token `VAPID=`.
extension Core {
    static let webPushCap = "draft/webpush"

    func webpush(_ client: Client, _ message: IRCMessage) {
        let sub = message.params[0].uppercased()
        let endpoint = message.params.count > 1 ? message.params[1] : ""
        @Sendable func answer(_ params: [String], command: String = "FAIL") {
            withState { _, out in
                out.send(client, IRCMessage(source: serverName, command: command, params: params))
            }
        }
        @Sendable func fail(_ code: String, _ text: String) { answer(["WEBPUSH", code, sub, endpoint, text]) }
        guard push != nil else { return fail("FORBIDDEN", "Push notifications are off on this server") }
        guard let account = chat.withLock({ state in state[client].account }) else {
            return fail("FORBIDDEN", "Log in to receive push notifications")
        }
        guard sub == "REGISTER" || sub == "UNREGISTER" else { return fail("INVALID_PARAMS", "Unknown subcommand") }
        guard !endpoint.isEmpty else { return fail("INVALID_PARAMS", "WEBPUSH \(sub) <endpoint>") }
        let store = self.store
        if sub == "UNREGISTER" {
            later(client, { _ = try? await store.removePushSubscription(endpoint: endpoint, accountID: account.id) }) {
                answer(["UNREGISTER", endpoint], command: "WEBPUSH")
            }
            return
        }
        if let problem = PushEndpoints.problem(endpoint, allowLocal: push?.allowLocal ?? false) {
            return fail("INVALID_PARAMS", "Invalid endpoint: \(problem)")
        }
        guard message.params.count > 2, let keys = Self.pushKeys(message.params[2]) else {
            return fail("INVALID_PARAMS", "WEBPUSH REGISTER <endpoint> p256dh=<key>;auth=<secret>")
        }
        let now = config.clock.now()
        let subscription = PushSubscription(
            accountId: account.id, endpoint: endpoint, p256dh: keys.p256dh, auth: keys.auth, source: .irc,
            kinds: Set(PushKind.allCases), createdAt: now, expiresAt: PushRules.expiry(from: now))
        later(client, { try? await store.savePushSubscription(subscription, now: now) }) { saved in
            switch saved {
            case true: answer(["REGISTER", endpoint, message.params[2]], command: "WEBPUSH")
            case false:
                fail("MAX_REGISTRATIONS", "You have \(PushRules.maxPerAccount) push subscriptions already")
            case nil: fail("INTERNAL_ERROR", "Could not keep the subscription; try again")
            }
        }
    }

    /// The keys of `WEBPUSH REGISTER`, written as message tags (`p256dh=…;auth=…`), when they
    /// are a P-256 public key and a 16-byte secret.
    static func pushKeys(_ text: String) -> (p256dh: String, auth: String)? {
        var fields: [String: String] = [:]
        for pair in text.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let p256dh = fields["p256dh"], let auth = fields["auth"],
            (try? WebPushEncryption.Recipient(p256dh: p256dh, auth: auth)) != nil
        else { return nil }
        return (p256dh, auth)
    }
}
