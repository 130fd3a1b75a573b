import Foundation
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// The memes app on the web: a meme's page, a person's gallery, and liking, favouriting and
/// commenting from the page — by the same rules as in chat.
@Suite struct MemePageTests {
    /// alice makes meme #1 with a hostile caption and a hostile comment.
    static func aliceMakesAMeme(_ server: TestServer) async throws -> (TestClient, String) {
        let alice = try await TestClient.user(server, "alice")
        try await alice.send(#"!meme sunset <b>bold</b> & "quoted" | <script>alert(1)</script>"#)
        let made = try await alice.expect("meme #1 by alice: http")
        try await alice.send("!comment meme 1 <img src=x onerror=alert(2)>")
        try await alice.expect("Comment #1 added to meme #1.")
        return (alice, made)
    }

    @Test func aMemesPageShowsItEscapedWithAPreview() async throws {
        try await withServer { server in
            let (_, made) = try await Self.aliceMakesAMeme(server)
            // The reply links the picture first (clients show it inline), then the page.
            #expect(made.contains("· page: http://127.0.0.1:\(server.httpPort)/m/1"))
            let page = try await WebBrowser(server).get("/m/1")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.body.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;"))
            #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(page.body.contains("&lt;img src=x onerror=alert(2)&gt;"))
            #expect(!page.body.contains("<script>") && !page.body.contains("<img src=x"))
            #expect(page.body.contains(#"<meta property="og:title" content="Meme #1 by alice">"#))
            #expect(page.body.contains(#"<meta property="og:image" content="http://127.0.0.1:\#(server.httpPort)/i/"#))
            #expect(page.body.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
            #expect(page.body.contains("♥ 0 likes") && page.body.contains("!like 1"))
            #expect(page.body.contains(#"<a href="/signin?next=/m/1">Sign in</a>"#))
            #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            // Its picture is there too.
            let image = try #require(page.body.firstMatch(of: /src="(\/i\/[0-9a-f]+\.jpg)"/)?.1)
            #expect(try await WebBrowser(server).get(String(image)).status == 200)
            for missing in ["/m/2", "/m/0", "/m/abc", "/m/-1", "/u/nobody"] {
                let answer = try await WebBrowser(server).get(missing)
                #expect(answer.status == 404, "\(missing)")
                #expect(answer.body.contains("Not found"))
            }
            // The home page says where to connect: the port as bound.
            #expect(try await WebBrowser(server).get("/").body.contains("<code>nc 127.0.0.1 \(server.ircPort)</code>"))
            let css = try await WebBrowser(server).get("/static/hearth.css")
            #expect(css.status == 200 && css.headers["content-type"] == "text/css; charset=utf-8")
            #expect(css.body.contains("prefers-color-scheme: dark"))
        }
    }

    @Test func blocksAndPrivacyHoldOnTheWebAsInChat() async throws {
        try await withServer { server in
            let (alice, _) = try await Self.aliceMakesAMeme(server)
            let bob = try await TestClient.user(server, "bob")
            _ = try await TestClient.user(server, "carol")
            try await alice.send("!block bob")
            try await alice.expect("You blocked bob.")
            try await bob.send("!meme show 1")
            try await bob.expect("there is no meme #1")
            let bobsBrowser = WebBrowser(server)
            #expect(try await bobsBrowser.signIn("bob").status == 303)
            #expect(try await bobsBrowser.get("/m/1").status == 404)
            #expect(try await bobsBrowser.get("/u/alice").status == 404)
            // A visitor sees the meme and alice's profile, but her lists are for friends only.
            let visitor = try await WebBrowser(server).get("/u/alice")
            #expect(visitor.status == 200 && visitor.body.contains("shares memes with friends only"))
            #expect(!visitor.body.contains(#"href="/m/1""#))
            let carol = WebBrowser(server)
            try await carol.signIn("carol")
            #expect(!(try await carol.get("/u/alice")).body.contains(#"href="/m/1""#))
            let herself = WebBrowser(server)
            try await herself.signIn("alice")
            let own = try await herself.get("/u/alice")
            #expect(own.body.contains(#"<a class="tile" href="/m/1">"#))
            #expect(own.body.contains("joined ") && own.body.contains("1 meme ·"))
            // Her uploads show only once she chooses so.
            let (_, uploaded) = try await Web.fetch(
                try await MemeTests.uploadLink(alice), method: "PUT", body: Web.samplePNG())
            #expect(uploaded.statusCode == 201)
            #expect(!(try await herself.get("/u/alice")).body.contains("<h2>Pictures</h2>"))
            try await alice.send("!set gallery uploads")
            try await alice.expect("gallery is now uploads")
            let shown = try await herself.get("/u/alice").body
            #expect(shown.contains("<h2>Pictures</h2>") && shown.contains(#"alt="a picture alice uploaded""#))
        }
    }

    @Test func likingFavouritingAndCommentingFromThePage() async throws {
        try await withServer { server in
            let (alice, _) = try await Self.aliceMakesAMeme(server)
            _ = try await TestClient.user(server, "bob")
            // A visitor is sent to sign in; nothing changes.
            let visitor = WebBrowser(server)
            _ = try await visitor.get("/m/1")
            let refused = try await visitor.post("/m/1/like", form: [:])
            #expect(refused.status == 303 && refused.location == "/signin?next=%2Fm%2F1")
            let bob = WebBrowser(server)
            try await bob.signIn("bob")
            // Without the form's token: refused, nothing changes.
            #expect(try await bob.post("/m/1/like", form: [:], csrf: false).status == 403)
            #expect(
                try await bob.post("/m/1/like", form: ["csrf": String(repeating: "0", count: 32)], csrf: false)
                    .status == 403)
            #expect(try await bob.get("/m/1").body.contains("♥ 0 likes"))
            let liked = try await bob.post("/m/1/like", form: [:])
            #expect(liked.status == 303 && liked.location == "/m/1")
            var page = try await bob.get("/m/1")
            #expect(page.body.contains(#"<p class="flash" role="status">You like meme #1. It has 1 like.</p>"#))
            #expect(page.body.contains("♥ 1 like</span>") && page.body.contains("♥ Unlike"))
            // The message shows once.
            #expect(!(try await bob.get("/m/1")).body.contains("class=\"flash\""))
            _ = try await bob.post("/m/1/fav", form: [:])
            _ = try await bob.post("/m/1/comment", form: ["text": "so true\nsecond line"])
            page = try await bob.get("/m/1")
            #expect(page.body.contains("★ 1 favourite<") && page.body.contains("so true second line"))
            try await alice.expect("bob commented on your meme #1: so true second line")
            // Too long: the bot's answer, nothing added.
            let long = String(repeating: "x", count: CommentCommands.maxCommentLength + 1)
            _ = try await bob.post("/m/1/comment", form: ["text": long])
            page = try await bob.get("/m/1")
            #expect(page.body.contains("a comment may have \(CommentCommands.maxCommentLength) characters"))
            #expect(page.body.contains("💬 2 comments"))
            _ = try await bob.post("/m/1/like", form: ["undo": "1"])
            #expect(try await bob.get("/m/1").body.contains("♥ 0 likes"))
            // In chat, the same counts.
            try await alice.send("!meme show 1")
            try await alice.expect("♥ 0 likes · ★ 1 favourite · 2 comments")
        }
    }
}

