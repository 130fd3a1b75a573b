import Foundation
import HearthTesting
import Testing

@testable import HearthApps

/// Issue 40: sayings written by users — kept for their friends' cookies (credited), proposed to
/// a queue the server's operators moderate, and once approved in everyone's ("community").
@Suite struct SayingTests {
    static func friends(_ a: TestClient, _ aName: String, _ b: TestClient, _ bName: String) async throws {
        try await a.send("!follow \(bName)")
        try await a.expect("You now follow \(bName).")
        try await b.send("!follow \(aName)")
        try await b.expect("You now follow \(aName).")
    }

    /// A moderator: an account signed in over IRC that became a server operator.
    static func moderator(_ server: TestServer, _ name: String) async throws -> TestClient {
        try await TestClient.register(server, name, "s3cret-pass")
        let mod = try await TestClient.irc(server, nick: name, extra: ["PASS \(name):s3cret-pass"])
        try await mod.send("OPER root t0p-secret")
        try await mod.expectNumeric("381")
        return mod
    }

    static func start(_ clock: TestClock) async throws -> TestServer {
        try await FortuneCategoryTests.start(clock, configure: { $0.operators = ["root": "t0p-secret"] })
    }

    @Test func aFriendsSayingComesInTheirCookieCredited() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let ann = try await TestClient.user(server, "ann")
            let bob = try await TestClient.user(server, "bob")
            let cat = try await TestClient.user(server, "cat")
            try await Self.friends(ann, "ann", bob, "bob")
            try await cat.send("!follow ann")  // one way: not a friend
            try await cat.expect("You now follow ann.")

            try await bob.send("!fortune by-friends")
            try await bob.expect("none of your friends (mutual follows) has written a saying yet")
            try await ann.send("!saying add   Early birds share their worms.  ")
            try await ann.expect("Saying #1 is kept for your friends' cookies (mutual follows).")
            try await bob.send("!fortune categories")
            try await bob.expect("Fortune categories: by-friends (1) · community (0) · poems (3) · science (3)")
            try await bob.send("!fortune by-friends")
            try await bob.expect(
                "Your fortune for Wednesday 1 July (by-friends): “Early birds share their worms. — ann”")
            // Written for friends: its reader reads it, anyone else (and a channel) only that it was one.
            try await bob.send("!fortunes")
            try await bob.expect("“Early birds share their worms. —…”")
            try await ann.send("!fortunes bob")
            try await ann.expect("“a saying a friend wrote, for")
            try await bob.send("/join #tea")
            try await bob.expect("You joined #tea.")
            try await bob.send("!fortune")  // said in #tea, where everyone reads the answer
            try await bob.expect("You opened today's cookie already: “a saying a friend wrote, for its reader only”")
            // Not a friend: an explicit ask finds none; the cookie of all the others has none of ann's.
            try await cat.send("!fortune by-friends")
            try await cat.expect("none of your friends (mutual follows) has written a saying yet")
            try await cat.send("!set fortunes by-friends")
            try await cat.expect("fortunes is now by-friends")
            try await cat.send("!fortune")
            let opened = try await cat.expect("Your fortune for Wednesday 1 July (")
            #expect(!opened.contains("ann"))

