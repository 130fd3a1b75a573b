import Foundation
import HTTPTypes
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import Hummingbird
import NIOCore

/// The web chat's own calls, answered in JSON to its script (`/chat` itself is a static page):
/// a one-time SASL ticket for the site's session, an upload from the chat, and avatars by
/// account name. The two that act need the chat's own header (`X-Hearth-Chat`), which a form or
/// a page on another site cannot send without a CORS preflight this server never grants.
struct ChatRoutes {
    let routes: WebRoutes

    static let header = HTTPField.Name("X-Hearth-Chat")!
    /// Most names one avatar request may ask about.
    static let maxAvatarNames = 50

    func add(to router: Router<HearthRequestContext>) {
        router.post("/chat/ticket") { request, _ in try await ticket(request) }
        router.post("/chat/upload") { request, _ in try await upload(request) }
        router.get("/chat/avatars") { request, _ in try await avatars(request) }
    }

    /// Sent by the chat's script on this site: its header, and no other site named as the origin.
    static func fromTheChat(_ request: Request) -> Bool {
        guard request.headers[header] == "1" else { return false }
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin" { return false }
        guard let origin = request.headers[.origin] else { return true }
        return request.head.authority.map { origin.lowercased().hasSuffix("://" + $0.lowercased()) } ?? false
    }

    /// `POST /chat/ticket`: `{"account": NAME, "ticket": T}` for the signed-in session,
    /// `{"account": null}` signed out (the page then shows its own form); 403 from anywhere but the chat.
    func ticket(_ request: Request) async throws -> Response {
        guard Self.fromTheChat(request) else { return WebJSON.error(.forbidden, "not from the chat") }
        // Not an error signed out (a failed fetch would be one in the browser's console).
        guard let (account, hash) = await routes.viewer(request) else { return WebJSON.response(.ok, ["account": nil]) }
        guard let ticket = try await ChatTickets.issue(routes.services.store, for: account, tokenHash: hash) else {
            return WebJSON.error(.serviceUnavailable, "too many sign-ins at once; try again soon")
        }
        return WebJSON.response(.ok, ["account": account.name, "ticket": ticket])
    }

    /// `POST /chat/upload`: the picture (the request's body) kept for the signed-in session's
    /// account, answered with its address for the chat to post.
    func upload(_ request: Request) async throws -> Response {
        guard Self.fromTheChat(request) else { return WebJSON.error(.forbidden, "not from the chat") }
        guard let media = routes.services.media else {
            return WebJSON.error(.notFound, "this server keeps no pictures")
        }
        guard let (account, _) = await routes.viewer(request) else {
            return WebJSON.error(.unauthorized, "sign in to upload pictures")
        }
        guard routes.shared.uploads.allow(account.id) else {
            return WebJSON.error(.tooManyRequests, WebUpload.tooMany)
        }
        let files = MediaRoutes(core: routes.core, media: media)
        switch try await files.keep(try await files.uploadedBytes(request), accountID: account.id, ticket: nil) {
        case .success(let image): return WebJSON.response(.created, ["url": media.url(image)])
        case .failure(let refused): return WebJSON.error(refused.status, refused.text)
        }
    }

    /// `GET /chat/avatars?names=a,b`: each named account's profile picture path, null without one.
    func avatars(_ request: Request) async throws -> Response {
        let asked = (request.uri.queryParameters["names"].map(String.init) ?? "").split(separator: ",")
        guard asked.count <= Self.maxAvatarNames else {
            return WebJSON.error(.badRequest, "at most \(Self.maxAvatarNames) names")
        }
        var found: [String: String?] = [:]
        for name in Set(asked.map(String.init)) where IRCNames.fold(name).utf8.count <= WebLimits.maxNameLength {
            found[name] = .some(nil)
            guard let id = try await routes.services.store.account(nameKey: IRCNames.fold(name))?.avatarImageId,
                let image = try await routes.services.store.image(id: id)
            else { continue }
            found[name] = MediaLibrary.path(id: image.id, format: image.format)
        }
        return WebJSON.response(.ok, found)
    }
}
