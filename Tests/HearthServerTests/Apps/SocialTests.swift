import Foundation
import GRDB
import HearthCrypto
import HearthTesting
import Testing

/// Profiles, follows, friends, blocking, people search and settings, over TCP.
@Suite struct SocialTests {
    @Test func followGraphFriendsAndProfiles() async throws {
        try await withServer { server in
            let alice = try await TestClient.user(server, "alice")
            let bob = try await TestClient.user(server, "bob")
            let carol = try await TestClient.user(server, "carol")

            try await alice.send("!follow bob")
            try await alice.expect("You now follow bob.")
            try await bob.expect("alice now follows you — !follow alice to follow back.")
            try await alice.send("!follow bob")
            try await alice.expect("You already follow bob.")
            try await alice.send("!follow alice")
            try await alice.expect("follow: that's you!")
            try await alice.send("!follow nobody")
            try await alice.expect("nobody is called nobody")

            try await bob.send("!follow alice")
            try await bob.expect("You now follow alice. You follow each other: you are friends.")
            try await alice.expect("bob now follows you — you are friends now.")
            try await carol.send("!follow bob")
            try await carol.expect("You now follow bob.")

            try await alice.send("!friends")
            try await alice.expect("Your friends: bob")
            try await bob.send("!followers")
            try await bob.expect("Your followers: alice, carol")
            try await carol.send("!following")
            try await carol.expect("You follow: bob")
            try await carol.send("!followers bob")
            try await carol.expect("bob's followers: alice, carol")
            try await carol.send("!friends")
            try await carol.expect("Your friends: nobody yet.")

            try await bob.send("!bio I bake bread")
            try await bob.expect("Your bio now reads: I bake bread")
            try await bob.send("!bio " + String(repeating: "x", count: 301))
            try await bob.expect("at most 300 characters; yours has 301")
            try await alice.send("!profile bob")
            let header = try await alice.expect("bob — joined ")
            #expect(header.contains("2 followers · 1 following · friends"))
            try await alice.expect("bio: I bake bread")
            try await carol.send("!profile bob")
            try await carol.expect("you follow them")
            try await alice.send("!profile")
            try await alice.expect("alice — joined")

            // Carol follows bob, so bob's follows show in carol's feed, newest first.
            try await carol.send("!feed")
            try await carol.expect("bob followed alice · just now")
            try await bob.send("!feed")
            try await bob.expect("alice followed you · just now")
            try await alice.send("!feed >x")
            try await alice.expect("x is not a page marker")

            try await alice.send("!unfollow bob")
            try await alice.expect("You no longer follow bob.")
            try await alice.send("!unfollow bob")
            try await alice.expect("You weren't following bob.")
            try await alice.send("!friends")
            try await alice.expect("Your friends: nobody yet.")
        }
    }

    @Test func blockingRefusesMessagesFollowsAndProfiles() async throws {
        try await withServer { server in
            let dana = try await TestClient.user(server, "dana")
            let eve = try await TestClient.user(server, "eve")
            try await eve.send("!follow dana")
            try await eve.expect("You now follow dana.")
            try await dana.send("!follow eve")
            try await dana.expect("You now follow eve.")

            try await dana.send("!block eve")
            try await dana.expect("You blocked eve.")
            // Follows both ways are gone.
            try await dana.send("!followers")
            try await dana.expect("Your followers: nobody yet.")
            try await dana.send("!following")
            try await dana.expect("You follow: nobody yet.")
            try await dana.send("!blocked")
            try await dana.expect("You block: eve")

            // eve cannot follow, message or look at dana.
            try await eve.send("!follow dana")
            try await eve.expect("follow: you can't follow dana")
            try await eve.send("/msg dana hello?")
            try await eve.expect("error: dana: dana does not accept messages from you")
            try await eve.send("!profile dana")
            try await eve.expect("dana's profile is not available to you")
            try await eve.send("!followers dana")
            try await eve.expect("dana's lists are not available to you")

            // An IRC client logging in as eve (SASL) is refused the same way, with 531.
            let irc = try await server.connect()
            try await irc.send("CAP REQ :sasl")
            try await irc.send("NICK eve_irc")
            try await irc.send("USER eve 0 * :Eve")
            try await irc.send("AUTHENTICATE PLAIN")
            try await irc.send("AUTHENTICATE " + Data("\0eve\0s3cret-pass".utf8).base64EncodedString())
            try await irc.expectNumeric("903")
            try await irc.send("CAP END")
            try await irc.expectNumeric("001")
            try await irc.send("PRIVMSG dana :hi from irc")
            try await irc.expect(" 531 eve_irc dana :dana does not accept messages from you")

            try await dana.send("!unblock eve")
            try await dana.expect("You unblocked eve.")
            try await eve.send("/msg dana sorry")
            try await eve.expect("[to dana] sorry")
            try await dana.expect("[pm] <eve> sorry")
        }
    }

