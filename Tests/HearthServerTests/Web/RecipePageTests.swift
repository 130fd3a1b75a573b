import Foundation
import HearthKit
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// The recipes app on the web: a recipe's page, the trending list, the search, and voting and
/// commenting from the page — by the same rules as in chat.
@Suite struct RecipePageTests {
    static let title = "Tomato soup <script>alert(1)</script>"

    /// cook writes a recipe with a hostile title and ingredient; returns cook and the "is posted" reply.
    static func cookPostsARecipe(_ server: TestServer, photo: Bool = false) async throws -> (TestClient, String) {
        let cook = try await TestClient.user(server, "cook")
        var picture = "-"
        if photo {
            let (_, uploaded) = try await Web.fetch(
                try await MemeTests.uploadLink(cook), method: "PUT", body: Web.samplePNG())
            #expect(uploaded.statusCode == 201)
            picture = String(try await cook.expect("Your picture ").split(separator: " ")[2])
        }
        try await cook.send("!recipe new")
        try await cook.expect("What is the recipe called?")
        for line in [
            title, "4 ripe tomatoes", "<img src=x onerror=alert(2)> salt", ".", "Chop the tomatoes.",
            "Simmer for 20 minutes.", ".", picture, "italian vegan",
        ] {
            try await cook.send(line)
        }
        try await cook.expect("is ready")
        try await cook.send("!recipe post")
        return (cook, try await cook.expect("is posted"))
    }

    /// A path with a search query, percent-encoded as a browser sends it.
    static func searchPath(_ query: String) -> String {
        "/recipes/search?q=" + WebText.queryEncoded(query)
    }

