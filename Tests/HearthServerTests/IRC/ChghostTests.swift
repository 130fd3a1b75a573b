import Foundation
import HearthTesting
import Testing

/// `CHGHOST <nick> <host>`: an operator shows a user with another host until it disconnects.
/// Peers with the IRCv3 `chghost` capability see CHGHOST; the others a QUIT and a JOIN again.
@Suite struct ChghostTests {
    static func opers(_ config: inout TestConfig) { config.operators = ["root": "t0p-secret"] }

    static func oper(_ server: TestServer) async throws -> TestClient {
        let oper = try await TestClient.irc(server, nick: "oper")
        try await oper.send("OPER root t0p-secret")
        try await oper.expectNumeric("381")
        return oper
    }

    @Test func peersWithTheCapSeeCHGHOSTAndOthersAQuitAndAJoin() async throws {
        try await withServer(configure: Self.opers) { server in
            let cloak = server.localHost
            let ann = try await TestClient.irc(server, nick: "ann", extra: ["CAP REQ :chghost", "CAP END"])
            let bob = try await TestClient.irc(server, nick: "bob", extra: ["CAP REQ :chghost", "CAP END"])
            let cy = try await TestClient.irc(server, nick: "cy", extra: ["CAP REQ :extended-join", "CAP END"])
            for client in [ann, bob, cy] {
                try await client.send("JOIN #den")
                try await client.expectNumeric("366")
            }
            try await ann.send("JOIN #attic")  // cy is not there: it is not rejoined there
            try await ann.expectNumeric("366")
            try await ann.send("MODE #den +v ann")
            try await cy.expect("MODE #den +v :ann")
            try await bob.expect("MODE #den +v :ann")

            let oper = try await Self.oper(server)
            try await oper.send("CHGHOST ann gran.family")
            try await oper.expect("NOTICE oper :ann's displayed host is now gran.family")
            try await ann.expect(":ann!~ann@\(cloak) CHGHOST ~ann :gran.family")
            try await ann.expect(" 396 ann gran.family :is now your displayed host")
            try await bob.expect(":ann!~ann@\(cloak) CHGHOST ~ann :gran.family")
            try await cy.expect(":ann!~ann@\(cloak) QUIT :Changing hostname")
            try await cy.expect(":ann!~ann@gran.family JOIN #den * :Test ann")
            try await cy.expect(" MODE #den +ov ann :ann")
            try await ann.send("PRIVMSG #den :hi from gran")
            let said = ":ann!~ann@gran.family PRIVMSG #den :hi from gran"
            try await bob.expectNoLine(containing: "QUIT", before: said)
            try await cy.expectNoLine(containing: "#attic", before: said)
            try await bob.send("WHOIS ann")
            try await bob.expect(" 311 bob ann ~ann gran.family * :Test ann")
            try await bob.expectNoLine(containing: " 338 ", before: " 318 ")
            try await oper.send("WHOIS ann")
            try await oper.expect(" 338 oper ann ~ann@127.0.0.1 127.0.0.1 :Actual user@host, Actual IP")

            // Until it disconnects: the next connection shows the cloak again.
            try await ann.send("QUIT")
            try await bob.expect(":ann!~ann@gran.family QUIT")
            let again = try await TestClient.irc(server, nick: "ann")
            try await again.send("WHOIS ann")
            try await again.expect(" 311 ann ann ~ann \(cloak) * :Test ann")
        }
    }

    @Test func onlyOperatorsChangeHosts() async throws {
        try await withServer(configure: Self.opers) { server in
            let ann = try await TestClient.irc(server, nick: "ann")
            let bob = try await TestClient.irc(server, nick: "bob")
            try await bob.send("CHGHOST ann gran.family")
            try await bob.expect(" 481 bob :Permission Denied — you're not an IRC operator")
            try await bob.send("CHGHOST bob gran.family")
            try await bob.expect(" 481 bob ")
            try await ann.send("WHOIS ann")
            try await ann.expect(" 311 ann ann ~ann \(server.localHost) * ")
            let oper = try await Self.oper(server)
            try await oper.send("CHGHOST nobody gran.family")
            try await oper.expect(" 401 oper nobody :No such nick/channel")
        }
    }

    @Test func aBadHostIsRefusedAndChangesNothing() async throws {
        try await withServer(configure: Self.opers) { server in
            let ann = try await TestClient.irc(server, nick: "ann", extra: ["CAP REQ :chghost", "CAP END"])
            let oper = try await Self.oper(server)
            let longest = String(repeating: "a", count: 64)
            let refused = [
                ("gran.family!", "only ASCII letters, digits and . - _ /"),
                ("gr@n", "only ASCII letters, digits and . - _ /"),
                ("grän.family", "only ASCII letters, digits and . - _ /"),
                ("-gran", "starts and ends with a letter or digit"),
                ("gran.", "starts and ends with a letter or digit"),
                ("10.1.2.3", "may not be an IP address"),
                ("fe80::1", "only ASCII letters"),
                (longest + "a", "A host is 1 to 64 bytes long"),
                (":gran family", "only ASCII letters"),
            ]
            for (host, reason) in refused {
                try await oper.send("CHGHOST ann \(host)")
                let line = try await oper.expect("FAIL CHGHOST INVALID_HOST ann :")
                #expect(line.contains(reason), "\(host): \(line)")
            }
            try await ann.send("WHOIS ann")
            try await ann.expectNoLine(containing: "CHGHOST", before: " 311 ann ann ~ann \(server.localHost) * ")
            // 64 bytes is the limit (HOSTLEN).
            try await oper.send("CHGHOST ann \(longest)")
            try await ann.expect("CHGHOST ~ann :\(longest)")
        }
    }

    @Test func bansOnTheNewHostApply() async throws {
        try await withServer(configure: Self.opers) { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            try await op.send("MODE #club +b *!*@gran.family")
            try await op.expect("MODE #club +b :*!*@gran.family")
            let ann = try await TestClient.irc(server, nick: "ann")
            try await ann.send("JOIN #club")
            try await ann.expect(" 366 ann #club")
            try await ann.send("PART #club")
            try await ann.expect("PART :#club")
            let oper = try await Self.oper(server)
            try await oper.send("CHGHOST ann gran.family")
            try await ann.expect(" 396 ann gran.family ")
            try await ann.send("JOIN #club")
            try await ann.expect(" 474 ann #club")
        }
    }
}
