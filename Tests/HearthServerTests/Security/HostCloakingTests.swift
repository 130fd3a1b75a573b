import Foundation
import HearthProtocol
import HearthTesting
import Testing

/// Nobody sees another user's address: every host shown to others is its cloak (a keyed hash
/// of the address), in messages, NAMES, WHO, WHOIS, WHOWAS and history. The user itself and
/// operators see the address; bans on the cloak work; limits still count the real address.
@Suite struct HostCloakingTests {
    static let ann = "127.0.0.2"
    static let caps = "batch server-time message-tags draft/chathistory userhost-in-names"

    /// NAME over IRC from `address`, after the welcome; with `login`, logged in to the account
    /// NAME (password `s3cret-pass`) with `caps`.
    static func user(
        _ server: TestServer, _ name: String, from address: String, login: Bool = false
    ) async throws -> TestClient {
        let client = try await TestClient.connect(port: server.ircPort, from: address)
        let account = login ? ["CAP LS 302", "CAP REQ :\(caps)", "PASS \(name):s3cret-pass", "CAP END"] : []
        for line in account + ["NICK \(name)", "USER \(name) 0 * :Test \(name)"] { try await client.send(line) }
        try await client.expectNumeric("376")
        return client
    }

    /// Accounts NAMES registered, each logged in over IRC from its address.
    static func members(_ server: TestServer, _ names: [(String, String)]) async throws -> [TestClient] {
        var clients: [TestClient] = []
        for (name, address) in names {
            try await TestClient.register(server, name, "s3cret-pass")
            clients.append(try await user(server, name, from: address, login: true))
        }
        return clients
    }