/// Visitors' pages are kept for a moment, and only while no bot command has run since.
@Suite struct PageCacheTests {
    @Test func visitorsShareARenderedPageUntilSomethingChanges() async throws {
        try await withServer(configure: { $0.server.pageCacheSeconds = 30 }) { server in
            let (alice, _) = try await MemePageTests.aliceMakesAMeme(server)
            let visitor = WebBrowser(server)
            #expect(try await visitor.get("/m/1").body.contains("♥ 0 likes"))
            // A write that no command made (as another node's could be) is not seen by visitors
            // until the page is rendered again...
            let author = try #require(try await server.server.store.account(nameKey: "alice"))
            _ = try await server.server.store.react(.like, memeID: 1, accountID: author.id, on: true)
            #expect(try await visitor.get("/m/1").body.contains("♥ 0 likes"))
            #expect(try await WebBrowser(server).get("/m/1").body.contains("♥ 0 likes"))
            // ...but a signed-in user always gets a fresh one, and any command renders anew.
            let herself = WebBrowser(server)
            try await herself.signIn("alice")
            #expect(try await herself.get("/m/1").body.contains("♥ 1 like</span>"))
            try await alice.send("!whoami")
            try await alice.expect("alice")
            #expect(try await visitor.get("/m/1").body.contains("♥ 1 like</span>"))
            // A visitor's copy never carries a token of its own.
            #expect(!(try await visitor.get("/m/1")).body.contains(try #require(visitor.cookies["hearth_csrf"])))
        }
    }

    @Test func theCacheKeepsAtMostItsLimit() {
        let cache = WebPageCache(seconds: 60)
        for i in 0..<WebPageCache.maxEntries { cache.keep("/m/\(i)", html: "page \(i)", commands: 0) }
        #expect(cache.page("/m/0", commands: 0) == "page 0")
        cache.keep("/m/one-past", html: "new", commands: 0)  // one past the limit: starts again
        #expect(cache.page("/m/1", commands: 0) == nil)
        #expect(cache.page("/m/one-past", commands: 0) == "new")
        #expect(cache.page("/m/one-past", commands: 1) == nil)  // a command ran since
        #expect(WebPageCache(seconds: 0).isOn == false)
    }
}
