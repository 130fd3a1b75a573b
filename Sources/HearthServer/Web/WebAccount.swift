import Foundation
import HTTPTypes
import HearthCrypto
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import Hummingbird

/// An account on the web: sign up, forgot password, settings (every `!set` setting, the profile
/// picture, the password), signing out everywhere and deleting the account. Each form runs the
/// command it stands for (`!register`, `!recover`, `!set`, `!avatar`, `!passwd`, `!logout all`,
/// `!account delete`) through `Bot.run`, from its fields as words: the rules, throttles and
/// messages are the chat's, and a password is never written out as a chat line.
struct WebAccount {
    let routes: WebRoutes

    /// The one-time cookie that carries a new account's recovery codes from the sign-up form to
    /// the page that shows them (once: that page clears it).
    static let codesCookie = "hearth_codes"
    static let codesSeconds = 300

    func add(to router: Router<HearthRequestContext>) {
        router.get("/signup") { request, context in
            try await page(request, context, template: "signup", title: "Sign up") { _ in Self.formValues() }
        }
        router.post("/signup") { request, context in
            try await answer { try await signUp(request, context) }
        }
        router.get("/welcome") { request, context in try await welcome(request, context) }
        router.get("/recover") { request, context in
            try await page(request, context, template: "recover", title: "Forgot your password?") { _ in
                Self.formValues()
            }
        }
        router.post("/recover") { request, context in
            try await answer { try await recover(request, context) }
        }
        router.get("/settings") { request, context in try await settingsPage(request, context) }
        router.post("/settings") { request, context in
            try await answer { try await changeSettings(request, context) }
        }
        router.post("/settings/password") { request, context in
            try await answer { try await changePassword(request, context) }
        }
        router.post("/settings/avatar") { request, context in
            try await answer { try await changeAvatar(request, context) }
        }
        router.post("/settings/delete") { request, context in
            try await answer { try await deleteAccount(request, context) }
        }
        router.post("/signout/all") { request, context in
            try await answer { try await signOutEverywhere(request, context) }
        }
    }

    static func formValues(_ extra: [String: Any] = [:]) -> [String: Any] {
        extra.merging(
            [
                "maxName": WebLimits.maxNameLength, "maxSecret": WebLimits.maxSecretLength,
                "maxField": WebLimits.maxFieldLength,
            ], uniquingKeysWith: { $1 })
    }

    func page(
        _ request: Request, _ context: HearthRequestContext, status: HTTPResponse.Status = .ok, template: String,
        title: String, values: @escaping (AccountRef?) async throws -> [String: Any]
    ) async throws -> Response {
        var response = try await routes.render(request, context, status: status, template: template) { viewer in
            WebContent(title: title, summary: "Your Hearth account", values: try await values(viewer))
        }
        // Forms with passwords and codes: never kept by a cache or the back button's copy.
        response.headers[.cacheControl] = "no-store"
        return response
    }

    // MARK: forms

    /// A posted form's fields after its CSRF check; else throws the answer that refuses it.
    func fields(_ request: Request) async throws -> [String: String] {
        switch await WebForms.fields(request) {
        case .failure(let refused): throw refused
        case .success(let form):
            guard WebSignIn.csrfMatches(request, form) else { throw WebForms.expired }
            return form
        }
    }

    func answer(_ body: () async throws -> Response) async throws -> Response { try await WebRoutes.answer(body) }

    /// The caller a form's command runs as: the signed-in viewer (if any), from the browser's address.
    func caller(_ request: Request, _ context: HearthRequestContext, _ viewer: (AccountRef, tokenHash: String)?)
        -> Caller
    {
        Caller(
            sessionID: 0, nick: viewer?.0.name ?? "web", account: viewer?.0, tokenHash: viewer?.tokenHash,
            address: context.client(request, routes.core.config.httpProxies), isIRC: false)
    }