            try await ann.send("!saying list")
            try await ann.expect("Your sayings (1 of \(SayingCommands.maxPerAccount)):")
            try await ann.expect("#1 [friends] “Early birds share their worms.”")
            try await bob.send("!saying delete 1")
            try await bob.expect("you have no saying #1")
            try await ann.send("!saying delete 1")
            try await ann.expect("Saying #1 is deleted.")
        }
    }

    @Test func aProposedSayingIsModeratedThenInEveryonesCookie() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let ann = try await TestClient.user(server, "ann")
            let dan = try await TestClient.user(server, "dan")
            try await ann.send("!saying add Kindness compounds.")
            try await ann.expect("Saying #1 is kept")
            try await ann.send("!saying add Rude words echo.")
            try await ann.expect("Saying #2 is kept")
            try await dan.send("!saying propose 1")
            try await dan.expect("you have no saying #1")
            try await ann.send("!saying propose 1")
            try await ann.expect("Saying #1 is proposed; a moderator will read it.")
            try await ann.send("!saying propose 1")
            try await ann.expect("saying #1 is waiting for a moderator already")
            try await ann.send("!saying propose 2")
            try await ann.expect("Saying #2 is proposed")
            try await ann.send("!saying queue")
            try await ann.expect("only a server operator (OPER) moderates sayings")
            try await ann.send("!saying approve 1")
            try await ann.expect("only a server operator (OPER) moderates sayings")

            let mod = try await Self.moderator(server, "mod")
            try await mod.send("PRIVMSG hearth :!saying queue")
            try await mod.expect("Sayings proposed (2, oldest first):")
            try await mod.expect("#1 by ann: “Kindness compounds.”")
            try await mod.expect("#2 by ann: “Rude words echo.”")
            try await mod.send("PRIVMSG hearth :!saying approve 1")
            try await mod.expect("Saying #1 is approved")
            try await mod.send("PRIVMSG hearth :!saying reject 2")
            try await mod.expect("Saying #2 is not taken; it stays with its author's friends.")
            try await mod.send("PRIVMSG hearth :!saying approve 2")
            try await mod.expect("saying #2 is not waiting")

            try await ann.send("!saying list")
            try await ann.expect("#2 [friends] “Rude words echo.”")
            try await ann.expect("#1 [everyone] “Kindness compounds.”")
            try await dan.send("!fortune community")
            try await dan.expect("(community): “Kindness compounds. — ann”")
        }
    }

    @Test func limitsOfLengthSayingsPerPersonAndTheQueue() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let eve = try await TestClient.user(server, "eve")
            try await eve.send("!saying add " + String(repeating: "a", count: SayingCommands.maxLength + 1))
            try await eve.expect(
                "a saying may have \(SayingCommands.maxLength) characters; that one has \(SayingCommands.maxLength + 1)"
            )
            try await eve.send("!saying add")
            try await eve.expect("write the saying after !saying add")
            try await eve.send("!saying add " + String(repeating: "b", count: SayingCommands.maxLength))
            try await eve.expect("Saying #1 is kept")
            for n in 2...SayingCommands.maxPerAccount {
                try await eve.send("!saying add Saying number \(n).")
                try await eve.expect("Saying #\(n) is kept")
            }
            try await eve.send("!saying add One too many.")
            try await eve.expect("you have \(SayingCommands.maxPerAccount) sayings, the most one may keep")
            try await eve.send("!saying list")
            try await eve.expect("Your sayings (\(SayingCommands.maxPerAccount) of \(SayingCommands.maxPerAccount))")

            // The queue: its limit is server-wide; filled by several people up to it.
            var proposers = [eve]
            while proposers.count * SayingCommands.maxPerAccount < SayingCommands.maxQueue + 1 {
                let name = "p\(proposers.count)"
                let client = try await TestClient.user(server, name)
                for n in 1...SayingCommands.maxPerAccount {
                    try await client.send("!saying add \(name) says \(n).")
                    try await client.expect("is kept")
                }
                proposers.append(client)
            }
            var proposed = 0
            outer: for (index, client) in proposers.enumerated() {
                for n in 1...SayingCommands.maxPerAccount {
                    let id = index * SayingCommands.maxPerAccount + n
                    try await client.send("!saying propose \(id)")
                    if proposed == SayingCommands.maxQueue {
                        try await client.expect(
                            "the moderators have \(SayingCommands.maxQueue) sayings to read already")
                        break outer
                    }
                    try await client.expect("Saying #\(id) is proposed")
                    proposed += 1
                }
            }
            #expect(proposed == SayingCommands.maxQueue)
        }
    }

    @Test func theFortunePageListsWritesAndProposesSayings() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let ora = try await TestClient.user(server, "ora")
            let browser = WebBrowser(server)
            try await browser.signIn("ora")
            var page = try await browser.get("/fortunes")
            #expect(page.body.contains("Your sayings (0 of \(SayingCommands.maxPerAccount))"))
            #expect(page.body.contains(#"<form method="post" action="/fortunes/sayings""#))
            #expect(
                page.body.contains("<option>by-friends</option>") && page.body.contains("<option>community</option>"))
            let forged = try await browser.post("/fortunes/sayings", form: ["text": "Forged."], csrf: false)
            #expect(forged.status == 403)
            let added = try await browser.post("/fortunes/sayings", form: ["text": "Tea <b>first</b>."])
            #expect(added.status == 303 && added.location?.hasPrefix("/fortunes") == true)
            page = try await browser.get("/fortunes")
            #expect(page.body.contains("<q>Tea &lt;b&gt;first&lt;/b&gt;.</q> <span class=\"meta\">#1 · friends</span>"))
            #expect(page.body.contains(#"action="/fortunes/sayings/1/propose""#))
            let tooLong = String(repeating: "x", count: SayingCommands.maxLength + 1)
            _ = try await browser.post("/fortunes/sayings", form: ["text": tooLong])
            page = try await browser.get("/fortunes")
            #expect(page.body.contains("a saying may have \(SayingCommands.maxLength) characters"))
            let proposed = try await browser.post("/fortunes/sayings/1/propose", form: [:])
            #expect(proposed.status == 303)
            page = try await browser.get("/fortunes")
            #expect(
                page.body.contains("#1 · proposed") && !page.body.contains(#"action="/fortunes/sayings/1/propose""#))
            try await ora.send("!saying list")
            try await ora.expect("#1 [proposed] “Tea <b>first</b>.”")
        }
    }
}
