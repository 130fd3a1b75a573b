import Foundation
import HTTPTypes
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol
import HearthStore
import Hummingbird
import NIOCore

/// The web side: every app's pages and forms, sign-in and sign-out, the home page (the site's
/// files are `AssetRoutes`). Pages are rendered here; what they show comes from the apps (`WebPage`).
struct WebRoutes {
    let core: Core
    let library: WebTemplates
    let pages: [WebPage]
    let actions: [WebAction]
    let publicURL: @Sendable () -> String
    /// Served over TLS here (the HTTPS port): cookies are Secure.
    let overTLS: Bool
    /// The limits and caches every port shares.
    let shared: WebShared
    var cache: WebPageCache { shared.pages }
    /// The site's files: the layout links the stylesheet with its version.
    let assets: WebAssets
    var services: BotServices { core.bot.services }

    /// The IRC port as bound (the home page tells people where to connect).
    let ircPort: @Sendable () -> Int

    init(
        core: Core, assets: WebAssets, shared: WebShared, publicURL: @escaping @Sendable () -> String,
        overTLS: Bool, ircPort: @escaping @Sendable () -> Int
    ) {
        self.core = core
        self.shared = shared
        self.assets = assets
        self.ircPort = ircPort
        self.publicURL = publicURL
        self.overTLS = overTLS
        pages = core.bot.apps.flatMap(\.pages)
        actions = core.bot.apps.flatMap(\.actions)
        WebEscaping.register()
        var library = WebTemplates()
        // The templates are part of the program: one that does not parse is a bug found at start.
        for (name, source) in [
            ("home", WebLayout.home), ("signin", WebLayout.signIn), ("problem", WebLayout.problem),
        ] + AccountTemplates.all + WebPartials.all.map({ ($0.key, $0.value) })
            + pages.map({ ($0.name, $0.template) })
        {
            try! library.register(WebEscaping.pragma + source, named: name)
        }
        self.library = library
        navigation = Self.navigation(pages)
        scripts = assets.scripts
    }

    /// The site's scripts by name, with their versions (`WebAssets.scripts`).
    let scripts: [String: String]

    /// The header's links: to the pages that ask for one (`WebPage.nav`), in their positions.
    let navigation: [(path: String, label: String)]

    static func navigation(_ pages: [WebPage]) -> [(path: String, label: String)] {
        pages.enumerated().compactMap { index, page in page.nav.map { (index, page.path, $0) } }
            .sorted { ($0.2.position, $0.0) < ($1.2.position, $1.0) }
            .map { ($0.1, $0.2.label) }
    }

    func add(to router: Router<HearthRequestContext>) {
        for page in pages where page.path != "/" {
            router.get(RouterPath(page.path)) { request, context in
                try await render(request, context, template: page.name, cacheable: true) { viewer in
                    try await page.load(
                        WebRequest(
                            parameters: parameters(page.path, context), query: query(request), viewer: viewer,
                            services: services, route: page.path))
                }
            }
        }
        for action in actions {
            router.post(RouterPath(action.path)) { request, context in
                try await act(action, request, context)
            }
        }
        // The home page: an app's (`HomePage`), or the built-in one; either says how to connect.
        let home = pages.first { $0.path == "/" }
        router.get("/") { request, context in
            try await render(request, context, template: home?.name ?? "home", cacheable: true) { viewer in
                let (host, port) = (URL(string: publicURL())?.host ?? "localhost", ircPort())
                var content =
                    try await home?.load(
                        WebRequest(
                            parameters: [:], query: query(request), viewer: viewer, services: services, route: "/"))
                    ?? WebContent(
                        title: "Hearth",
                        summary: "Chat from nc, IRC or the web, with memes, fortunes, recipes and family.", values: [:])
                content.values.merge(["network": core.config.networkName, "host": host, "ircPort": port]) { $1 }
                return content
            }
        }
        WebSignIn(routes: self).add(to: router)
        ChatRoutes(routes: self).add(to: router)
        WebPictureRoutes(routes: self).add(to: router)
        if let media = services.media { WebUpload(routes: self, media: media).add(to: router) }
        WebAccount(routes: self).add(to: router)
        PushRoutes(routes: self).add(to: router)
        InstallRoutes(assets: assets, networkName: core.config.networkName).add(to: router)
    }