    @Test func everySettingAcceptsGoodValuesAndExplainsBadOnes() async throws {
        try await withServer { server in
            let c = try await TestClient.user(server, "fay")
            try await c.send("!settings")
            try await c.expect("Your settings")
            for key in [
                "color off (on|off)", "tz UTC (Area/City)", "notify on (on|off)", "location off (on|off)",
                "textsize normal (small|normal|large)", "privacy friends (friends|public)", "bot off (on|off)",
            ] {
                try await c.expect(key)
            }
            let cases: [(String, String, String)] = [
                ("color", "maybe", "color can be on or off"),
                ("tz", "Mars/Olympus", "\"Mars/Olympus\" is not a time zone I know. Use an IANA name like"),
                // A city alone: the zone named for it is offered.
                ("tz", "paris", "\"paris\" is not a time zone I know — did you mean Europe/Paris? Use an IANA"),
                ("notify", "sometimes", "notify can be on or off"),
                ("location", "yes", "location can be on or off"),
                ("textsize", "huge", "textsize can be small or normal or large"),
                ("privacy", "secret", "privacy can be friends or public"),
                ("bot", "2", "bot can be on or off"),
            ]
            for (key, bad, message) in cases {
                try await c.send("!set \(key) \(bad)")
                try await c.expect(message)
            }
            let good: [(String, String)] = [
                ("tz", "Europe/Paris"), ("notify", "off"), ("location", "on"), ("textsize", "large"),
                ("privacy", "public"),
                ("bot", "on"), ("color", "ON"),
            ]
            for (key, value) in good {
                try await c.send("!set \(key) \(value)")
                try await c.expect("\(key) is now \(key == "tz" ? value : value.lowercased())")
            }
            try await c.send("!set colour off")
            try await c.expect("there is no setting \"colour\" — did you mean color?")
            // With colour on, a plain-mode reply carries ANSI bold.
            try await c.send("!settings")
            let line = try await c.expect("Europe/Paris (Area/City)")
            #expect(line.contains("\u{1b}[1mtz\u{1b}[0m Europe/Paris"))
            try await c.expect("\u{1b}[0m large (small|normal|large)")
            try await c.expect("\u{1b}[0m public (friends|public)")
        }
    }

    @Test func findPagesThroughPeopleByNamePrefix() async throws {
        try await withServer { server in
            let hash = try #require(PasswordHash.hash("s3cret-pass", cost: TestServer.fastCost))
            for i in 0..<25 {
                let name = String(format: "Pager%02d", i)
                _ = try await server.server.store.createAccount(
                    name: name, nameKey: name.lowercased(), passwordHash: hash, email: nil, phone: nil,
                    recoveryHashes: [])
            }
            let c = try await TestClient.plain(server)
            try await c.send("!find PAG")
            let first = try await c.expect("People named PAG…")
            #expect(first.contains("Pager00, Pager01"))
            #expect(first.contains("Pager19"))
            #expect(!first.contains("Pager20"))
            try await c.expect("more: !find PAG >Pager19")
            try await c.send("!find PAG >Pager19")
            let second = try await c.expect("People named PAG…")
            #expect(second.hasSuffix("Pager20, Pager21, Pager22, Pager23, Pager24"))
            try await c.send("!find zz")
            try await c.expect("Nobody's name starts with zz.")
            try await c.send("!find " + String(repeating: "a", count: 31))
            try await c.expect("names are at most 30 characters")
        }
    }

    @Test func deletingAnAccountLeavesNoOrphans() async throws {
        try await withServer { server in
            let gus = try await TestClient.user(server, "gus")
            let hal = try await TestClient.user(server, "hal")
            let ida = try await TestClient.user(server, "ida")
            try await gus.send("!follow hal")
            try await gus.expect("You now follow hal.")
            try await hal.send("!follow gus")
            try await hal.expect("You now follow gus.")
            try await gus.send("!block ida")
            try await gus.expect("You blocked ida.")
            try await ida.send("!block gus")
            try await ida.expect("You blocked gus.")
            try await gus.send("!set tz Europe/Oslo")
            try await gus.expect("tz is now Europe/Oslo")
            try await gus.send("!bio short-lived")
            try await gus.expect("Your bio now reads")
            let id = try #require(try await server.server.store.account(nameKey: "gus")?.id)
            // A meme only gus made, and one hal made too (the same render, shared).
            try await gus.send("!meme sunset only | mine")
            let only = try Web.link(in: try await gus.expect("meme #1 by gus: http")).lastPathComponent
            try await gus.send("!meme sunset shared | render")
            let shared = try Web.link(in: try await gus.expect("meme #2 by gus: http")).lastPathComponent
            try await hal.send("!meme sunset shared | render")
            try await hal.expect("meme #3 by hal: http")

            try await gus.send("!account delete s3cret-pass")
            try await gus.expect("are deleted. Goodbye!")
            #expect(!MemeTests.mediaFiles(server).contains(only))
            #expect(MemeTests.mediaFiles(server).contains(shared))
            let orphans = try await server.sql.int(
                """
                SELECT (SELECT COUNT(*) FROM follow WHERE followerId = \(id) OR followeeId = \(id))
                     + (SELECT COUNT(*) FROM block WHERE blockerId = \(id) OR blockedId = \(id))
                     + (SELECT COUNT(*) FROM setting WHERE accountId = \(id))
                     + (SELECT COUNT(*) FROM activity WHERE accountId = \(id))
                     + (SELECT COUNT(*) FROM resumeToken WHERE accountId = \(id))
                     + (SELECT COUNT(*) FROM recoveryCode WHERE accountId = \(id))
                     + (SELECT COUNT(*) FROM account WHERE id = \(id))
                """)
            #expect(orphans == 0)
            try await hal.send("!profile hal")
            try await hal.expect("0 followers · 0 following")
            #expect(try await server.sql.foreignKeyProblems().isEmpty)
        }
    }
}
