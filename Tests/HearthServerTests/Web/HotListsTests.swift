import Foundation
import HearthKit
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// The hot memes and trending recipes are read once for every reader for a moment (`HotLists`):
/// what a command changed shows at once, and each reader's own rules still hold.
@Suite struct HotListsTests {
    /// Kept far longer than `HotLists.lifetime`, so only a command can make them read again.
    static func longLived(_ config: inout TestConfig) { config.apps.hotListsLifetime = .seconds(600) }

    @Test func aNewMemeALikeAndAVoteShowOnTheHomePageAtOnce() async throws {
        try await withServer(configure: Self.longLived) { server in
            let alice = try await TestClient.user(server, "alice")
            try await alice.send("!set privacy public")
            try await alice.expect("privacy is now public")
            let visitor = WebBrowser(server)
            #expect(try await visitor.get("/").body.contains("Nothing is trending yet."))
            try await alice.send("!meme success first | meme")
            try await alice.expect("meme #1 by alice")
            #expect(try await visitor.get("/").body.contains(#"href="/m/1""#))
            try await alice.send("!meme success second | meme")
            try await alice.expect("meme #2 by alice")
            var home = try await visitor.get("/").body
            #expect(try Self.position("/m/2", home) < Self.position("/m/1", home))
            // A like from the page (the command it stands for) moves the first one up.
            _ = try await TestClient.user(server, "bob")
            let browser = WebBrowser(server)
            _ = try await browser.signIn("bob")
            _ = try await browser.post("/m/1/like", form: [:])
            home = try await visitor.get("/").body
            #expect(try Self.position("/m/1", home) < Self.position("/m/2", home))
            // A recipe and a vote on it, the same.
            _ = try await RecipePageTests.cookPostsARecipe(server)
            #expect(try await visitor.get("/").body.contains(#"href="/r/1""#))
            _ = try await browser.post("/r/1/vote", form: ["vote": "up"])
            #expect(try await visitor.get("/").body.contains("score 1"))
            // A write no command made (another node's could be) waits for the lists' lifetime.
            let store = server.server.store
            for name in ["alice", "cook"] {
                let account = try #require(try await store.account(nameKey: name))
                _ = try await store.react(.fav, memeID: 2, accountID: account.id, on: true)
            }
            home = try await visitor.get("/").body
            #expect(try Self.position("/m/1", home) < Self.position("/m/2", home))
        }
    }

    @Test func aReadersOwnRulesStillHold() async throws {
        try await withServer(configure: Self.longLived) { server in
            let alice = try await TestClient.user(server, "alice")
            try await alice.send("!meme success friends | only")
            try await alice.expect("meme #1 by alice")
            let (cook, _) = try await RecipePageTests.cookPostsARecipe(server)
            // alice's lists are not public: visitors do not see her meme, she does.
            let visitor = WebBrowser(server)
            var home = try await visitor.get("/").body
            #expect(!home.contains(#"href="/m/1""#) && home.contains(#"href="/r/1""#))
            let herself = WebBrowser(server)
            _ = try await herself.signIn("alice")
            #expect(try await herself.get("/").body.contains(#"href="/m/1""#))
            #expect(try await herself.get("/hot").body.contains(#"href="/m/1""#))
            // Whom cook blocks does not see cook's recipe, on the home page or /recipes; others still do.
            try await cook.send("!block alice")
            try await cook.expect("You blocked alice")
            home = try await herself.get("/").body
            #expect(!home.contains(#"href="/r/1""#))
            #expect(!(try await herself.get("/recipes")).body.contains(#"href="/r/1""#))
            home = try await visitor.get("/").body
            #expect(home.contains(#"href="/r/1""#))
        }
    }

    static func position(_ link: String, _ page: String) throws -> String.Index {
        try #require(page.range(of: "href=\"\(link)\"")).lowerBound
    }
}
