import Foundation
import HearthMedia
import HearthTesting
import NIOCore
import Testing

@testable import HearthServer

/// What guards the web's forms: a file form's body is read only for a signed-in viewer with a
/// CSRF cookie and a valid boundary; forms within a per-account rate; uploads within the hour's
/// limit by every way in and on every port; private pages kept by no cache; sessions' cookies.
@Suite struct WebFormGuardTests {
    static func upload(_ browser: WebBrowser, _ path: String = "/pictures", boundary: String, file: Data)
        async throws -> WebBrowser.Page
    {
        var body = Data()
        for (name, value) in [("csrf", browser.cookies["hearth_csrf"] ?? ""), ("next", "/make")] {
            body.append(
                Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        body.append(
            Data(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n"
                    + "Content-Type: image/png\r\n\r\n").utf8))
        body.append(file)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return try await browser.send(
            "POST", path, body: body, headers: ["Content-Type": "multipart/form-data; boundary=\"\(boundary)\""])
    }

    @Test func aBoundaryRFC2046RefusesIsRefused() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            _ = try await browser.get("/make")
            let longest = String(repeating: "b", count: Multipart.maxBoundaryLength)
            let stored = try await Self.upload(browser, boundary: longest, file: Web.samplePNG())
            #expect(stored.status == 303 && stored.location?.hasPrefix("/make?picture=") == true)
            for bad in [longest + "b", "a@b", "bé", "ends-in-space "] {
                let refused = try await Self.upload(browser, boundary: bad, file: Web.samplePNG())
                #expect(refused.status == 400, "\(bad)")
                let avatar = try await Self.upload(browser, "/settings/avatar", boundary: bad, file: Web.samplePNG())
                #expect(avatar.status == 400, "\(bad)")
            }
        }
    }

    @Test func partsAreFoundWhereTheBodyRepeatsTheBoundarysStart() {
        let boundary = String(repeating: "a", count: 70)
        // Content that almost holds the delimiter again and again (what made the old search slow).
        let near = String(repeating: "\r\n--" + String(repeating: "a", count: 69), count: 200)
        let text =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(near)\r\n--\(boundary)\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"x\"\r\n\r\nXY\r\n--\(boundary)--\r\n"
        let form = Multipart(ByteBuffer(string: text), boundary: boundary)
        #expect(form.field("csrf") == near)
        #expect(form.firstFile == Array("XY".utf8))
        #expect(Multipart(ByteBuffer(string: "no parts"), boundary: boundary).parts.isEmpty)
    }

    @Test func aSignedOutUploadIsRefusedBeforeItsBodyIsRead() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let huge = Data(count: MediaRoutes.maxBodyBytes + 1)
            // Signed out: to sign in, not "too large" (which would mean the body was read first).
            let visitor = WebBrowser(server)
            _ = try await visitor.get("/make")
            let asked = try await Self.upload(visitor, boundary: "x", file: huge)
            #expect(asked.status == 303 && asked.location == "/signin?next=%2Fmake")
            let avatar = try await Self.upload(visitor, "/settings/avatar", boundary: "x", file: huge)
            #expect(avatar.status == 303 && avatar.location == "/signin?next=%2Fsettings")
            // Signed in without a CSRF cookie: the form has expired, whatever follows.
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            let token = try #require(browser.cookies["hearth_session"])
            let bare = WebBrowser(port: server.httpPort)
            bare.headers["Cookie"] = "hearth_session=\(token)"
            #expect(try await Self.upload(bare, boundary: "x", file: huge).status == 403)
            #expect(try await Self.upload(bare, "/settings/avatar", boundary: "x", file: huge).status == 403)
        }
    }

    @Test func formsPastTheBurstAreRefusedWithRetryAfter() async throws {
        // The server's clock stands still: no token comes back while a loaded machine posts.
        let clock = TestClock()
        try await withServer(configure: { $0.clock = clock.hearth }) { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            _ = try await browser.get("/make")
            // An app's form (here one that is empty), an account's form (here one with nothing in
            // it): the burst at once, shared, then 429; a form's refusal says when to try again.
            var accepted: [String: Int] = [:]
            for path in ["/make", "/settings/password"] {
                var refused: WebBrowser.Page?
                for _ in 0...Int(WebLimits.formBurst) {
                    let page = try await browser.post(path, form: [:])
                    if page.status == 429 {
                        refused = page
                        break
                    }
                    #expect(page.status == 303)
                    accepted[path, default: 0] += 1
                }
                let page = try #require(refused, "\(path)")
                #expect(Int(page.headers["retry-after"] ?? "") ?? 0 >= 1)
            }
            #expect(accepted == ["/make": Int(WebLimits.formBurst)], "the second form shares the first's burst")
            // A token's time later, one more.
            clock.advance(1 / WebLimits.formsPerSecond + 0.001)  // a hair more: ticks come from a Date, to ~0.2 µs
            #expect(try await browser.post("/make", form: [:]).status == 303)
            // Someone else is not held back.
            _ = try await TestClient.user(server, "bob")
            let bob = WebBrowser(server)
            try await bob.signIn("bob")
            #expect(try await bob.post("/make", form: [:]).status == 303)
        }
    }

    @Test func theFormLimitRefills() {
        let limit = FormLimit(burst: 2, rate: 1)
        let start = NIODeadline.now()
        #expect(limit.wait(1, now: start) == nil && limit.wait(1, now: start) == nil)
        #expect(limit.wait(1, now: start) == 1)
        #expect(limit.wait(2, now: start) == nil)
        #expect(limit.wait(1, now: start + .seconds(1)) == nil)
    }

    @Test func theAvatarFormCountsAgainstTheUploadLimit() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            _ = try await browser.get("/settings")
            for _ in 0..<WebLimits.uploadsPerHour {
                let page = try await Self.upload(browser, boundary: "x", file: Data("not a picture".utf8))
                #expect(page.status == 303 && page.location == "/make")
            }
            let avatar = try await AccountPagesTests.postAvatar(browser, Array(Web.samplePNG()))
            #expect(avatar.status == 303)
            #expect(try await browser.get("/settings").body.contains("at most \(WebLimits.uploadsPerHour) pictures"))
        }
    }

    @Test func privatePagesAreKeptByNoCache() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let visitor = try await WebBrowser(server).get("/recipes")
            #expect(visitor.headers["cache-control"] == "no-cache")
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            #expect(try await browser.get("/recipes").headers["cache-control"] == "private, no-store")
            let out = try await browser.post("/signout", form: [:])
            #expect(out.status == 303 && out.headers["clear-site-data"] == #""cache""#)
            try await browser.signIn("alice")
            _ = try await browser.get("/settings")
            let everywhere = try await browser.post("/signout/all", form: [:])
            #expect(everywhere.headers["clear-site-data"] == #""cache""#)
            try await browser.signIn("alice")
            _ = try await browser.get("/settings")
            let deleted = try await browser.post(
                "/settings/delete", form: ["confirm": "alice", "password": "s3cret-pass"])
            #expect(deleted.status == 303 && deleted.headers["clear-site-data"] == #""cache""#)
        }
    }

    @Test func signingInStartsANewCSRFToken() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            _ = try await browser.get("/signin")
            let before = try #require(browser.cookies["hearth_csrf"])
            _ = try await browser.post("/signin", form: ["name": "alice", "password": "s3cret-pass", "next": "/"])
            let after = try #require(browser.cookies["hearth_csrf"])
            #expect(after != before)
            // The old token no longer works; the new one does.
            let stale = try await browser.send(
                "POST", "/signout", body: Data("csrf=\(before)".utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(stale.status == 403)
            #expect(try await browser.post("/signout", form: [:]).status == 303)
        }
    }

    @Test func recoveryCodesGoOnlyToTheWelcomePageOfTheirAccount() async throws {
        try await withServer { server in
            let browser = WebBrowser(server)
            _ = try await browser.get("/signup")
            let csrf = try #require(browser.cookies["hearth_csrf"])
            let body = "name=ann&password=s3cret-pass&password2=s3cret-pass&csrf=\(csrf)"
            let (_, response, cookies) = try await Web.fetchWithCookies(
                try #require(URL(string: "http://127.0.0.1:\(server.httpPort)/signup")), method: "POST",
                body: Data(body.utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "hearth_csrf=\(csrf)"])
            #expect(response.statusCode == 303)
            let codes = try #require(cookies.first { $0.hasPrefix("hearth_codes=") })
            #expect(codes.contains("; Path=/welcome;"))
            // Someone else signed in on this browser is not shown them.
            _ = try await TestClient.user(server, "bob")
            let bob = WebBrowser(server)
            try await bob.signIn("bob")
            let value = String(codes.split(separator: ";")[0].dropFirst("hearth_codes=".count))
            let session = try #require(bob.cookies["hearth_session"])
            let (page, _, clear) = try await Web.fetchWithCookies(
                try #require(URL(string: "http://127.0.0.1:\(server.httpPort)/welcome")),
                headers: ["Cookie": "hearth_codes=\(value); hearth_session=\(session)"])
            let welcome = String(decoding: page, as: UTF8.self)
            #expect(welcome.contains("bob") && AccountPagesTests.codes(welcome).isEmpty)
            #expect(clear.contains { $0.hasPrefix("hearth_codes=;") && $0.contains("Path=/welcome;") })
        }
    }

    @Test func aFormsEffectsAreApplied() async throws {
        let clock = TestClock("2026-07-01T21:59:59.300Z")  // 23:59:59.3 in Paris
        try await stopping(try await FortuneTests.start(clock)) { server in
            let eli = try await TestClient.user(server, "eli")
            try await eli.send("!set tz Europe/Paris")
            try await eli.expect("tz is now Europe/Paris")
            let browser = WebBrowser(server)
            try await browser.signIn("eli")
            _ = try await browser.get("/fortunes")
            #expect(try await browser.post("/fortunes", form: [:]).status == 303)
            // The web's cookie schedules the same notice as the chat's.
            try await eli.expect("A new fortune cookie is ready — !fortune", timeout: 5)
        }
    }

    @Test func theHTTPAndHTTPSPortsShareOneAllowance() async throws {
        let dir = TestServer.tempDirectory()
        let made = try await Programs.run(["bash", BotScriptTests.repo.path + "/scripts/make-cert", dir + "/tls"])
        #expect(made.status == 0, "\(made.output)")
        let started = try await TestServer.start(dataDirectory: dir) { config in
            (config.tlsCertificatePath, config.tlsKeyPath) = (dir + "/tls/cert.pem", dir + "/tls/key.pem")
            (config.tlsPort, config.httpsPort) = (0, 0)
        }
        try await stopping(started) { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            try await browser.signIn("alice")
            _ = try await browser.get("/make")
            for _ in 0..<WebLimits.uploadsPerHour {
                _ = try await Self.upload(browser, boundary: "x", file: Data("not a picture".utf8))
            }
            // One more over HTTPS, with the same session: refused as over the hour's limit.
            try Data("not a picture".utf8).write(to: URL(fileURLWithPath: dir + "/file.txt"))
            let (session, csrf) = (browser.cookies["hearth_session"] ?? "", browser.cookies["hearth_csrf"] ?? "")
            let port = try await server.server.httpsPort()
            let curl = try await Programs.run([
                "curl", "-sk", "-D", "-", "-o", "/dev/null", "-b", "hearth_session=\(session); hearth_csrf=\(csrf)",
                "-F", "csrf=\(csrf)", "-F", "file=@\(dir)/file.txt", "https://127.0.0.1:\(port)/pictures",
            ])
            #expect(curl.output.contains("HTTP/1.1 303"), "\(curl.output)")
            #expect(curl.output.contains("at%20most%20\(WebLimits.uploadsPerHour)%20pictures"), "\(curl.output)")
        }
    }

    @Test func aCookiesTextIsEscapedToASCII() {
        // `.alphanumerics` let other scripts' letters into a cookie raw.
        #expect(WebRoutes.flashCookie("Not é", secure: false).hasPrefix("hearth_flash=Not%20%C3%A9;"))
    }
}