    /// Every line up to and including the first that contains `end`.
    static func lines(_ client: TestClient, until end: String) async throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try await client.expect("any line") { _ in true }
            lines.append(line)
            if line.contains(end) { return lines }
        }
    }

    @Test func peersSeeTheCloakEverywhere() async throws {
        try await withServer { server in
            let cloak = server.server.shownHost(for: Self.ann)
            #expect(cloak.hasSuffix(".hearth") && cloak != Self.ann)
            let people = try await Self.members(server, [("ann", Self.ann), ("bob", "127.0.0.3"), ("cy", "127.0.0.4")])
            let (ann, bob, cy) = (people[0], people[1], people[2])
            try await ann.send("JOIN #den")
            try await ann.expectNumeric("366")
            try await bob.send("JOIN #den")
            try await bob.expectNumeric("366")
            try await ann.send("PRIVMSG #den :hello from home")
            try await ann.send("PRIVMSG bob :psst")
            try await ann.send("TOPIC #den :our den")
            var seen = try await Self.lines(bob, until: "TOPIC #den")
            #expect(seen.contains { $0.contains(":ann!~ann@\(cloak) PRIVMSG #den :hello from home") }, "\(seen)")
            #expect(seen.contains { $0.contains(":ann!~ann@\(cloak) PRIVMSG bob :psst") }, "\(seen)")
            for query in ["NAMES #den", "WHO #den", "WHO ann %uhin", "WHOIS ann", "USERHOST ann", "TOPIC #den"] {
                try await bob.send(query)
            }
            try await bob.send("PING :queries-done")
            let answers = try await Self.lines(bob, until: "queries-done")
            #expect(answers.contains { $0.contains(" 353 bob = #den :") && $0.contains("@ann!~ann@\(cloak)") })
            #expect(answers.contains { $0.contains(" 352 bob #den ~ann \(cloak) test.hearth ann ") }, "\(answers)")
            #expect(answers.contains { $0.contains(" 354 bob ~ann 255.255.255.255 \(cloak) :ann") }, "\(answers)")
            #expect(answers.contains { $0.contains(" 311 bob ann ~ann \(cloak) * ") }, "\(answers)")
            #expect(!answers.contains { $0.contains(" 338 ") }, "\(answers)")
            #expect(answers.contains { $0.contains(" 302 bob :ann=+~ann@\(cloak)") }, "\(answers)")
            #expect(answers.contains { $0.contains(" 333 bob #den ann!~ann@\(cloak) ") }, "\(answers)")
            seen += answers

            // History replayed later shows the cloak too.
            var replayed: [String] = []
            for _ in 0..<100 {
                try await bob.send("CHATHISTORY LATEST #den * 5")
                replayed = try await Self.lines(bob, until: "BATCH -")
                if replayed.contains(where: { $0.contains("hello from home") }) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let stored = ":ann!~ann@\(cloak) PRIVMSG #den :hello from home"
            #expect(replayed.contains { $0.contains(stored) }, "\(replayed)")
            seen += replayed

            // And so do JOIN's backlog, QUIT and WHOWAS.
            try await cy.send("JOIN #den")
            let backlog = try await Self.lines(cy, until: "hello from home")
            #expect(backlog.last?.contains(":ann!~ann@\(cloak) PRIVMSG #den") == true, "\(backlog)")
            try await ann.send("QUIT :bye")
            seen += try await Self.lines(bob, until: "QUIT :")
            #expect(seen.last?.contains(":ann!~ann@\(cloak) QUIT") == true, "\(seen.last ?? "")")
            try await bob.send("WHOWAS ann")
            let whowas = try await Self.lines(bob, until: " 369 ")
            #expect(whowas.contains { $0.contains(" 314 bob ann ~ann \(cloak) * ") }, "\(whowas)")

            for line in seen + whowas + backlog {
                #expect(!line.contains(Self.ann), "the address leaked: \(line)")
            }
        }
    }

    @Test func theOwnerAndOperatorsSeeTheAddress() async throws {
        try await withServer {
            $0.operators = ["root": "t0p-secret"]
        } run: { server in
            let cloak = server.server.shownHost(for: Self.ann)
            let ann = try await Self.user(server, "ann", from: Self.ann)
            try await ann.expect(" 396 ann \(cloak) :is now your displayed host")
            try await ann.send("WHOIS ann")
            try await ann.expect(" 311 ann ann ~ann \(cloak) * :Test ann")
            try await ann.expect(" 338 ann ann ~ann@\(Self.ann) \(Self.ann) :Actual user@host, Actual IP")
            try await ann.send("WHO ann %ih")
            try await ann.expect(" 354 ann \(Self.ann) :\(cloak)")

            let oper = try await Self.user(server, "oper", from: "127.0.0.3")
            try await oper.send("WHOIS ann")
            try await oper.expectNoLine(containing: " 338 ", before: " 318 ")
            try await oper.send("OPER root t0p-secret")
            try await oper.expectNumeric("381")
            try await oper.send("WHOIS ann")
            try await oper.expect(" 338 oper ann ~ann@\(Self.ann) \(Self.ann) :Actual user@host, Actual IP")
            try await oper.send("WHO ann %i")
            try await oper.expect(" 354 oper :\(Self.ann)")
        }
    }

    @Test func aBanOnTheCloakKeepsTheUserOut() async throws {
        try await withServer { server in
            let cloak = server.server.shownHost(for: Self.ann)
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            try await op.send("MODE #club +b *!*@\(cloak)")
            try await op.expect("MODE #club +b :*!*@\(cloak)")
            // Any nick from that address is out; another address is not.
            for nick in ["ann", "anna"] {
                let ann = try await Self.user(server, nick, from: Self.ann)
                try await ann.send("JOIN #club")
                try await ann.expect(" 474 \(nick) #club")
            }
            let other = try await Self.user(server, "other", from: "127.0.0.3")
            try await other.send("JOIN #club")
            try await other.expect(" 366 other #club")
        }
    }

    /// A channel operator who is not an IRC operator cannot use the lists as an oracle for a
    /// real address (`+b *!*@82.*`, then watch who is refused or silenced): their masks match
    /// the cloak only. An IRC operator's match the real address too (they see it in WHOIS).
    @Test func onlyAnOperatorsMaskMatchesTheRealAddress() async throws {
        try await withServer {
            $0.operators = ["root": "t0p-secret"]
        } run: { server in
            let op = try await TestClient.irc(server, nick: "op")
            let dan = try await Self.user(server, "dan", from: "127.0.0.4")
            let ann = try await Self.user(server, "ann", from: Self.ann)
            let eve = try await Self.user(server, "eve", from: "127.0.0.5")
            let fay = try await Self.user(server, "fay", from: "127.0.0.6")
            /// Bans, mutes, excepts and invite-excepts by address in `channel`; checks whether
            /// each one matched.
            func setMasks(in channel: String, match: Bool) async throws {
                try await op.send("JOIN \(channel)")
                try await op.expectNumeric("366")
                try await op.send("MODE \(channel) +b *!*@127.0.0.4")
                try await op.expect("MODE \(channel) +b :*!*@127.0.0.4")
                try await dan.send("JOIN \(channel)")
                try await dan.expect(match ? " 474 dan \(channel)" : " 366 dan \(channel)")

                try await op.send("MODE \(channel) +b m:*!*@\(Self.ann)")
                try await op.expect("MODE \(channel) +b :m:*!*@\(Self.ann)")
                try await ann.send("JOIN \(channel)")
                try await ann.expect(" 366 ann \(channel)")
                try await ann.send("PRIVMSG \(channel) :heard?")
                if match {
                    try await ann.expect(" 404 ann \(channel) :Cannot send to channel — you are muted")
                } else {
                    try await op.expect("PRIVMSG \(channel) :heard?")
                }

                try await op.send("MODE \(channel) +be *!*@* *!*@127.0.0.5")
                try await op.expect("MODE \(channel) +be *!*@* :*!*@127.0.0.5")
                try await eve.send("JOIN \(channel)")
                try await eve.expect(match ? " 366 eve \(channel)" : " 474 eve \(channel)")
                try await op.send("MODE \(channel) -b+iI *!*@* *!*@127.0.0.6")
                try await op.expect("MODE \(channel) -b+iI *!*@* :*!*@127.0.0.6")
                try await fay.send("JOIN \(channel)")
                try await fay.expect(match ? " 366 fay \(channel)" : " 473 fay \(channel)")
            }
            try await setMasks(in: "#club", match: false)
            try await op.send("OPER root t0p-secret")
            try await op.expectNumeric("381")
            try await setMasks(in: "#hall", match: true)

            // An operator setting a chanop's address mask again makes it theirs.
            try await op.send("MODE #club +b *!*@127.0.0.4")
            try await op.send("PING :again")
            try await op.expect("PONG")
            let dan2 = try await Self.user(server, "dan2", from: "127.0.0.4")
            try await dan2.send("JOIN #club")
            try await dan2.expect(" 474 dan2 #club")
        }
    }

    @Test func perAddressLimitsCountTheRealAddress() async throws {
        try await withServer {
            $0.floodControl = true  // loopback is exempt otherwise
            $0.maxConnectionsPerAddress = 1
        } run: { server in
            let first = try await TestClient.connect(port: server.ircPort, from: Self.ann)
            try await first.send("PING :one")
            try await first.expect("PONG")
            let second = try await TestClient.connect(port: server.ircPort, from: Self.ann)
            try await second.expect("ERROR :Closing Link: \(Self.ann) (Too many connections from your address")
            let elsewhere = try await TestClient.connect(port: server.ircPort, from: "127.0.0.3")
            try await elsewhere.send("PING :three")
            try await elsewhere.expect("PONG")
        }
    }

    /// History kept while hosts were not cloaked (an older version, or the setting off) is
    /// replayed with the cloak of the address it holds.
    @Test func historyStoredBeforeCloakingShowsTheCloak() async throws {
        let dir = TestServer.tempDirectory()
        try await withServer(dataDirectory: dir) {
            $0.cloakHosts = false
        } run: { server in
            let people = try await Self.members(server, [("ann", Self.ann), ("bob", "127.0.0.3")])
            let (ann, bob) = (people[0], people[1])
            for client in [ann, bob] {
                try await client.send("JOIN #den")
                try await client.expectNumeric("366")
            }
            try await ann.send("PRIVMSG #den :said before cloaks")
            try await bob.expect(":ann!~ann@\(Self.ann) PRIVMSG #den :said before cloaks")
        }
        try await withServer(dataDirectory: dir) { server in
            let cloak = server.server.shownHost(for: Self.ann)
            let bob = try await Self.user(server, "bob", from: "127.0.0.3", login: true)
            try await bob.send("JOIN #den")
            let backlog = try await Self.lines(bob, until: "said before cloaks")
            #expect(backlog.last?.contains(":ann!~ann@\(cloak) PRIVMSG #den") == true, "\(backlog)")
            try await bob.send("CHATHISTORY LATEST #den * 5")
            let replayed = try await Self.lines(bob, until: "BATCH -")
            #expect(replayed.contains { $0.contains(":ann!~ann@\(cloak) PRIVMSG #den :said before cloaks") })
            #expect(!(backlog + replayed).contains { $0.contains(Self.ann) }, "\(backlog + replayed)")
        }
    }

    @Test func withCloakingOffTheAddressShows() async throws {
        try await withServer {
            $0.cloakHosts = false
        } run: { server in
            #expect(server.server.shownHost(for: Self.ann) == Self.ann)
            let ann = try await Self.user(server, "ann", from: Self.ann)
            let bob = try await TestClient.irc(server, nick: "bob")
            try await ann.send("PRIVMSG bob :hi")
            try await bob.expect(":ann!~ann@\(Self.ann) PRIVMSG bob :hi")
            try await bob.send("WHOIS ann")
            try await bob.expect(" 311 bob ann ~ann \(Self.ann) * :Test ann")
            try await bob.expectNoLine(containing: " 338 ", before: " 318 ")
            #expect(!ann.unread().contains { $0.contains(" 396 ") })
        }
    }
}
