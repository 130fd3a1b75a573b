import Foundation
import HearthAccounts
import HearthTesting
import Testing

@testable import HearthServer

/// Signing in on the web: the same accounts, the same throttle as `!login`, a session cookie
/// that signing out revokes, and a CSRF token on every form.
@Suite struct WebSignInTests {
    @Test func signingInAndOut() async throws {
        try await withServer { server in
            let alice = try await TestClient.plain(server)
            try await alice.send("!register alice s3cret-pass")
            let tokenLine = try await alice.expect("Your resume token")
            let browser = WebBrowser(server)
            let form = try await browser.get("/signin?next=/u/alice")
            #expect(form.status == 200 && form.body.contains(#"name="next" value="/u/alice""#))
            let csrfCookie = try #require(form.headers["set-cookie"])
            #expect(csrfCookie.contains("HttpOnly") && csrfCookie.contains("SameSite=Lax"))
            #expect(!csrfCookie.contains("Secure"))  // plain HTTP here
            let signedIn = try await browser.post(
                "/signin", form: ["name": "ALICE", "password": "s3cret-pass", "next": "/u/alice"])
            #expect(signedIn.status == 303 && signedIn.location == "/u/alice")
            let session = try #require(browser.cookies["hearth_session"])
            #expect(session.hasPrefix("hrt_"))
            var page = try await browser.get("/u/alice")
            #expect(page.body.contains("Signed in as alice."))
            #expect(page.body.contains(#"<form method="post" action="/signout">"#))
            // Signing out revokes the session: the old cookie is worth nothing after.
            let out = try await browser.post("/signout", form: [:])
            #expect(out.status == 303 && browser.cookies["hearth_session"] == nil)
            page = try await browser.get("/")
            #expect(page.body.contains("Signed out.") && page.body.contains(#"<a href="/signin">Sign in</a>"#))
            let stale = WebBrowser(server)
            _ = try await stale.send("GET", "/", headers: ["Cookie": "hearth_session=\(session)"])
            #expect(
                !(try await stale.send("GET", "/", headers: ["Cookie": "hearth_session=\(session)"])).body
                    .contains("Sign out"))
            // A resume token from chat signs in too (for its own account only).
            let token = try #require(tokenLine.firstMatch(of: /hrt_[0-9a-f]{40}/)).0
            let other = WebBrowser(server)
            #expect(try await other.signIn("bob", String(token)).status == 401)
            #expect(try await other.signIn("alice", String(token)).status == 303)
            #expect(try await other.get("/").body.contains(#"<a href="/u/alice">alice</a>"#))
        }
    }

    @Test func formsWithoutTheTokenAndForeignRedirectsAreRefused() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            _ = try await browser.get("/signin")
            let forged = try await browser.post(
                "/signin", form: ["name": "alice", "password": "s3cret-pass"], csrf: false)
            #expect(forged.status == 403 && browser.cookies["hearth_session"] == nil)
            #expect(try await browser.post("/signout", form: [:], csrf: false).status == 403)
            for next in ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"] {
                let answer = try await WebBrowser(server).signIn("alice", next: next)
                #expect(answer.status == 303 && answer.location == "/", "\(next)")
            }
        }
    }

    /// Browsers drop a tab and read `\` as `/`: `/%09/evil.example` once went to evil.example.
    @Test func aNextThatCouldLeaveTheSiteGoesHome() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            for query in [
                "/%09/evil.example", "/%0A/evil.example", "/%5Cevil.example", "/%2F%2Fevil.example",
                "/%252F%252Fevil.example", "/@evil.example",
            ] {
                let browser = WebBrowser(server)
                let form = try await browser.get("/signin?next=" + query)
                #expect(form.status == 200 && form.body.contains(#"name="next" value="/""#), "\(query)")
                let decoded = try #require(query.removingPercentEncoding)
                let answer = try await browser.post(
                    "/signin", form: ["name": "alice", "password": "s3cret-pass", "next": decoded])
                #expect(answer.status == 303 && answer.location == "/", "\(query)")
            }
            let page = try await WebBrowser(server).signIn("alice", next: "/m/1")
            #expect(page.status == 303 && page.location == "/m/1")
        }
    }

    @Test func webAndChatShareOneThrottle() async throws {
        try await withServer(configure: { $0.clock = TestClock().hearth }) { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            for _ in 0..<LoginThrottle.freeFailures {
                let wrong = try await browser.signIn("alice", "not-her-password")
                #expect(wrong.status == 401 && wrong.body.contains("wrong name or password"))
            }
            // Even the right password waits now, on the web and in chat from the same address.
            let waiting = try await browser.signIn("alice")
            #expect(waiting.status == 401 && waiting.body.contains("too many failed attempts"))
            let nc = try await TestClient.plain(server)
            try await nc.send("!login alice s3cret-pass")
            try await nc.expect("too many failed attempts")
        }
    }

    @Test func limitsOfForms() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "alice")
            let browser = WebBrowser(server)
            _ = try await browser.get("/signin")
            // One byte over the form limit: refused before anything is read.
            let filler = String(repeating: "a", count: WebLimits.maxFormBytes)
            let big = try await browser.post("/signin", form: ["name": "alice", "password": "x", "pad": filler])
            #expect(big.status == 413)
            // `+` is a space; a broken escape or stray bytes are a clear 400, never a crash.
            for body in ["name=a+b&password=%zz", "name=%E2%28&password=x", "na me=\u{7}&%", "=&&=="] {
                let answer = try await browser.send(
                    "POST", "/signin", body: Data(body.utf8),
                    headers: ["Content-Type": "application/x-www-form-urlencoded"])
                #expect([400, 403].contains(answer.status), "\(body): \(answer.status)")
            }
            let tooLongSecret = String(repeating: "p", count: WebLimits.maxSecretLength + 1)
            let refused = try await browser.signIn("alice", tooLongSecret)
            #expect(refused.status == 400 && browser.cookies["hearth_session"] == nil)
            #expect(try await browser.signIn("alice").status == 303)
            // A form's message is cut to its limit.
            let long = String(repeating: "é", count: WebLimits.maxFlashBytes)
            let response = WebRoutes.flashCookie(long, secure: false)
            let decoded = try #require(
                response.split(separator: ";")[0].split(separator: "=")[1].removingPercentEncoding)
            #expect(decoded.utf8.count <= WebLimits.maxFlashBytes && decoded.hasPrefix("éé"))
        }
    }
}
