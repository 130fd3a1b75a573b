import Foundation
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// The family page's forms: each is the chat command it stands for, naming the page's family,
/// so the membership rule, the limits and the notices are chat's.
@Suite struct FamilyFormTests {
    static let hostile = "<script>alert(1)</script> & <img src=x onerror=alert(2)>"

    static func flash(_ browser: WebBrowser, _ path: String) async throws -> String {
        let page = try await browser.get(path)
        return String(try #require(page.body.firstMatch(of: /<p class="flash" role="status">([^<]*)<\/p>/)?.1))
    }

    /// Family #1, Rivers: ann founded it, bob joined; ann signed in on the web.
    static func rivers(_ server: TestServer) async throws -> (ann: TestClient, bob: TestClient, web: WebBrowser) {
        let ann = try await TestClient.user(server, "ann")
        let bob = try await TestClient.user(server, "bob")
        try await ann.send("!tree new Rivers")
        let code = try FamilyTests.code(in: try await ann.expect("Invite code for Rivers: "))
        try await bob.send("!tree join \(code)")
        try await bob.expect("Welcome to Rivers")
        let web = WebBrowser(server)
        try await web.signIn("ann")
        return (ann, bob, web)
    }

    @Test func membersPostPicturesEventsLikeCommentAndSharePlacesFromThePage() async throws {
        try await withServer { server in
            let (ann, bob, web) = try await Self.rivers(server)
            var page = try await web.get("/family/1")
            #expect(page.status == 200)
            #expect(page.body.contains(#"<form method="post" action="/family/1/post""#))
            #expect(page.body.contains(#"maxlength="\#(FamilyFeedCommands.maxPost)""#))

            // A picture first (the upload form comes back to the page with it chosen), then the post.
            let back = try await RecipeFormTests.uploadPhoto(web, next: "/family/1")
            #expect(back.hasPrefix("/family/1?picture="))
            page = try await web.get(back)
            let picture = try #require(
                page.body.firstMatch(of: /<input type="hidden" name="picture" value="([0-9a-f]+)">/)?.1)
            let posted = try await web.post("/family/1/post", form: ["text": Self.hostile, "picture": String(picture)])
            #expect(posted.status == 303 && posted.location == "/family/1")
            try await bob.expect("ann posted to Rivers")
            page = try await web.get("/family/1")
            #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x"))
            #expect(!page.body.contains("<script>alert") && !page.body.contains("<img src=x"))
            #expect(page.body.contains(#"<img src="/i/\#(picture)"#))
            #expect(try await web.get("/family/1/photos").body.contains(#"<img src="/i/\#(picture)"#))

            // An event; a wrong date is chat's refusal.
            #expect(
                try await web.post("/family/1/event", form: ["date": "2026-12-24", "title": "dinner"]).status == 303)
            #expect(try await web.get("/family/1").body.contains("📅 <b>2026-12-24</b>"))
            _ = try await web.post("/family/1/event", form: ["date": "tomorrow", "title": "dinner"])
            #expect(try await Self.flash(web, "/family/1").contains("tomorrow is not a date"))

            // The post's limit, crossed and met.
            let long = String(repeating: "é", count: FamilyFeedCommands.maxPost + 1)
            _ = try await web.post("/family/1/post", form: ["text": long])
            #expect(try await Self.flash(web, "/family/1").contains("a post may have \(FamilyFeedCommands.maxPost)"))
            _ = try await web.post("/family/1/post", form: ["text": String(long.dropLast())])
            #expect(try await Self.flash(web, "/family/1").contains("Posted #3"))

            // Bob likes and comments (hostile text stays text).
            let bobWeb = WebBrowser(server)
            try await bobWeb.signIn("bob")
            let liked = try await bobWeb.post("/family/1/p/1/like", form: [:])
            #expect(liked.location == "/family/1#p1")
            _ = try await bobWeb.post("/family/1/p/1/comment", form: ["text": Self.hostile])
            page = try await web.get("/family/1")
            #expect(page.body.contains("♥ 1 · 1 comment "))
            #expect(page.body.contains("<b>bob</b> &lt;script&gt;alert(1)"))
            let comment = String(repeating: "c", count: CommentCommands.maxCommentLength + 1)
            _ = try await bobWeb.post("/family/1/p/1/comment", form: ["text": comment])
            #expect(try await Self.flash(bobWeb, "/family/1").contains("\(CommentCommands.maxCommentLength)"))

            // A place: only after consenting; a typed place without a script, coordinates with one.
            _ = try await web.post("/family/1/place", form: ["place": "Paris"])
            #expect(try await Self.flash(web, "/family/1").contains("location sharing is off"))
            _ = try await web.post("/family/1/place", form: ["sharing": "on"])
            #expect(try await web.get("/family/1").body.contains("data-geolocate"))
            _ = try await web.post("/family/1/place", form: ["lat": "48.8566", "lon": "2.3522", "place": ""])
            #expect(try await Self.flash(web, "/family/1").contains("Shared: 48.857,2.352"))
            _ = try await web.post("/family/1/place", form: ["place": "Paris"])
            #expect(try await Self.flash(web, "/family/1").contains("Shared: Paris"))

            // A second family: the page links to switch; each page's forms post to its own family.
            try await ann.send("!tree new Second")
            try await ann.expect("You founded Second.")
            page = try await web.get("/family/1")
            #expect(page.body.contains(#"<a href="/family/2">Second</a>"#))
            // The switcher is a list: the family shown is marked as the current page, not a link.
            #expect(page.body.contains(#"<nav class="families" aria-label="Your families"><ul>"#))
            #expect(page.body.contains(#"<li><b aria-current="page">"#))
            _ = try await web.post("/family/1/post", form: ["text": "still the first"])
            let fourth = try await Self.flash(web, "/family/1")
            #expect(fourth.contains("Posted #4 to Rivers&#39; feed."), "\(fourth)")
        }
    }

    @Test func strangersBlockedUsersVisitorsAndForgedFormsChangeNothing() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            _ = try await TestClient.user(server, "eve")
            _ = try await TestClient.user(server, "mal")
            try await ann.send("!tree new Rivers")
            try await ann.expect("You founded Rivers.")
            try await ann.send("!post family only")
            try await ann.expect("Posted #1")
            try await ann.send("!block mal")
            try await ann.expect("You blocked mal.")
            let forms: [(String, [String: String])] = [
                ("/family/1/post", ["text": "let me in"]), ("/family/1/event", ["date": "2026-01-01", "title": "x"]),
                ("/family/1/p/1/like", [:]), ("/family/1/p/1/comment", ["text": "let me in"]),
            ]
            for name in ["eve", "mal"] {
                let web = WebBrowser(server)
                try await web.signIn(name)
                #expect(try await web.get("/family/1").status == 403)
                #expect(try await web.get("/family/1/photos").status == 403)
                for (path, form) in forms {
                    #expect(try await web.post(path, form: form).status == 303, "\(path)")
                }
            }
            let visitor = WebBrowser(server)
            #expect(try await visitor.get("/family/1").status == 401)
            let refused = try await visitor.post("/family/1/post", form: ["text": "let me in"])
            #expect(refused.location == "/signin?next=%2Ffamily%2F1")

            let web = WebBrowser(server)
            try await web.signIn("ann")
            _ = try await web.get("/family/1")
            #expect(try await web.post("/family/1/post", form: ["text": "forged"], csrf: false).status == 403)
            let huge = String(repeating: "x", count: WebLimits.maxFormBytes)
            #expect(try await web.post("/family/1/post", form: ["text": huge]).status == 413)
            let page = try await web.get("/family/1").body
            #expect(!page.contains("let me in") && !page.contains("forged"))
            #expect(page.contains("♥ 0 · 0 comments") && page.contains("Feed (1)"))
        }
    }
}
