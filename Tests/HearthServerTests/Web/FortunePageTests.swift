import Foundation
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// The fortunes app on the web: someone's cookie of the day (refused exactly when chat refuses
/// `!fortunes NAME`), your fortune map (the picture `!fortune map` draws), the leaderboard of
/// `!top points`, and opening a cookie from the page.
@Suite struct FortunePageTests {
    static let hostile = "<script>alert(1)</script> & \"friends\""
    static let escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;"

    /// A server whose only saying is hostile HTML.
    static func start(_ clock: TestClock) async throws -> TestServer {
        try await FortuneTests.start(clock, sayings: [hostile])
    }

    @Test func aSharedCookieOfTheDayWithItsLuckyNumbersEscaped() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let alice = try await TestClient.user(server, "alice")
            try await alice.send("!set privacy public")
            try await alice.expect("privacy is now public")
            try await alice.send("!fortune @48.85,2.35 <b>Paris</b>")
            try await alice.expect("Your fortune for Wednesday 1 July")
            let drawn = try await alice.expect("Lucky numbers: ")
            let numbers = drawn.split(separator: "·")[0].split(separator: " ").dropFirst(2).map(String.init)
            #expect(numbers.count == 6)
            // The reply links the page of today's cookie.
            try await alice.expect("· page: http://127.0.0.1:\(server.httpPort)/fortunes/alice")