    func parameters(_ path: String, _ context: HearthRequestContext) -> [String: String] {
        var values: [String: String] = [:]
        for part in path.split(separator: "/") where part.hasPrefix(":") {
            let name = String(part.dropFirst())
            values[name] = context.parameters.get(name)
        }
        return values
    }

    func query(_ request: Request) -> [String: String] {
        request.uri.query.flatMap(WebForms.decode) ?? [:]
    }

    /// Who is signed in: the account of the session cookie's resume token, if it is still valid.
    func viewer(_ request: Request) async -> (AccountRef, tokenHash: String)? {
        guard let token = WebForms.cookies(request)[WebForms.sessionCookie], SecretCodes.looksLikeResumeToken(token)
        else { return nil }
        let hash = Sodium.hashSecret(token)
        guard let account = try? await services.store.account(tokenHash: hash) else { return nil }
        return (AccountRef(id: account.id, name: account.name), hash)
    }

    var secure: Bool { overTLS || publicURL().lowercased().hasPrefix("https:") }

    /// Renders a page in the layout, with the viewer, the CSRF token and any one-time message.
    /// `cacheable`: a visitor's copy may be served again (see `WebPageCache`).
    func render(
        _ request: Request, _ context: HearthRequestContext, status: HTTPResponse.Status = .ok,
        template: String, cacheable: Bool = false, load: (AccountRef?) async throws -> WebContent
    ) async throws -> Response {
        let signedIn = await viewer(request)
        let jar = WebForms.cookies(request)
        var cookies: [String] = []
        let csrf = jar[WebForms.csrfCookie].flatMap { WebForms.isToken($0) ? $0 : nil } ?? WebForms.newToken()
        if jar[WebForms.csrfCookie] != csrf {
            cookies.append(WebForms.setCookie(WebForms.csrfCookie, csrf, maxAge: Self.csrfSeconds, secure: secure))
        }
        let flash = jar[WebForms.flashCookie]?.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        let cacheKey = cacheable && cache.isOn && signedIn == nil && flash == nil ? request.uri.description : nil
        let commands = services.commandCount
        if let cacheKey, let html = cache.page(cacheKey, commands: commands) {
            return Self.html(status, html, cookies: cookies, signedIn: false)
        }
        var status = status
        var name = template
        var content: WebContent
        do {
            content = try await load(signedIn?.0)
        } catch WebRefusal.moved(let path) {
            return Self.moved(path + (request.uri.query.map { "?" + $0 } ?? ""))
        } catch let refusal as WebRefusal {
            (status, name, content) = problem(refusal, path: request.uri.path)
        }
        var values = content.values
        values["csrf"] = csrf
        values["script"] = scripts
        if let viewer = signedIn?.0 {
            (values["viewer"], values["viewerKey"]) = (viewer.name, IRCNames.fold(viewer.name))
        }
        let body = library.render(values, withTemplate: name) ?? ""
        var frame = WebLayout.Frame(
            title: content.title, summary: content.summary, url: publicURL() + request.uri.path,
            image: content.image.map { $0.hasPrefix("/") ? publicURL() + $0 : $0 }, nav: navigation,
            stylesheet: assets.link("/static/hearth.css"),
            viewer: signedIn.map { ($0.0.name, IRCNames.fold($0.0.name)) }, csrf: csrf)
        frame.script = assets.link("/static/hearth.js")
        if let flash {
            frame.flash = String(flash.prefix(WebLimits.maxFlashBytes))
            cookies.append(WebForms.setCookie(WebForms.flashCookie, "", maxAge: 0, secure: secure))
        }
        let html = WebLayout.page(frame, body: body)
        // Only a page without this visitor's token in it may be handed to the next one.
        if let cacheKey, status == .ok, !html.contains(csrf) { cache.keep(cacheKey, html: html, commands: commands) }
        return Self.html(status, html, cookies: cookies, signedIn: signedIn != nil)
    }

