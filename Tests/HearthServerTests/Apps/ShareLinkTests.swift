import Foundation
import HearthTesting
import Testing

/// The rule of docs/SECURITY.md for memes and recipes: a page link is handed only to readers
/// who may open it (a share grants no view). Each recipient opens their link signed in; the one
/// the page refuses (the author blocks them) gets the line without a link and is still refused.
/// A list its owner keeps for friends, asked for by a friend in a channel, is answered privately.
@Suite struct ShareLinkTests {
    @Test func aSharedMemeOrRecipeIsLinkedOnlyToThoseWhoMayOpenIt() async throws {
        try await withServer { server in
            let ava = try await TestClient.user(server, "ava")
            let ben = try await TestClient.user(server, "ben")
            let cal = try await TestClient.user(server, "cal")
            try await ava.send("!meme sunset we made | it")
            try await ava.expect("meme #1 by ava")
            let recipe = try await RecipeTests.post(
                ava, title: "Lentil stew", ingredients: ["200 g lentils"], steps: ["simmer"])
            try await ava.send("!block cal")
            try await ava.expect("You blocked cal.")
            let bens = WebBrowser(server)
            #expect(try await bens.signIn("ben").status == 303)
            let cals = WebBrowser(server)
            #expect(try await cals.signIn("cal").status == 303)
            let base = "http://127.0.0.1:\(server.httpPort)"
            for (kind, path) in [("meme", "/m/1"), ("recipe", "/r/\(recipe)")] {
                let id = path.split(separator: "/").last!
                // To ben, who may open it: the link, and it opens for him.
                try await ava.send("!share \(kind) \(id) ben")
                let toBen = try await ben.expect("ava shares \(kind) #\(id)")
                #expect(toBen.contains("· page: \(base)\(path)"), "\(toBen)")
                #expect(try await bens.get(path).status == 200)
                // ben passes it on to cal, whom ava blocks: no link, and the page still refuses cal.
                try await ben.send("!share \(kind) \(id) cal")
                let toCal = try await cal.expect("ben shares \(kind) #\(id)")
                #expect(!toCal.contains(path), "\(toCal)")
                #expect(try await cals.get(path).status == 404)
            }

            // ava's memes are for friends (the default): ben, a friend, asking in #lobby is
            // answered privately; dan, a stranger there, reads none of it.
            try await ava.send("!follow ben")
            try await ava.expect("You now follow ben")
            try await ben.send("!follow ava")
            try await ben.expect("You now follow ava")
            let dan = try await TestClient.user(server, "dan")
            for client in [ben, dan] {
                try await client.send("/join #lobby")
                try await client.expect("You joined #lobby")
            }
            try await ben.send("!memes ava")
            let listed = try await ben.expect("ava's memes (1):")
            #expect(!listed.contains("[#lobby]"), "\(listed)")
            try await dan.send("!whoami")
            try await dan.expectNoLine(containing: "ava's memes", before: "You are dan")
        }
    }
}
