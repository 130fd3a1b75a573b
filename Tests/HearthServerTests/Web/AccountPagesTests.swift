import Foundation
import HearthAccounts
import HearthKit
import HearthMedia
import HearthTesting
import Testing

@testable import HearthServer

/// The account forms on the web: sign up (recovery codes shown once), forgot password,
/// settings, password, profile picture, sign out everywhere and deleting the account. Each
/// is the chat command it stands for, with its rules and throttles, behind a CSRF token.
@Suite struct AccountPagesTests {
    /// Signs up on the web; the answer of the form.
    static func signUp(
        _ browser: WebBrowser, _ name: String, password: String = "s3cret-pass", extra: [String: String] = [:]
    ) async throws -> WebBrowser.Page {
        _ = try await browser.get("/signup")
        return try await browser.post(
            "/signup", form: ["name": name, "password": password, "password2": password].merging(extra) { $1 })
    }

    static func codes(_ page: String) -> [String] {
        page.matches(of: /<li><code>([A-Z0-9-]+)<\/code><\/li>/).map { String($0.1) }
    }

    @Test func signingUpShowsTheRecoveryCodesOnceAndSignsIn() async throws {
        try await withServer { server in
            let browser = WebBrowser(server)
            let form = try await browser.get("/signup")
            #expect(form.status == 200 && form.body.contains(#"<form method="post" action="/signup""#))
            #expect(form.headers["cache-control"] == "no-store")
            let done = try await Self.signUp(browser, "alice", extra: ["email": "alice@example.org"])
            #expect(done.status == 303 && done.location == "/welcome")
            #expect(browser.cookies["hearth_session"]?.hasPrefix("hrt_") == true)
            let welcome = try await browser.get("/welcome")
            let codes = Self.codes(welcome.body)
            #expect(codes.count == AccountService.recoveryCodeCount)
            #expect(welcome.body.contains("Save your recovery codes") && welcome.body.contains("required"))
            #expect(welcome.body.contains("Welcome to Hearth, alice!"))  // the command's own answer
            #expect(welcome.body.contains(#"<a href="/u/alice">alice</a>"#))
            // Shown once: the page cleared them.
            let again = try await browser.get("/welcome")
            #expect(again.status == 200 && Self.codes(again.body).isEmpty && !again.body.contains(codes[0]))
            // The account is the chat's: its password and a code work there.
            let nc = try await TestClient.plain(server)
            try await nc.send("!recover alice \(codes[0]) n3w-s3cret-pass")
            try await nc.expect("Password reset for alice")
        }
    }

    @Test func signingUpObeysTheRulesOfRegister() async throws {
        try await withServer { server in
            let taken = try await TestClient.user(server, "taken")
            let browser = WebBrowser(server)
            // Online under that nick, or registered: refused as !register refuses it.
            var page = try await Self.signUp(browser, "TAKEN")
            #expect(page.status == 400 && page.body.contains("using the nick TAKEN; pick another name"))
            try await taken.send("/quit")
            try await taken.expectClosed()
            page = try await Self.signUp(browser, "TAKEN")
            #expect(page.status == 400 && page.body.contains("The name TAKEN is taken; pick another"))
            page = try await Self.signUp(browser, "bob", password: "short")
            #expect(page.status == 400 && page.body.contains("at least"))
            _ = try await browser.get("/signup")
            page = try await browser.post(
                "/signup", form: ["name": "bob", "password": "s3cret-pass", "password2": "s3cret-pas"])
            #expect(page.status == 400 && page.body.contains("The two passwords differ"))
            page = try await Self.signUp(browser, "bob", extra: ["email": "not-an-address"])
            #expect(page.status == 400 && page.body.contains("neither an email address nor a phone number"))
            // Hostile input comes back escaped, in the message and in the fields.
            let hostile = "<script>alert(1)</script>"
            page = try await Self.signUp(browser, hostile, extra: ["phone": "\"><img src=x onerror=alert(1)>"])
            #expect(page.status == 400 && !page.body.contains("<script>alert") && !page.body.contains("<img src=x"))
            #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            // Limits: a name, a password and a field one past theirs.
            page = try await Self.signUp(browser, String(repeating: "n", count: WebLimits.maxNameLength + 1))
            #expect(page.status == 400 && page.body.contains("at most \(WebLimits.maxNameLength) characters"))
            page = try await Self.signUp(
                browser, "bob", password: String(repeating: "p", count: WebLimits.maxSecretLength + 1))
            #expect(page.status == 400 && page.body.contains("at most \(WebLimits.maxSecretLength) bytes"))
            page = try await Self.signUp(
                browser, "bob", extra: ["email": String(repeating: "e", count: WebLimits.maxFieldLength + 1)])
            #expect(page.status == 400 && page.body.contains("at most \(WebLimits.maxFieldLength) characters"))
            // No token, no account.
            page = try await browser.post(
                "/signup", form: ["name": "bob", "password": "s3cret-pass", "password2": "s3cret-pass"], csrf: false)
            #expect(page.status == 403 && browser.cookies["hearth_session"] == nil)
            // Signed in already: the command's own refusal.
            _ = try await browser.signIn("taken")
            page = try await Self.signUp(browser, "bob")
            #expect(page.status == 400 && page.body.contains("already logged in as taken"))
        }
    }