    @Test func aRecipesPageShowsItEscapedWithAPreview() async throws {
        try await withServer { server in
            let (cook, posted) = try await Self.cookPostsARecipe(server, photo: true)
            let url = "http://127.0.0.1:\(server.httpPort)/r/1"
            // The chat replies link the page.
            #expect(posted.contains("Recipe #1 “\(Self.title)” is posted — !recipe 1 to see it. · page: \(url)"))
            try await cook.send("!recipe 1")
            try await cook.expect("#1 \(Self.title) by cook · score 0")
            try await cook.expect("page: \(url)")

            let page = try await WebBrowser(server).get("/r/1")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.body.contains("<h1>Tomato soup &lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
            #expect(page.body.contains("<li>&lt;img src=x onerror=alert(2)&gt; salt</li>"))
            #expect(!page.body.contains("<script>") && !page.body.contains("<img src=x"))
            #expect(page.body.contains("<li>4 ripe tomatoes</li>"))
            #expect(
                page.body.contains(
                    #"<ol class="steps"><li>Chop the tomatoes.</li><li>Simmer for 20 minutes.</li></ol>"#))
            #expect(page.body.contains(#"by <a href="/u/cook">cook</a>"#))
            #expect(page.body.contains("score 0") && page.body.contains("!up 1") && page.body.contains("!down 1"))
            #expect(page.body.contains("!comment recipe 1 TEXT") && page.body.contains("No comments yet."))
            #expect(page.body.contains(#"<a href="/recipes/search?q=cuisine%3Aitalian">italian</a>"#))
            #expect(page.body.contains(#"<a href="/recipes/search?q=cuisine%3Avegan">vegan</a>"#))
            #expect(page.body.contains(#"<a href="/signin?next=/r/1">Sign in</a>"#))
            #expect(!page.body.contains(#"action="/r/1/vote""#))
            // Open Graph: the title, the first ingredients, the photo.
            let escaped = "Tomato soup &lt;script&gt;alert(1)&lt;/script&gt;"
            #expect(page.body.contains(#"<meta property="og:title" content="\#(escaped) — a recipe by cook">"#))
            #expect(
                page.body.contains(
                    #"<meta property="og:description" content="By cook · score 0 · 4 ripe tomatoes, &lt;img"#))
            #expect(page.body.contains(#"<meta property="og:image" content="http://127.0.0.1:\#(server.httpPort)/i/"#))
            let image = try #require(page.body.firstMatch(of: /<img src="(\/i\/[0-9a-f]+\.[a-z]+)"/)?.1)
            #expect(try await WebBrowser(server).get(String(image)).status == 200)

            for missing in ["/r/2", "/r/0", "/r/abc", "/r/-1"] {
                let answer = try await WebBrowser(server).get(missing)
                #expect(answer.status == 404, "\(missing)")
                #expect(answer.body.contains("Not found"))
            }
        }
    }

    @Test func trendingAndSearchListTheRecipe() async throws {
        try await withServer { server in
            let visitor = WebBrowser(server)
            let none = try await visitor.get("/recipes")
            #expect(none.status == 200 && none.body.contains("No recipes yet"))
            _ = try await Self.cookPostsARecipe(server)

            let trending = try await visitor.get("/recipes")
            #expect(trending.status == 200)
            let link = #"<a class="title" href="/r/1">Tomato soup &lt;script&gt;alert(1)&lt;/script&gt;</a>"#
            #expect(trending.body.contains(link))
            #expect(trending.body.contains(#"<a href="/recipes">Recipes</a>"#))  // the header links it
            #expect(trending.body.contains(#"maxlength="\#(RecipePages.maxQuery)""#))

            for query in ["tomato", "tom* cuisine:italian", "\"ripe tomatoes\"", "soup diet:vegan"] {
                let found = try await visitor.get(Self.searchPath(query))
                #expect(found.status == 200, "\(query)")
                #expect(found.body.contains(#"<a class="title" href="/r/1">"#), "\(query)")
                #expect(found.body.contains("Found 1:"), "\(query)")
            }
            // A browser's GET form sends spaces as +.
            let plus = try await visitor.get("/recipes/search?q=ripe+tomatoes")
            #expect(plus.body.contains(#"<a class="title" href="/r/1">"#))
            let nothing = try await visitor.get(Self.searchPath("lasagne"))
            #expect(nothing.status == 200 && nothing.body.contains("No recipe matches"))
            #expect(!nothing.body.contains(#"<a class="title" href="/r/1">"#))

            // Empty, malformed or too long: a message on the search page, not an error page.
            let empty = try await visitor.get("/recipes/search?q=")
            #expect(empty.status == 200 && empty.body.contains(#"name="q""#))
            #expect(!empty.body.contains(#"class="problem""#) && !empty.body.contains("No recipe matches"))
            #expect(try await visitor.get("/recipes/search").status == 200)
            let open = try await visitor.get(Self.searchPath("\"tomato"))
            #expect(open.status == 200 && open.body.contains("A quote is not closed"))
            let long = String(repeating: "tomato ", count: RecipePages.maxQuery / 7 + 1)
            let tooLong = try await visitor.get(Self.searchPath(long))
            #expect(tooLong.status == 200)
            #expect(tooLong.body.contains("A search may have \(RecipePages.maxQuery) characters"))
            #expect(!tooLong.body.contains(#"<a class="title" href="/r/1">"#))
        }
    }

    @Test func aBlockedViewerSeesItNowhere() async throws {
        try await withServer { server in
            let (cook, _) = try await Self.cookPostsARecipe(server)
            let eve = try await TestClient.user(server, "eve")
            try await cook.send("!block eve")
            try await cook.expect("You blocked eve.")
            try await eve.send("!recipe 1")
            try await eve.expect("there is no recipe #1")

            let browser = WebBrowser(server)
            #expect(try await browser.signIn("eve").status == 303)
            let page = try await browser.get("/r/1")
            #expect(page.status == 404 && !page.body.contains("Tomato soup"))
            #expect(!(try await browser.get("/recipes")).body.contains(#"href="/r/1""#))
            #expect(!(try await browser.get(Self.searchPath("tomato"))).body.contains(#"href="/r/1""#))
            // Nor does a vote or a comment from the page reach it.
            let vote = try await browser.post("/r/1/vote", form: ["vote": "up"])
            #expect(vote.status == 303 && vote.location == "/r/1")
            _ = try await browser.post("/r/1/comment", form: ["text": "sneaky"])
            // The same in chat: search leaves the blocked author out.
            try await eve.send("!search tomato")
            try await eve.expect("No recipe matches")

            // Everyone else sees it, unchanged.
            let visitor = WebBrowser(server)
            let seen = try await visitor.get("/r/1")
            #expect(seen.status == 200 && seen.body.contains("score 0") && seen.body.contains("No comments yet."))
            #expect(try await visitor.get("/recipes").body.contains(#"href="/r/1""#))
            #expect(try await visitor.get(Self.searchPath("tomato")).body.contains(#"href="/r/1""#))
            try await cook.send("!search tomato")
            try await cook.expect("Found 1:")
        }
    }

    @Test func votingAndCommentingFromThePage() async throws {
        try await withServer { server in
            let (cook, _) = try await Self.cookPostsARecipe(server)
            _ = try await TestClient.user(server, "fan")
            // A visitor is sent to sign in; nothing changes.
            let visitor = WebBrowser(server)
            _ = try await visitor.get("/r/1")
            let refused = try await visitor.post("/r/1/vote", form: ["vote": "up"])
            #expect(refused.status == 303 && refused.location == "/signin?next=%2Fr%2F1")
            let refusedComment = try await visitor.post("/r/1/comment", form: ["text": "anonymous"])
            #expect(refusedComment.status == 303 && refusedComment.location == "/signin?next=%2Fr%2F1")

            let fan = WebBrowser(server)
            #expect(try await fan.signIn("fan").status == 303)
            #expect(fan.cookies["hearth_session"] != nil)
            // Without the form's token: refused, nothing changes.
            #expect(try await fan.post("/r/1/vote", form: ["vote": "up"], csrf: false).status == 403)
            #expect(try await fan.post("/r/1/comment", form: ["text": "forged"], csrf: false).status == 403)
            #expect(
                try await fan.post(
                    "/r/1/vote", form: ["vote": "up", "csrf": String(repeating: "0", count: 32)], csrf: false
                ).status == 403)
            try await cook.send("!recipe 1")
            try await cook.expect("#1 \(Self.title) by cook · score 0 (▲0 ▼0) · 0 comments")

            // Signed in, with the token: the forms are there, and work.
            var page = try await fan.get("/r/1")
            #expect(page.body.contains(#"<form method="post" action="/r/1/vote">"#))
            #expect(page.body.contains(#"<form method="post" action="/r/1/comment" class="comment-form">"#))
            #expect(
                page.body.contains(#"<input type="hidden" name="csrf" value="\#(fan.cookies["hearth_csrf"] ?? "")">"#))
            let voted = try await fan.post("/r/1/vote", form: ["vote": "up"])
            #expect(voted.status == 303 && voted.location == "/r/1")
            page = try await fan.get("/r/1")
            let flash = #"<p class="flash" role="status">You voted recipe #1 up. Score 1 (▲1 ▼0).</p>"#
            #expect(page.body.contains(flash))
            #expect(page.body.contains("score 1") && page.body.contains("▲ 1"))
            let commented = try await fan.post("/r/1/comment", form: ["text": "Lovely <b>soup</b>\nmade it twice"])
            #expect(commented.status == 303 && commented.location == "/r/1")
            try await cook.expect("fan commented on your recipe #1: Lovely <b>soup</b> made it twice")
            page = try await fan.get("/r/1")
            #expect(page.body.contains("Comment #1 added to recipe #1."))
            #expect(page.body.contains("Lovely &lt;b&gt;soup&lt;/b&gt; made it twice"))
            #expect(page.body.contains("💬 1 comment<"))
            // A form the action does not understand changes nothing.
            let odd = try await fan.post("/r/1/vote", form: ["vote": "sideways"])
            #expect(odd.status == 303)
            #expect(try await fan.get("/r/1").body.contains("nothing was changed"))

            // In chat, the same counts and the comment.
            try await cook.send("!recipe 1")
            try await cook.expect("#1 \(Self.title) by cook · score 1 (▲1 ▼0) · 1 comment")
            try await cook.send("!comments recipe 1")
            try await cook.expect("#1 fan: Lovely <b>soup</b> made it twice")
            // Taking the vote back from the page.
            _ = try await fan.post("/r/1/vote", form: ["vote": "unvote"])
            try await cook.send("!recipe 1")
            try await cook.expect("score 0 (▲0 ▼0) · 1 comment")
        }
    }
}
