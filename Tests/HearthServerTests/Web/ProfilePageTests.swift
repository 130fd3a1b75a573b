import Foundation
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// A person's page: follow and unfollow (`!follow`, `!unfollow`), their memes and recipes as
/// photo cards and their friends — for those the owner's lists are open to.
@Suite struct ProfilePageTests {
    @Test func followingFromAProfile() async throws {
        try await withServer { server in
            let (cook, _) = try await RecipePageTests.cookPostsARecipe(server, photo: true)
            let bob = try await TestClient.user(server, "bob")
            _ = try await TestClient.user(server, "carol")
            // A visitor is offered to sign in, and a post is sent there.
            let visitor = WebBrowser(server)
            #expect(try await visitor.get("/u/cook").body.contains(#"<a href="/signin?next=/u/cook">Sign in</a>"#))
            let refused = try await visitor.post("/u/cook/follow", form: [:])
            #expect(refused.status == 303 && refused.location == "/signin?next=%2Fu%2Fcook")
            let browser = WebBrowser(server)
            try await browser.signIn("bob")
            var page = try await browser.get("/u/cook")
            #expect(page.body.contains(#"action="/u/cook/follow""#) && page.body.contains("<button>Follow</button>"))
            #expect(try await browser.post("/u/cook/follow", form: [:], csrf: false).status == 403)
            let followed = try await browser.post("/u/cook/follow", form: [:])
            #expect(followed.status == 303 && followed.location == "/u/cook")
            try await cook.expect("bob now follows you")
            page = try await browser.get("/u/cook")
            #expect(page.body.contains("You now follow cook.") && page.body.contains("<button>Unfollow</button>"))
            // Friends (mutual follows) see the lists: recipes as photo cards, friends.
            try await cook.send("!follow bob")
            try await cook.expect("You follow each other")
            page = try await browser.get("/u/cook")
            #expect(page.body.contains(#"<a class="photo" href="/r/1"><img src="/i/"#))
            #expect(page.body.contains("Tomato soup &lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(page.body.contains(#"<li><a href="/u/bob">bob</a></li>"#))
            // Unfollow: the same command's answer, and the chat agrees.
            _ = try await browser.post("/u/cook/follow", form: ["undo": "1"])
            page = try await browser.get("/u/cook")
            #expect(page.body.contains("You no longer follow cook.") && page.body.contains("<button>Follow</button>"))
            try await bob.send("!following")
            try await bob.expect("You follow")
            // One's own page has no follow button; a hostile name is the bot's answer, escaped.
            #expect(!(try await browser.get("/u/bob")).body.contains("/follow\""))
            _ = try await browser.post("/u/%3Cscript%3E/follow", form: [:])
            let hostile = try await browser.get("/u/cook").body
            #expect(!hostile.contains("<script>") && hostile.contains("&lt;script&gt;"))
            // Someone cook blocks sees no page and cannot follow.
            try await cook.send("!block carol")
            try await cook.expect("You blocked carol.")
            let carol = WebBrowser(server)
            try await carol.signIn("carol")
            #expect(try await carol.get("/u/cook").status == 404)
            let blocked = try await carol.post("/u/cook/follow", form: [:])
            let after = try await carol.get("/").body
            #expect(blocked.location == "/u/cook" && after.contains("you can&#39;t follow cook"))
            try await cook.send("!followers")
            #expect(!(try await cook.expect("Your followers")).contains("carol"))
        }
    }
}
