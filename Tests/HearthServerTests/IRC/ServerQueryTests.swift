import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// WHOWAS, INFO, ADMIN, LINKS, WALLOPS (+w), WHOX and the LUSERS maxima, as IRC clients and bots use them.
@Suite struct ServerQueryTests {
    /// Asks WHOIS until `nick` is gone (its connection's close has been handled), bounded.
    static func waitUntilGone(_ asker: TestClient, _ nick: String) async throws {
        try await waitUntil("\(nick) to leave") {
            try await asker.send("WHOIS \(nick)")
            let answer = try await asker.expect(nick) { $0.contains(" 401 ") || $0.contains(" 318 ") }
            if answer.contains(" 401 ") { try await asker.expectNumeric("318") }
            return answer.contains(" 401 ")
        }
    }

    @Test func whowasRemembersWhoLeftANick() async throws {
        try await withServer { server in
            let asker = try await TestClient.irc(server, nick: "asker")
            try await asker.send("WHOWAS")
            try await asker.expectNumeric("431")
            try await asker.send("WHOWAS ghost")
            try await asker.expect(" 406 asker ghost :There was no such nickname")
            try await asker.expect(" 369 asker ghost :End of WHOWAS")

            let rose = try await TestClient.irc(server, nick: "rose")
            try await rose.send("NICK rosie")
            try await rose.expect("NICK rosie")
            try await rose.send("QUIT :bye")
            try await rose.expect("ERROR")
            // Both nicks she left are remembered, with who she was.
            try await asker.send("WHOWAS rose")
            try await asker.expect(" 314 asker rose ~rose \(server.localHost) * :Test rose")
            try await asker.expect(" 312 asker rose test.hearth")
            try await asker.expectNumeric("369")
            try await asker.send("WHOWAS rosie")
            try await asker.expect(" 314 asker rosie ~rose \(server.localHost) * :Test rose")
            try await asker.expectNumeric("369")

            // Newest first, and a count limits the answer.
            for round in 0..<3 {
                let again = try await TestClient.irc(server, nick: "ivy")
                try await again.send("SETNAME :Ivy round \(round)")
                try await again.sync()
                await again.close()
                try await Self.waitUntilGone(asker, "ivy")
            }
            try await asker.sync()
            _ = asker.unread()
            try await asker.send("WHOWAS ivy 2")
            let first = try await asker.expectNumeric("314")
            let second = try await asker.expectNumeric("314")
            let end = try await asker.expect("369") { $0.contains(" 314 ") || $0.contains(" 369 ") }
            #expect(end.contains(" 369 "), "a third entry came back: \(end)")
            #expect(!first.contains("round 0") && !second.contains("round 0"))
            await asker.close()
        }
    }

    @Test func whowasKeepsABoundedHistoryPerNick() async throws {
        try await withServer { server in
            let asker = try await TestClient.irc(server, nick: "asker")
            let rounds = 7
            for _ in 0..<rounds {
                let visitor = try await TestClient.irc(server, nick: "visitor")
                try await visitor.send("QUIT")
                try await visitor.expect("ERROR")
                try await Self.waitUntilGone(asker, "visitor")
            }
            try await asker.sync()
            _ = asker.unread()
            try await asker.send("WHOWAS visitor")
            var entries = 0
            while try await asker.expect("WHOWAS line", where: { $0.contains(" 314 ") || $0.contains(" 369 ") })
                .contains(" 314 ")
            {
                entries += 1
            }
            #expect(rounds > WhowasLog.entriesPerNick)
            #expect(entries == WhowasLog.entriesPerNick)
            await asker.close()
        }
    }

    @Test func whowasForgetsTheOldestNicksPastItsBound() {
        var log = WhowasLog()
        func entry(_ nick: String) -> WhowasLog.Entry {
            .init(nick: nick, user: "u", host: "h", realname: "r", server: "s", account: nil, leftAt: Date())
        }
        for index in 0...WhowasLog.nicksKept { log.record(entry("nick\(index)")) }
        #expect(log.count == WhowasLog.nicksKept)
        #expect(log.lookup("nick0", limit: 0).isEmpty)
        #expect(log.lookup("NICK1", limit: 0).count == 1)
        // Recording a nick again makes it the newest: it outlives those recorded after it once.
        log.record(entry("nick1"))
        log.record(entry("another"))
        #expect(log.lookup("nick1", limit: 0).count == 2)
        #expect(log.lookup("nick2", limit: 0).isEmpty)
        #expect(log.lookup("nick1?", limit: 1).count == 10)
        // One nick recorded over and over stays one nick with its last few users, and its
        // earlier places do not push others out.
        for _ in 0..<(3 * WhowasLog.nicksKept) { log.record(entry("busy")) }
        #expect(log.count == WhowasLog.nicksKept)
        #expect(log.lookup("busy", limit: 0).count == WhowasLog.entriesPerNick)
        #expect(log.lookup("bus?", limit: 0).count == WhowasLog.entriesPerNick)
        #expect(log.lookup("nick1", limit: 0).count == 2)
    }

