import Foundation
import HTTPTypes
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol
import HearthStore
import Hummingbird

/// Signing in on the web: name and password (or a resume token), checked by the same account
/// rules and the same throttle as `!login`; the session is a resume token in an HttpOnly cookie,
/// which signing out revokes.
struct WebSignIn {
    let routes: WebRoutes

    func add(to router: Router<HearthRequestContext>) {
        router.get("/signin") { request, context in
            let next = LocalRedirect.path(request.uri.queryParameters["next"].map(String.init))
            return try await form(request, context, next: next, name: "", problem: nil, status: .ok)
        }
        router.post("/signin") { request, context in try await signIn(request, context) }
        router.post("/signout") { request, _ in try await signOut(request) }
    }

    static func csrfMatches(_ request: Request, _ form: [String: String]) -> Bool {
        guard let cookie = WebForms.cookies(request)[WebForms.csrfCookie], WebForms.isToken(cookie),
            let field = form["csrf"]
        else { return false }
        return Sodium.constantTimeEquals(Array(cookie.utf8), Array(field.utf8))
    }

    func form(
        _ request: Request, _ context: HearthRequestContext, next: String, name: String, problem: String?,
        status: HTTPResponse.Status
    ) async throws -> Response {
        var values: [String: Any] = [
            "next": next, "name": name, "maxName": WebLimits.maxNameLength, "maxSecret": WebLimits.maxSecretLength,
        ]
        if let problem { values["problem"] = problem }
        return try await routes.render(request, context, status: status, template: "signin") { _ in
            WebContent(title: "Sign in", summary: "Sign in to Hearth", values: values)
        }
    }

    func signIn(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let fields: [String: String]
        switch await WebForms.fields(request) {
        case .success(let form): fields = form
        case .failure(let refused): return refused.response
        }
        let next = LocalRedirect.path(fields["next"])
        let name = String((fields["name"] ?? "").trimmingCharacters(in: .whitespaces).prefix(WebLimits.maxNameLength))
        guard Self.csrfMatches(request, fields) else {
            return try await form(
                request, context, next: next, name: name, problem: "The form had expired; please try again.",
                status: .forbidden)
        }
        let secret = fields["password"] ?? ""
        guard !name.isEmpty, !secret.isEmpty, secret.utf8.count <= WebLimits.maxSecretLength else {
            return try await form(
                request, context, next: next, name: name, problem: "Give your account name and password.",
                status: .badRequest)
        }
        let accounts = routes.services.accounts
        let address = context.client(request, routes.core.config.httpProxies)
        let account: Stored<Account>
        do {
            account = try await accounts.checkSecret(name: name, secret: secret, address: address).0
        } catch let error as AccountError {
            return try await form(
                request, context, next: next, name: name, problem: error.message, status: .unauthorized)
        }
        let (token, _) = try await accounts.issueToken(accountID: account.id)
        return routes.withSession(routes.redirect(next, flash: "Signed in as \(account.name)."), token: token)
    }

    func signOut(_ request: Request) async throws -> Response {
        guard case .success(let fields) = await WebForms.fields(request), Self.csrfMatches(request, fields) else {
            return WebForms.expired.response
        }
        if let (_, hash) = await routes.viewer(request) { try await routes.services.store.revokeToken(tokenHash: hash) }
        return routes.withSession(routes.redirect("/", flash: "Signed out."), token: nil)
    }
}

extension WebRoutes {
    /// Signing in (`token`, the session's resume token) or out (nil). Signing in also starts a
    /// new CSRF token: one handed out before belonged to the browser's anonymous visit. Signing
    /// out asks the browser to drop its copies of the private pages too.
    func withSession(_ response: Response, token: String?) -> Response {
        var response = response
        let lifetime = Int(services.accounts.tokenLifetime)
        response.headers.append(
            HTTPField(
                name: .setCookie,
                value: WebForms.setCookie(
                    WebForms.sessionCookie, token ?? "", maxAge: token == nil ? 0 : lifetime,
                    secure: secure)))
        if token != nil {
            response.headers.append(
                HTTPField(
                    name: .setCookie,
                    value: WebForms.setCookie(
                        WebForms.csrfCookie, WebForms.newToken(), maxAge: Self.csrfSeconds,
                        secure: secure)))
        } else {
            response.headers[Self.clearSiteData] = #""cache""#
        }
        return response
    }

    static let csrfSeconds = 365 * 86400
    static let clearSiteData = HTTPField.Name("Clear-Site-Data")!
}