    /// A page; a signed-in viewer's is private and kept nowhere, not even for the back button
    /// after signing out on a shared computer.
    static func html(_ status: HTTPResponse.Status, _ html: String, cookies: [String], signedIn: Bool) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: signedIn ? "private, no-store" : "no-cache",
        ]
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A renamed person's page: 308 keeps the method, and no-cache makes browsers ask again,
    /// since the old name ends leading here once someone else takes it.
    static func moved(_ location: String) -> Response {
        Response(status: .permanentRedirect, headers: [.location: location, .cacheControl: "no-cache"])
    }

    func problem(_ refusal: WebRefusal, path: String) -> (HTTPResponse.Status, String, WebContent) {
        let (status, heading, message, signIn): (HTTPResponse.Status, String, String, Bool)
        switch refusal {
        case .notFound(let text): (status, heading, message, signIn) = (.notFound, "Not found", text, false)
        case .signInRequired(let text):
            (status, heading, message, signIn) = (.unauthorized, "Sign in first", text, true)
        case .forbidden(let text): (status, heading, message, signIn) = (.forbidden, "Not for you", text, false)
        case .moved(let path): (status, heading, message, signIn) = (.notFound, "Moved", "It is at \(path) now.", false)
        }
        let values: [String: Any] = [
            "heading": heading, "message": message, "signIn": signIn, "next": WebText.queryEncoded(path),
        ]
        return (status, "problem", WebContent(title: heading, summary: message, values: values))
    }

    /// A form: the CSRF token must match; signed in; then the bot command it stands for, said
    /// by the signed-in user; its answer is shown on the page the browser goes back to.
    func act(_ action: WebAction, _ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let params = parameters(action.path, context)
        let form: [String: String]
        let limit = action.isLong ? WebLimits.maxLongFormBytes : WebLimits.maxFormBytes
        let fields =
            if let fileLimit = action.fileLimit, let boundary = Multipart.boundary(request.headers[.contentType]) {
                await WebForms.fileFields(request, boundary: boundary, limit: fileLimit, as: action.fileField)
            } else {
                await WebForms.fields(request, limit: limit)
            }
        switch fields {
        case .success(let fields): form = fields
        case .failure(let refused): return refused.response
        }
        guard WebSignIn.csrfMatches(request, form) else {
            return WebForms.expired.response
        }
        let back = action.back(params)
        guard let (viewer, hash) = await viewer(request) else { return signInFirst(back) }
        if let refused = formLimited(viewer) { return refused.response }
        guard let line = action.command(params, form) else {
            return redirect(back, flash: "That form was empty or not understood; nothing was changed.")
        }
        let caller = Caller(
            sessionID: 0, nick: viewer.name, account: viewer, tokenHash: hash,
            address: context.client(request, core.config.httpProxies), isIRC: false)
        let response = await core.bot.handle(line, caller: caller, presence: core, requireBang: true)
        core.applyFromWeb(response?.effects ?? [])
        let failed = response?.failure != nil
        if failed, let page = action.formPage {
            let problem = (response?.lines ?? []).joined(separator: " ")
            return try await render(request, context, status: .unprocessableContent, template: page.name) { viewer in
                var again = WebRequest(
                    parameters: params, query: [:], viewer: viewer, services: services, route: page.path)
                again.form = form
                var content = try await page.load(again)
                content.values["problem"] = problem
                return content
            }
        }
        let next = failed ? back : response?.madePage ?? back
        let quiet = action.quiet && !failed
        return redirect(next, flash: quiet ? nil : (response?.lines ?? []).joined(separator: " "))
    }

    func redirect(_ path: String, flash: String? = nil) -> Response {
        var headers: HTTPFields = [.location: path]
        if let flash { headers.append(HTTPField(name: .setCookie, value: Self.flashCookie(flash, secure: secure))) }
        return Response(status: .seeOther, headers: headers)
    }

    /// The one-time message for the next page, cut (between characters) to its limit.
    static func flashCookie(_ text: String, secure: Bool) -> String {
        var cut = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            if bytes > WebLimits.maxFlashBytes { break }
            cut.append(character)
        }
        return WebForms.setCookie(WebForms.flashCookie, WebText.queryEncoded(cut), maxAge: 60, secure: secure)
    }
}
