import Foundation
import HTTPTypes
import HearthCrypto
import HearthStore
import Hummingbird
import NIOCore

/// The site's push subscriptions (the settings page's script, `push.js`): POST
/// `/push/subscribe` with the device's endpoint, keys and the kinds it wants (no `kinds`:
/// keep what it had — the page renews its subscription this way each time it is opened), and
/// POST `/push/unsubscribe`. Both need the session and the CSRF token as every form does, and
/// answer JSON: `{"kinds":"dm,…"}` or `{"error":"…"}`.
struct PushRoutes {
    let routes: WebRoutes

    func add(to router: Router<HearthRequestContext>) {
        router.post("/push/subscribe") { request, _ in try await WebRoutes.answer { try await subscribe(request) } }
        router.post("/push/unsubscribe") { request, _ in try await WebRoutes.answer { try await unsubscribe(request) }
        }
    }

    /// The signed-in viewer and the form's fields after the CSRF check and the form limit.
    func form(_ request: Request) async throws -> (Int64, [String: String]) {
        guard routes.core.push != nil else { throw WebForms.Refused(WebJSON.error(.notFound, "push is off")) }
        let fields: [String: String]
        switch await WebForms.fields(request) {
        case .failure(let refused): throw refused
        case .success(let form): fields = form
        }
        guard WebSignIn.csrfMatches(request, fields) else { throw WebForms.expired }
        guard let viewer = await routes.viewer(request) else {
            throw WebForms.Refused(WebJSON.error(.unauthorized, "sign in first"))
        }
        if let refused = routes.formLimited(viewer.0) { throw refused }
        return (viewer.0.id, fields)
    }

    func subscribe(_ request: Request) async throws -> Response {
        let (account, fields) = try await form(request)
        let endpoint = fields["endpoint"] ?? ""
        let allowLocal = routes.core.push?.allowLocal ?? false
        if let problem = PushEndpoints.problem(endpoint, allowLocal: allowLocal) {
            return WebJSON.error(.badRequest, problem)
        }
        guard let p256dh = fields["p256dh"], let auth = fields["auth"],
            (try? WebPushEncryption.Recipient(p256dh: p256dh, auth: auth)) != nil
        else { return WebJSON.error(.badRequest, "not a P-256 key and a 16-byte auth secret") }
        let store = routes.services.store
        let now = routes.core.config.clock.now()
        let held = try await store.pushSubscriptions(accountID: account, now: now).first { $0.endpoint == endpoint }
        let kinds =
            fields["kinds"].map(PushKind.set) ?? held?.kinds ?? Set(PushKind.allCases)
        let subscription = PushSubscription(
            accountId: account, endpoint: endpoint, p256dh: p256dh, auth: auth, source: .web, kinds: kinds,
            createdAt: held?.createdAt ?? now, expiresAt: PushRules.expiry(from: now))
        guard try await store.savePushSubscription(subscription, now: now) else {
            return WebJSON.error(.conflict, "you have \(PushRules.maxPerAccount) devices with notifications already")
        }
        return WebJSON.response(.ok, ["kinds": PushKind.text(kinds)])
    }

    func unsubscribe(_ request: Request) async throws -> Response {
        let (account, fields) = try await form(request)
        let removed = try await routes.services.store.removePushSubscription(
            endpoint: fields["endpoint"] ?? "", accountID: account)
        return WebJSON.response(.ok, ["removed": removed ? "yes" : "no"])
    }
}