    @Test func channelMasksMatchHostsAccountsAndMutes() {
        var lists = ChannelLists()
        let eve = ChannelLists.Identity(prefix: "eve!~eve@10.0.0.1", account: "evelyn")
        let guest = ChannelLists.Identity(prefix: "eve!~eve@10.0.0.2", account: nil)
        #expect(ChannelLists.normalize("$m:eve") == "m:eve!*@*")
        #expect(ChannelLists.normalize("a:EVE*") == "a:EVE*")
        #expect(ChannelLists.normalize("$a") == "$a" && ChannelLists.normalize("m:$a") == "m:$a")
        _ = lists.add("b", .init(mask: ChannelLists.normalize("$m:*@10.0.0.1"), setBy: "op", at: Date()))
        #expect(lists.mutes(eve) && !lists.mutes(guest) && !lists.bans(eve))
        _ = lists.add("b", .init(mask: "$a:eve*", setBy: "op", at: Date()))
        #expect(lists.bans(eve) && !lists.bans(guest))
        _ = lists.add("e", .init(mask: "a:evelyn", setBy: "op", at: Date()))
        #expect(!lists.bans(eve) && !lists.mutes(eve))
        _ = lists.add("I", .init(mask: ChannelLists.normalize("$a"), setBy: "op", at: Date()))
        #expect(lists.invites(eve) && !lists.invites(guest))
        var quiet = ChannelLists()
        _ = quiet.add("b", .init(mask: ChannelLists.normalize("m:$a"), setBy: "op", at: Date()))
        #expect(quiet.mutes(eve) && !quiet.mutes(guest) && !quiet.bans(eve))
    }

    @Test func infoLinksAndWallops() async throws {
        try await withServer {
            $0.operators = ["root": "t0p-secret"]
        } run: { server in
            let user = try await TestClient.irc(server, nick: "user")
            try await user.send("INFO")
            try await user.expect("Hearth")
            try await user.expect(" 374 user :End of /INFO list")
            try await user.send("INFO elsewhere.example")
            try await user.expect(" 402 user elsewhere.example :No such server")
            try await user.send("INFO test.hearth")
            try await user.expectNumeric("374")

            try await user.send("ADMIN")
            try await user.expect(" 256 user test.hearth :Administrative info")
            try await user.expectNumeric("257")
            try await user.expectNumeric("258")
            try await user.expectNumeric("259")
            try await user.send("ADMIN elsewhere.example")
            try await user.expect(" 402 user elsewhere.example :No such server")

            try await user.send("LINKS")
            try await user.expect(" 364 user test.hearth test.hearth :0 ")
            try await user.expect(" 365 user * :End of /LINKS list")
            try await user.send("LINKS *.nowhere")
            let end = try await user.expect("LINKS end") { $0.contains(" 364 ") || $0.contains(" 365 ") }
            #expect(end.contains(" 365 "))

            // WALLOPS is for operators; it reaches users with +w and the sender.
            try await user.send("WALLOPS :hello")
            try await user.expectNumeric("481")
            let quiet = try await TestClient.irc(server, nick: "quiet")
            try await user.send("MODE user +w")
            try await user.expect("MODE user :+w")
            try await user.send("MODE user")
            try await user.expect(" 221 user :+w")
            let oper = try await TestClient.irc(server, nick: "admin")
            try await oper.send("OPER root t0p-secret")
            try await oper.expectNumeric("381")
            try await oper.send("WALLOPS :maintenance at noon")
            try await user.expect(":admin!~admin@\(server.localHost) WALLOPS :maintenance at noon")
            try await oper.expect("WALLOPS :maintenance at noon")
            try await quiet.sync()
            #expect(!quiet.unread().contains { $0.contains("WALLOPS") })
            try await oper.send("WALLOPS")
            try await oper.expectNumeric("461")
            await user.close()
            await quiet.close()
            await oper.close()
        }
    }

    @Test func whoxAnswersTheFieldsAskedFor() async throws {
        try await withServer { server in
            let ann = try await TestClient.irc(server, nick: "ann")
            try await ann.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await ann.expect("Welcome to Hearth, ann!")
            try await ann.send("JOIN #tea")
            try await ann.expectNumeric("366")
            let bob = try await TestClient.irc(server, nick: "bob")
            try await bob.send("JOIN #tea")
            try await bob.expectNumeric("366")
            // The fields come in WHOX's fixed order whatever order they were asked in; the token is echoed.
            try await bob.send("WHO #tea %nauhtcr,42")
            try await bob.expect(" 354 bob 42 #tea ~ann \(server.localHost) ann ann :Test ann")
            try await bob.expect(" 354 bob 42 #tea ~bob \(server.localHost) bob 0 :Test bob")
            try await bob.expect(" 315 bob #tea")
            // Someone else's address is hidden; one's own is shown. A bad token is answered as 0.
            try await bob.send("WHO ann %int,abc")
            try await bob.expect(" 354 bob 0 255.255.255.255 :ann")
            try await bob.send("WHO bob %ni")
            try await bob.expect(" 354 bob 127.0.0.1 :bob")
            try await bob.send("WHO ann %f")
            try await bob.expect(" 354 bob :H")
            // Plain WHO is unchanged.
            try await bob.send("WHO ann")
            try await bob.expect(" 352 bob * ~ann \(server.localHost) test.hearth ann H :0 Test ann")
            await ann.close()
            await bob.close()
        }
    }

    @Test func lusersKeepsTheMostUsersSeen() async throws {
        try await withServer { server in
            let first = try await TestClient.irc(server, nick: "first")
            var others: [TestClient] = []
            for index in 0..<3 { others.append(try await TestClient.irc(server, nick: "other\(index)")) }
            for other in others { await other.close() }
            try await first.send("LUSERS")
            let local = try await first.expectNumeric("265")
            #expect(local.contains("max 4"), "\(local)")
            let global = try await first.expectNumeric("266")
            #expect(global.contains(" 4 :") || global.contains("max 4"), "\(global)")
            await first.close()
        }
    }
}