            let page = try await WebBrowser(server).get("/fortunes/alice")
            #expect(page.status == 200)
            #expect(page.body.contains("<h1>🥠 alice&#39;s fortune cookie</h1>"))
            #expect(page.body.contains("<title>alice&#39;s fortune cookie · Hearth</title>"))
            #expect(page.body.contains("Wednesday 1 July"))
            #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;"))
            #expect(page.body.contains("opened in &lt;b&gt;Paris&lt;/b&gt;"))
            #expect(!page.body.contains("<script>") && !page.body.contains("<b>Paris"))
            for number in numbers { #expect(page.body.contains(#"<b class="number">\#(number)</b>"#)) }
            #expect(page.body.contains("Cookies so far (1)"))
            // A visitor is not offered to open anyone's cookie.
            #expect(!page.body.contains(#"action="/fortunes""#))
            // Names are case-insensitive, as in chat.
            #expect(try await WebBrowser(server).get("/fortunes/ALICE").status == 200)

            // Chat links the same page wherever it shows her cookie.
            let bob = try await TestClient.user(server, "bob")
            try await bob.send("!fortune show 1")
            try await bob.expect("· alice · +10 points · page: http://127.0.0.1:\(server.httpPort)/fortunes/alice")
            try await bob.send("!fortunes alice")
            try await bob.expect("alice's cookies (1): http://127.0.0.1:\(server.httpPort)/fortunes/alice")

            // The next day (in her time zone) the cookie is yesterday's: listed, not today's.
            clock.set("2026-07-02T09:00:00Z")
            let next = try await WebBrowser(server).get("/fortunes/alice")
            #expect(next.body.contains("alice has not opened today's cookie yet"))
            #expect(next.body.contains("Thursday 2 July") && next.body.contains("2026-07-01"))

            for missing in ["/fortunes/nobody", "/fortunes/%3Cscript%3E"] {
                let answer = try await WebBrowser(server).get(missing)
                #expect(answer.status == 404, "\(missing)")
                #expect(!answer.body.contains("<script>"))
            }
        }
    }

    /// Friends-only cookies: refused to a visitor (sign in), a stranger and a blocked friend,
    /// exactly when `!fortunes NAME` refuses them; shown to mutual friends and the owner.
    @Test func privacyAndBlocksHoldOnTheWebAsInChat() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let ava = try await TestClient.user(server, "ava")
            let ben = try await TestClient.user(server, "ben")
            try await ava.send("!fortune")
            try await ava.expect("Your fortune for")

            let visitor = try await WebBrowser(server).get("/fortunes/ava")
            #expect(visitor.status == 401)
            #expect(visitor.body.contains("ava shares fortunes with friends only"))
            #expect(visitor.body.contains(#"<a href="/signin?next=%2Ffortunes%2Fava">Sign in</a>"#))
            #expect(!visitor.body.contains("alert(1)"))

            try await ben.send("!fortunes ava")
            try await ben.expect("ava shares fortunes with friends only")
            let bens = WebBrowser(server)
            #expect(try await bens.signIn("ben").status == 303)
            var page = try await bens.get("/fortunes/ava")
            #expect(page.status == 403 && page.body.contains("ava shares fortunes with friends only"))
            #expect(!page.body.contains("alert(1)"))

            // Mutual friends: chat and the page both show it.
            try await ava.send("!follow ben")
            try await ava.expect("You now follow ben")
            try await ben.send("!follow ava")
            try await ben.expect("You now follow ava")
            try await ben.send("!fortunes ava")
            try await ben.expect("ava's cookies (1):")
            page = try await bens.get("/fortunes/ava")
            #expect(page.status == 200 && page.body.contains("&lt;script&gt;alert(1)"))

            // A block closes both again.
            try await ava.send("!block ben")
            try await ava.expect("You blocked ben")
            try await ben.send("!fortunes ava")
            try await ben.expect("ava shares fortunes with friends only")
            page = try await bens.get("/fortunes/ava")
            #expect(page.status == 403 && !page.body.contains("alert(1)"))

            // The owner always sees her own, and may open tomorrow's from it.
            let herself = WebBrowser(server)
            try await herself.signIn("ava")
            page = try await herself.get("/fortunes/ava")
            #expect(page.status == 200 && !page.body.contains(#"action="/fortunes""#))
            clock.set("2026-07-02T09:00:00Z")
            page = try await herself.get("/fortunes/ava")
            #expect(page.body.contains(#"<form method="post" action="/fortunes""#))
        }
    }

    @Test func yourFortuneMapIsTheCommandsPictureWithATable() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let visitor = try await WebBrowser(server).get("/fortunes")
            #expect(visitor.status == 401 && visitor.body.contains("Sign in"))

            let sol = try await TestClient.user(server, "sol")
            let browser = WebBrowser(server)
            try await browser.signIn("sol")
            var page = try await browser.get("/fortunes")
            #expect(page.status == 200 && page.body.contains("No cookies with a place yet"))
            #expect(!page.body.contains(#"<img src="/i/"#))

            try await sol.send("!fortune @48.85,2.35 <i>Paris</i>")
            try await sol.expect("opened in <i>Paris</i>")
            clock.set("2026-07-02T09:00:00Z")
            try await sol.send("!fortune @Tokyo")
            try await sol.expect("opened in Tokyo")
            try await sol.send("!fortune map")
            let line = try await sol.expect("sol's fortune map (2 places): http")
            #expect(line.hasSuffix("· page: http://127.0.0.1:\(server.httpPort)/fortunes"))
            let picture = try Web.link(in: line).path

            page = try await browser.get("/fortunes")
            #expect(page.status == 200)
            // The same picture the command drew: drawn once, kept.
            #expect(page.body.contains(#"<img src="\#(picture)""#))
            #expect(try await browser.get(picture).status == 200)
            #expect(page.body.contains("<td>&lt;i&gt;Paris&lt;/i&gt;</td><td>1</td><td>2026-07-01</td>"))
            #expect(page.body.contains("<td>Tokyo</td><td>1</td><td>2026-07-02</td>"))
            #expect(!page.body.contains("<i>Paris"))
            #expect(page.body.contains(#"<a href="/fortunes/sol">"#))
            // Asking again in chat gives the kept picture too.
            try await sol.send("!fortune map")
            #expect(try Web.link(in: try await sol.expect("sol's fortune map (2 places): http")).path == picture)
        }
    }

    @Test func openingTodaysCookieFromThePageIsTheCommand() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            _ = try await TestClient.user(server, "uma")
            let visitor = WebBrowser(server)
            _ = try await visitor.get("/fortunes")
            let refused = try await visitor.post("/fortunes", form: [:])
            #expect(refused.status == 303 && refused.location == "/signin?next=%2Ffortunes")

            let browser = WebBrowser(server)
            try await browser.signIn("uma")
            #expect(try await browser.post("/fortunes", form: [:], csrf: false).status == 403)
            var page = try await browser.get("/fortunes")
            #expect(page.body.contains(#"<form method="post" action="/fortunes""#))
            let opened = try await browser.post("/fortunes", form: ["place": "Paris"])
            // To the cookie's card, not the chat answer pasted in a notice.
            #expect(opened.status == 303 && opened.location == "/fortunes/uma")
            #expect(opened.headers["set-cookie"] == nil)
            page = try await browser.get("/fortunes/uma")
            #expect(!page.body.contains(#"class="flash""#))
            let card = try #require(page.body.firstMatch(of: /<article class="cookie opened">[\s\S]*?<\/article>/)?.0)
            #expect(card.contains(#"<blockquote class="saying">“\#(FortunePageTests.escaped)”</blockquote>"#))
            #expect(card.contains("opened in Paris") && card.contains("Wednesday 1 July"))
            #expect(card.components(separatedBy: #"<b class="number">"#).count == 7)
            // The time left until the next one, said by the server (09:00 UTC: 15 hours to midnight).
            #expect(
                page.body.contains(
                    #"Next cookie in <time class="left" datetime="2026-07-02T00:00:00Z">15h</time>"#))
            #expect(page.body.contains(#"<script src="/static/countdown.js?v="#))
            #expect(!page.body.contains(#"<form method="post" action="/fortunes""#))
            page = try await browser.get("/fortunes")
            #expect(page.body.contains("opened in Paris") || page.body.contains("<td>Paris</td><td>1</td>"))
            #expect(!page.body.contains(#"<form method="post" action="/fortunes""#))
            // The map page counts down too (issue 40).
            #expect(
                page.body.contains(
                    #"Next cookie in <time class="left" datetime="2026-07-02T00:00:00Z">15h</time>"#))
            // A second time the same day: nothing new, and the card again.
            clock.set("2026-07-01T22:30:00Z")
            let again = try await browser.post("/fortunes", form: [:])
            #expect(again.location == "/fortunes/uma")
            page = try await browser.get("/fortunes/uma")
            #expect(page.body.contains("Cookies so far (1)"))
            #expect(page.body.contains(#"datetime="2026-07-02T00:00:00Z">1h 30m</time>"#))
            // A place chat refuses is refused here, with chat's words.
            clock.set("2026-07-02T08:00:00Z")
            let nowhere = try await browser.post("/fortunes", form: ["place": "Narnia"])
            #expect(nowhere.location == "/fortunes")
            page = try await browser.get("/fortunes")
            #expect(page.body.contains("I don&#39;t know a place called Narnia"))
            #expect(page.body.contains("Cookies so far (1)") || page.body.contains("1 cookie opened"))
        }
    }

    @Test func theLeaderboardIsTheCommandsList() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let ada = try await TestClient.user(server, "ada")
            let bo = try await TestClient.user(server, "bo")
            _ = try await TestClient.user(server, "cy")
            var page = try await WebBrowser(server).get("/leaderboard")
            #expect(page.status == 200)
            try await ada.send("!fortune")
            try await ada.expect("Your fortune for")
            try await ada.send("!top points")
            try await ada.expect("Top points: http://127.0.0.1:\(server.httpPort)/leaderboard")
            try await ada.expect("1. ada — 12")
            page = try await WebBrowser(server).get("/leaderboard")
            #expect(page.body.contains(#"<td>1</td><td><a href="/u/ada">ada</a>"#))
            #expect(page.body.contains("<td>12</td>"))
            #expect(page.body.contains(#"<a href="/u/bo">bo</a>"#))

            // Friends only: signed in, as `!top points friends`.
            let visitor = try await WebBrowser(server).get("/leaderboard?friends=1")
            #expect(visitor.status == 401)
            try await ada.send("!follow bo")
            try await ada.expect("You now follow bo")
            try await bo.send("!follow ada")
            try await bo.expect("You now follow ada")
            try await bo.send("!top points friends")
            let friends = "http://127.0.0.1:\(server.httpPort)/leaderboard?friends=1"
            try await bo.expect("Top points among your friends: \(friends)")
            let bos = WebBrowser(server)
            try await bos.signIn("bo")
            page = try await bos.get("/leaderboard?friends=1")
            #expect(page.status == 200 && page.body.contains("Top points among your friends"))
            #expect(page.body.contains(#"<a href="/u/ada">ada</a>"#) && !page.body.contains(#"href="/u/cy""#))
            #expect(page.body.contains(#"<tr class="me">"#))
        }
    }
}