    /// Runs a command for a form and applies what it does to the account's connections.
    func run(_ name: String, _ words: [String], as caller: Caller) async -> BotResponse {
        let core = routes.core
        let response = await core.bot.run(name, words: words, caller: caller, presence: core)
        core.applyFromWeb(response.effects)
        return response
    }

    /// A field, trimmed.
    static func text(_ form: [String: String], _ name: String) -> String {
        (form[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What is wrong with the lengths of a form's name, password and other fields, if anything.
    static func lengthProblem(name: String = "", secrets: [String], others: [String] = []) -> String? {
        if name.count > WebLimits.maxNameLength { return "A name has at most \(WebLimits.maxNameLength) characters." }
        if secrets.contains(where: { $0.utf8.count > WebLimits.maxSecretLength }) {
            return "A password has at most \(WebLimits.maxSecretLength) bytes."
        }
        if others.contains(where: { $0.count > WebLimits.maxFieldLength }) {
            return "A field has at most \(WebLimits.maxFieldLength) characters."
        }
        return nil
    }

    /// A failed command's message without the command's name (`register: the name is taken`).
    static func message(_ response: BotResponse, command: String) -> String {
        let text = response.lines.joined(separator: " ")
        let prefix = command + ": "
        guard text.hasPrefix(prefix) else { return text }
        let rest = text.dropFirst(prefix.count)
        return rest.prefix(1).uppercased() + rest.dropFirst()
    }

    func withSession(_ response: Response, token: String?) -> Response { routes.withSession(response, token: token) }

    // MARK: sign up and recovery

    func signUp(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let form = try await fields(request)
        let name = Self.text(form, "name")
        let (email, phone, invite) = (Self.text(form, "email"), Self.text(form, "phone"), Self.text(form, "invite"))
        let password = form["password"] ?? ""
        func again(_ problem: String, _ status: HTTPResponse.Status) async throws -> Response {
            try await page(request, context, status: status, template: "signup", title: "Sign up") { _ in
                Self.formValues([
                    "problem": problem, "name": name, "email": email, "phone": phone, "invite": invite,
                ])
            }
        }
        guard !name.isEmpty, !password.isEmpty else {
            return try await again("Choose a name and a password.", .badRequest)
        }
        if let problem = Self.lengthProblem(name: name, secrets: [password], others: [email, phone, invite]) {
            return try await again(problem, .badRequest)
        }
        guard password == form["password2"] else {
            return try await again("The two passwords differ; type the same one twice.", .badRequest)
        }
        let viewer = await routes.viewer(request)
        let words = [name, password] + [email, phone, invite].filter { !$0.isEmpty }
        let response = await run("register", words, as: caller(request, context, viewer))
        guard response.failure == nil, let token = response.secrets.token else {
            return try await again(Self.message(response, command: "register"), .badRequest)
        }
        var done = routes.redirect(Self.welcomePath, flash: response.lines.joined(separator: " "))
        // For the new account's page only, and only for that account.
        let owner = try await routes.services.store.account(tokenHash: Sodium.hashSecret(token))?.id ?? 0
        let codes = ["\(owner)"] + response.secrets.recoveryCodes
        done.headers.append(HTTPField(name: .setCookie, value: codesCookie(codes.joined(separator: "."))))
        return withSession(done, token: token)
    }

    static let welcomePath = "/welcome"

    func codesCookie(_ value: String) -> String {
        WebForms.setCookie(
            Self.codesCookie, value, maxAge: value.isEmpty ? 0 : Self.codesSeconds, secure: routes.secure,
            path: Self.welcomePath)
    }

    /// The new account's recovery codes, shown once with a "save these" step (to that account).
    func welcome(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        var words = (WebForms.cookies(request)[Self.codesCookie] ?? "").split(separator: ".").map(String.init)
        let owner = words.isEmpty ? nil : Int64(words.removeFirst())
        let codes = words.filter { $0.count <= 32 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
        var response = try await page(request, context, template: "welcome", title: "Welcome") { viewer in
            guard let viewer else { throw WebRefusal.signInRequired("Sign in to see your account.") }
            let mine = owner == viewer.id ? codes : []
            return ["name": viewer.name, "codes": mine, "shown": !mine.isEmpty]
        }
        response.headers.append(HTTPField(name: .setCookie, value: codesCookie("")))
        return response
    }

    func recover(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let form = try await fields(request)
        let (name, code) = (Self.text(form, "name"), Self.text(form, "code"))
        let password = form["password"] ?? ""
        func again(_ problem: String, _ status: HTTPResponse.Status) async throws -> Response {
            try await page(request, context, status: status, template: "recover", title: "Forgot your password?") { _ in
                Self.formValues(["problem": problem, "name": name])
            }
        }
        guard !name.isEmpty, !code.isEmpty, !password.isEmpty else {
            return try await again("Give your name, one recovery code and a new password.", .badRequest)
        }
        if let problem = Self.lengthProblem(name: name, secrets: [password], others: [code]) {
            return try await again(problem, .badRequest)
        }
        guard password == form["password2"] else {
            return try await again("The two passwords differ; type the same one twice.", .badRequest)
        }
        let response = await run("recover", [name, code, password], as: caller(request, context, nil))
        guard response.failure == nil, let token = response.secrets.token else {
            return try await again(Self.message(response, command: "recover"), .unauthorized)
        }
        return withSession(routes.redirect("/settings", flash: response.lines.joined(separator: " ")), token: token)
    }

    // MARK: settings

    func settingsPage(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        try await page(request, context, template: "settings", title: "Settings") { viewer in
            guard let me = viewer else { throw WebRefusal.signInRequired("Sign in to change your settings.") }
            let store = routes.services.store
            let current = UserSettings(stored: try await store.settings(me.id))
            var values = Self.formValues(["name": me.name])
            // The settings' push section (push.js) asks the browser with the server's key.
            values["vapid"] = routes.core.push?.vapid.publicKeyText
            values["settings"] = Setting.all.map { setting -> [String: Any] in
                var row: [String: Any] = [
                    "key": setting.key, "summary": setting.summary, "value": current[setting.key],
                ]
                if let options = setting.values {
                    row["choice"] = true
                    row["options"] = options.map { ["option": $0, "selected": $0 == current[setting.key]] }
                }
                return row
            }
            if let avatar = try await store.account(id: me.id)?.avatarImageId,
                let image = try await store.image(id: avatar)
            {
                values["avatar"] = MediaLibrary.path(id: image.id, format: image.format)
            }
            return values
        }
    }

    /// The signed-in viewer for a settings form, within `WebLimits.formBurst` as an app's forms
    /// are; else throws the redirect to sign in, or the 429.
    func signedIn(_ request: Request) async throws -> (AccountRef, tokenHash: String) {
        guard let viewer = await routes.viewer(request) else {
            throw WebForms.Refused(routes.signInFirst("/settings"))
        }
        if let refused = routes.formLimited(viewer.0) { throw refused }
        return viewer
    }

    /// Every setting whose value the form changes, one `!set` each, in the table's order.
    func changeSettings(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let form = try await fields(request)
        let viewer = try await signedIn(request)
        let current = UserSettings(stored: try await routes.services.store.settings(viewer.0.id))
        var lines: [String] = []
        if let problem = Self.lengthProblem(secrets: [], others: Setting.all.compactMap { form[$0.key] }) {
            return routes.redirect("/settings", flash: problem + " Nothing was changed.")
        }
        for setting in Setting.all {
            guard let value = form[setting.key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
                value != current[setting.key]
            else { continue }
            let response = await run(
                "set", [setting.key, value],
                as: caller(request, context, viewer))
            lines.append(Self.message(response, command: "set"))
        }
        return routes.redirect(
            "/settings", flash: lines.isEmpty ? "Nothing was changed." : lines.joined(separator: " "))
    }

    func changePassword(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let form = try await fields(request)
        let viewer = try await signedIn(request)
        let (old, new) = (form["old"] ?? "", form["password"] ?? "")
        guard !old.isEmpty, !new.isEmpty else {
            return routes.redirect("/settings", flash: "Give your password and a new one; nothing was changed.")
        }
        if let problem = Self.lengthProblem(secrets: [old, new]) {
            return routes.redirect("/settings", flash: problem + " Nothing was changed.")
        }
        guard new == form["password2"] else {
            return routes.redirect("/settings", flash: "The two new passwords differ; nothing was changed.")
        }
        let response = await run("passwd", [old, new], as: caller(request, context, viewer))
        guard response.failure == nil, let token = response.secrets.token else {
            return routes.redirect("/settings", flash: Self.message(response, command: "passwd"))
        }
        return withSession(
            routes.redirect("/settings", flash: "Password changed. Your other devices and connections are signed out."),
            token: token)
    }

    /// A new profile picture: the upload is cut to a square (at the place the form chose along
    /// its long side, else the centre) and kept as one of the person's pictures, then `!avatar`.
    func changeAvatar(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let (account, form) = try await routes.fileForm(request, back: "/settings")
        let viewer = try await signedIn(request)
        guard let media = routes.services.media else {
            return routes.redirect("/settings", flash: "This server keeps no pictures.")
        }
        if form.field("remove") != nil {
            let response = await run("avatar", ["off"], as: caller(request, context, viewer))
            return routes.redirect("/settings", flash: Self.message(response, command: "avatar"))
        }
        guard let file = form.firstFile, !file.isEmpty else {
            return routes.redirect("/settings", flash: "Not changed: choose a picture first.")
        }
        guard routes.shared.uploads.allow(account.id) else {
            return routes.redirect("/settings", flash: WebUpload.tooMany)
        }
        let focus = form.field("focus").flatMap { Double($0) }.map {
            min(100, max(0, $0)) / 100
        }
        let image: ImageRecord
        do {
            image = try await media.ingest(file, ownerID: viewer.0.id, square: focus ?? 0.5)
        } catch {
            return routes.redirect("/settings", flash: "Not changed: \(error).")
        }
        guard try await routes.services.store.addUpload(image, tokenHash: nil) else {
            media.delete(ids: [image.id])
            return routes.redirect("/settings", flash: "Not changed; please try again.")
        }
        let response = await run("avatar", [image.id], as: caller(request, context, viewer))
        return routes.redirect(
            "/settings",
            flash: response.failure == nil
                ? "Your profile picture is changed." : Self.message(response, command: "avatar"))
    }

    /// Deleting the account: the form asks for the name (typed again) and the password.
    func deleteAccount(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let form = try await fields(request)
        let viewer = try await signedIn(request)
        let confirm = Self.text(form, "confirm")
        guard IRCNames.fold(confirm) == IRCNames.fold(viewer.0.name) else {
            return routes.redirect(
                "/settings", flash: "Type your name, \(viewer.0.name), to delete the account; nothing was deleted.")
        }
        let password = form["password"] ?? ""
        guard !password.isEmpty, Self.lengthProblem(secrets: [password]) == nil else {
            return routes.redirect("/settings", flash: "Give your password to delete the account; nothing was deleted.")
        }
        let response = await run("account", ["delete", password], as: caller(request, context, viewer))
        guard response.failure == nil else {
            return routes.redirect("/settings", flash: Self.message(response, command: "account"))
        }
        return withSession(routes.redirect("/", flash: response.lines.joined(separator: " ")), token: nil)
    }

    func signOutEverywhere(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        _ = try await fields(request)
        guard let viewer = await routes.viewer(request) else {
            return withSession(routes.redirect("/", flash: "Signed out."), token: nil)
        }
        let response = await run("logout", ["all"], as: caller(request, context, viewer))
        let flash =
            response.failure == nil
            ? "Signed out everywhere: every device and connection." : response.lines.joined(separator: " ")
        return withSession(routes.redirect("/", flash: flash), token: nil)
    }
}