    /// The web and chat share one address's quota of new accounts.
    @Test func signingUpSharesTheAddressQuotaWithChat() async throws {
        try await withServer {
            $0.floodControl = true  // loopback is exempt otherwise
        } run: { server in
            let quota = AccountService.registrationsPerAddressPerHour
            for n in 0..<(quota - 1) {
                #expect(try await Self.signUp(WebBrowser(server), "web\(n)").status == 303)
            }
            let nc = try await TestClient.plain(server)
            try await nc.send("!register lastone s3cret-pass")
            try await nc.expect("Your account is ready")
            let refused = try await Self.signUp(WebBrowser(server), "onetoomany")
            #expect(
                refused.status == 400 && refused.body.contains("accounts were made from your address this hour"),
                "\(refused.status) \(refused.body.suffix(600))")
        }
    }

    @Test func aRecoveryCodeSetsANewPassword() async throws {
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            try await nc.send("!register alice s3cret-pass")
            try await nc.expect("Recovery codes")
            let code = String(try await nc.expect("-").split(separator: " ")[0])
            let browser = WebBrowser(server)
            #expect(try await browser.get("/recover").body.contains(#"action="/recover""#))
            func recover(_ code: String, _ password: String = "n3w-s3cret-pass") async throws -> WebBrowser.Page {
                _ = try await browser.get("/recover")
                return try await browser.post(
                    "/recover", form: ["name": "alice", "code": code, "password": password, "password2": password])
            }
            var page = try await recover("AAAA-BBBB-CCCC")
            #expect(page.status == 401 && page.body.contains("match (or the code was used already)"))
            page = try await recover(code, "short")
            #expect(page.status == 401 && page.body.contains("at least"))
            page = try await recover(code)
            #expect(page.status == 303 && page.location == "/settings")
            #expect(browser.cookies["hearth_session"] != nil)
            // The chat session with the old password was logged out; the new password works.
            try await nc.expect("logged out")
            #expect(try await WebBrowser(server).signIn("alice", "n3w-s3cret-pass").status == 303)
            // A used code does not work twice.
            page = try await recover(code, "an0ther-pass")
            #expect(page.status == 401)
            let forged = try await browser.post(
                "/recover", form: ["name": "alice", "code": code, "password": "an0ther", "password2": "an0ther"],
                csrf: false)
            #expect(forged.status == 403)
        }
    }

    /// Wrong codes are throttled as wrong passwords are: by the same throttle as `!recover`.
    @Test func wrongRecoveryCodesAreThrottled() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            var last = ""
            for _ in 0...LoginThrottle.freeFailures {
                _ = try await browser.get("/recover")
                last = try await browser.post(
                    "/recover",
                    form: ["name": "alice", "code": "AAAA-BBBB-CCCC", "password": "n3w-pass", "password2": "n3w-pass"]
                ).body
            }
            #expect(last.contains("Too many failed attempts"))
        }
    }

    @Test func settingsChangeEverySettingAsSetDoes() async throws {
        try await withServer { server in
            let nc = try await TestClient.user(server, "alice")
            let visitor = WebBrowser(server)
            let refused = try await visitor.get("/settings")
            #expect(refused.status == 401 && refused.body.contains("/signin?next="))
            _ = try await visitor.get("/signin")
            let post = try await visitor.post("/settings", form: ["tz": "Europe/Paris"])
            #expect(post.status == 303 && post.location?.hasPrefix("/signin") == true)
            let browser = WebBrowser(server)
            _ = try await browser.signIn("alice")
            let page = try await browser.get("/settings")
            for setting in Setting.all { #expect(page.body.contains(#"name="\#(setting.key)""#), "\(setting.key)") }
            #expect(page.body.contains(#"<option selected>off</option>"#))
            var answer = try await browser.post("/settings", form: ["tz": "Europe/Paris", "color": "on", "bot": "off"])
            #expect(answer.status == 303 && answer.location == "/settings")
            let flash = try await browser.get("/settings").body
            #expect(flash.contains("tz is now Europe/Paris") && flash.contains("color is now on"))
            try await nc.send("!settings")
            try await nc.expect("Europe/Paris")
            // The rules are !set's; hostile input is escaped; nothing past the limit is tried.
            answer = try await browser.post("/settings", form: ["tz": "<b>Mars/Olympus</b>"])
            let bad = try await browser.get("/settings").body
            #expect(
                bad.contains("is not a time zone I know") && bad.contains("&lt;b&gt;Mars") && !bad.contains("<b>Mars"))
            _ = try await browser.post(
                "/settings", form: ["tz": String(repeating: "x", count: WebLimits.maxFieldLength + 1)])
            #expect(try await browser.get("/settings").body.contains("Nothing was changed"))
            #expect(try await browser.post("/settings", form: ["tz": "UTC"], csrf: false).status == 403)
        }
    }

    @Test func changingThePasswordSignsOutTheOtherDevices() async throws {
        try await withServer { server in
            let nc = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            _ = try await browser.signIn("alice")
            let old = try #require(browser.cookies["hearth_session"])
            _ = try await browser.post(
                "/settings/password", form: ["old": "wrong-pass", "password": "n3w-s3cret", "password2": "n3w-s3cret"])
            #expect(try await browser.get("/settings").body.contains("Wrong name or password"))
            _ = try await browser.post(
                "/settings/password", form: ["old": "s3cret-pass", "password": "n3w-s3cret", "password2": "other"])
            #expect(try await browser.get("/settings").body.contains("The two new passwords differ"))
            let changed = try await browser.post(
                "/settings/password", form: ["old": "s3cret-pass", "password": "n3w s3cret", "password2": "n3w s3cret"])
            #expect(changed.status == 303 && browser.cookies["hearth_session"] != old)
            #expect(try await browser.get("/settings").body.contains("Password changed."))
            try await nc.expect("logged out")
            // A password with a space is one password (never split as a chat line would be).
            #expect(try await WebBrowser(server).signIn("alice", "n3w s3cret").status == 303)
            let stale = WebBrowser(server)
            #expect(
                !(try await stale.send("GET", "/", headers: ["Cookie": "hearth_session=\(old)"])).body
                    .contains("Sign out"))
            #expect(
                try await browser.post(
                    "/settings/password", form: ["old": "n3w s3cret", "password": "x1234567", "password2": "x1234567"],
                    csrf: false
                ).status == 403)
        }
    }

    @Test func signingOutEverywhereEndsEverySession() async throws {
        try await withServer { server in
            let nc = try await TestClient.user(server, "alice")
            let phone = WebBrowser(server)
            _ = try await phone.signIn("alice")
            let browser = WebBrowser(server)
            _ = try await browser.signIn("alice")
            #expect(try await browser.post("/signout/all", form: [:], csrf: false).status == 403)
            let out = try await browser.post("/signout/all", form: [:])
            #expect(out.status == 303 && out.location == "/" && browser.cookies["hearth_session"] == nil)
            #expect(try await browser.get("/").body.contains("Signed out everywhere"))
            try await nc.expect("You were logged out from another connection.")
            #expect(!(try await phone.get("/settings").body.contains("Sign out")))
        }
    }

    @Test func deletingTheAccountAsksForTheNameAndPassword() async throws {
        try await withServer { server in
            let nc = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            _ = try await browser.signIn("alice")
            _ = try await browser.post("/settings/delete", form: ["confirm": "bob", "password": "s3cret-pass"])
            #expect(try await browser.get("/settings").body.contains("Type your name, alice"))
            _ = try await browser.post("/settings/delete", form: ["confirm": "ALICE", "password": "wrong-pass"])
            #expect(try await browser.get("/settings").body.contains("Wrong name or password"))
            #expect(
                try await browser.post(
                    "/settings/delete", form: ["confirm": "alice", "password": "s3cret-pass"], csrf: false
                ).status == 403)
            let gone = try await browser.post(
                "/settings/delete", form: ["confirm": "alice", "password": "s3cret-pass"])
            #expect(gone.status == 303 && gone.location == "/" && browser.cookies["hearth_session"] == nil)
            #expect(try await browser.get("/").body.contains("Your account alice and everything"))
            try await nc.expect("logged out")
            // The name is free again.
            #expect(try await Self.signUp(WebBrowser(server), "alice").status == 303)
        }
    }

    /// A multipart body with the CSRF token, a focus and a picture.
    static func avatarForm(_ browser: WebBrowser, picture: [UInt8]?, fields: [String: String] = [:], csrf: Bool = true)
        -> (Data, String)
    {
        let boundary = "hearth-test-boundary"
        var body = Data()
        var all = fields
        if csrf, let token = browser.cookies["hearth_csrf"] { all["csrf"] = token }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) {
            body.append(
                Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        if let picture {
            body.append(
                Data(
                    ("--\(boundary)\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"me.png\"\r\n"
                        + "Content-Type: image/png\r\n\r\n").utf8))
            body.append(Data(picture))
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    static func postAvatar(
        _ browser: WebBrowser, _ picture: [UInt8]?, fields: [String: String] = [:], csrf: Bool = true
    )
        async throws -> WebBrowser.Page
    {
        let (body, type) = avatarForm(browser, picture: picture, fields: fields, csrf: csrf)
        return try await browser.send("POST", "/settings/avatar", body: body, headers: ["Content-Type": type])
    }

    /// A wide picture: red on the left third, green in the middle, blue on the right.
    static func stripes() -> [UInt8] {
        let image = GDImage(width: 300, height: 100)
        image.rect(0, 0, 100, 100, GDImage.color(255, 0, 0))
        image.rect(100, 0, 100, 100, GDImage.color(0, 255, 0))
        image.rect(200, 0, 100, 100, GDImage.color(0, 0, 255))
        return image.png()
    }

    @Test func aProfilePictureIsCutToTheChosenSquare() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            _ = try await browser.get("/signin")
            #expect(try await Self.postAvatar(browser, Self.stripes()).location?.hasPrefix("/signin") == true)
            _ = try await browser.signIn("alice")
            #expect(try await Self.postAvatar(browser, Self.stripes(), csrf: false).status == 403)
            for (focus, colour) in [("0", (255, 0, 0)), ("50", (0, 255, 0)), ("100", (0, 0, 255))] {
                let answer = try await Self.postAvatar(browser, Self.stripes(), fields: ["focus": focus])
                #expect(answer.status == 303 && answer.location == "/settings")
                let page = try await browser.get("/settings").body
                #expect(page.contains("Your profile picture is changed."))
                let src = try #require(page.firstMatch(of: /<img class="avatar large" src="([^"]+)"/)).1
                let (data, _) = try await Web.fetch(URL(string: "http://127.0.0.1:\(server.httpPort)\(src)")!)
                let image = try #require(
                    GDImage.decode([UInt8](data), format: .png) ?? GDImage.decode([UInt8](data), format: .jpeg))
                #expect(image.width == image.height && image.width == 100)
                let pixel = image.pixel(50, 50)
                let (r, g, b) = (Int((pixel >> 16) & 0xFF), Int((pixel >> 8) & 0xFF), Int(pixel & 0xFF))
                #expect(abs(r - colour.0) < 30 && abs(g - colour.1) < 30 && abs(b - colour.2) < 30, "\(focus)")
            }
            _ = try await Self.postAvatar(browser, Array("not a picture".utf8))
            #expect(try await browser.get("/settings").body.contains("Not changed:"))
            _ = try await Self.postAvatar(browser, nil, fields: ["remove": "1"])
            let removed = try await browser.get("/settings").body
            #expect(removed.contains("Your profile has no picture now.") && !removed.contains("<img class=\"avatar"))
        }
    }

    @Test func theHomePageShowsWhatIsHotAndYourCookieAndFamilies() async throws {
        try await withServer { server in
            let alice = try await TestClient.user(server, "alice")
            try await alice.send("!set privacy public")
            try await alice.expect("privacy is now public")
            try await alice.send("!meme success it works | on the web")
            try await alice.expect("meme #1 by alice")
            let visitor = try await WebBrowser(server).get("/")
            #expect(visitor.body.contains("<title>Hearth</title>"))
            #expect(visitor.body.contains(#"href="/m/1""#) && visitor.body.contains(#"href="/signup""#))
            #expect(!visitor.body.contains("Your cookie"))
            let bob = try await TestClient.user(server, "bob")
            try await bob.send("!tree new The <b>Bobs</b>")
            try await bob.expect("You founded The <b>Bobs</b>.")
            let browser = WebBrowser(server)
            _ = try await browser.signIn("bob")
            var home = try await browser.get("/").body
            #expect(home.contains("Your cookie") && home.contains(">Open it</button>"))
            #expect(home.contains("The &lt;b&gt;Bobs&lt;/b&gt;") && home.contains(#"href="/family/1""#))
            try await bob.send("!fortune")
            try await bob.expect("Lucky numbers")
            home = try await browser.get("/").body
            #expect(home.contains("Next cookie in") && !home.contains(">Open it</button>"))
            // It ticks as the cookie's page does: the same script (with its version) and class.
            #expect(home.contains(#"<time class="left" datetime="#) && home.contains(#"src="/static/countdown.js?v="#))
            // Someone who blocks bob: their memes are not on his home page.
            try await alice.send("!block bob")
            try await alice.expect("You blocked bob")
            home = try await browser.get("/").body
            #expect(!home.contains(#"href="/m/1""#))
        }
    }

    @Test func theSiteIsInstallable() async throws {
        try await withServer { server in
            let browser = WebBrowser(server)
            let home = try await browser.get("/")
            #expect(home.body.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
            #expect(home.body.contains(#"<link rel="icon" href="/static/icon.svg""#))
            let policy = try #require(home.headers["content-security-policy"])
            #expect(policy.hasPrefix("default-src 'none';") && policy.contains("manifest-src 'self'"))
            let manifest = try await browser.get("/manifest.webmanifest")
            #expect(manifest.headers["content-type"] == "application/manifest+json")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(manifest.body.utf8)) as? [String: Any])
            #expect(json["start_url"] as? String == "/" && json["display"] as? String == "standalone")
            let icons = try #require(json["icons"] as? [[String: String]])
            for icon in icons where icon["type"] == "image/png" {
                let side = Int(icon["sizes"]!.split(separator: "x")[0])!
                let (data, response) = try await Web.fetch(
                    URL(string: "http://127.0.0.1:\(server.httpPort)\(icon["src"]!)")!)
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/png")
                let image = try #require(GDImage.decode([UInt8](data), format: .png))
                #expect(image.width == side && image.height == side)
            }
            let worker = try await browser.get("/sw.js")
            #expect(worker.status == 200 && worker.headers["content-type"]?.hasPrefix("text/javascript") == true)
            #expect(worker.body.contains("/offline"))
            let offline = try await browser.get("/offline")
            #expect(offline.status == 200 && offline.body.contains("You are offline"))
            #expect(try await browser.get("/favicon.ico").headers["content-type"] == "image/png")
            #expect(try await browser.get("/static/icon.svg").headers["content-type"] == "image/svg+xml")
        }
    }
}
