import Foundation
import HearthTesting
import Testing

/// Server bans (Ergo's UBAN, and KLINE/DLINE): operators ban an account, an address or a
/// network, or a mask, with a reason and maybe an end. A ban ends the connections it matches,
/// refuses new ones and logins, and is kept in the store.
@Suite struct ServerBanTests {
    static func oper(_ server: TestServer, nick: String = "oper") async throws -> TestClient {
        let oper = try await TestClient.irc(server, nick: nick)
        try await oper.send("OPER root t0p-secret")
        try await oper.expectNumeric("381")
        return oper
    }

    static func plainAuth(_ name: String, _ secret: String) -> String {
        Data(("\0" + name + "\0" + secret).utf8).base64EncodedString()
    }

    @Test func anAccountBanEndsItsConnectionsAndRefusesItsLogins() async throws {
        try await withServer(configure: ChghostTests.opers) { server in
            try await TestClient.register(server, "mal", "s3cret-pass")
            let mal = try await TestClient.irc(server, nick: "mal", extra: ["PASS mal:s3cret-pass"])
            let bob = try await TestClient.irc(server, nick: "bob")
            try await bob.send("UBAN ADD mal")
            try await bob.expect(" 481 bob :Permission Denied")

            let oper = try await Self.oper(server)
            try await oper.send("UBAN ADD mal DURATION 1h posting spam links")
            try await oper.expect("NOTICE oper :Banned mal (account) — posting spam links (set by oper at ")
            try await mal.expect(" 465 mal :You are banned from this server: posting spam links")
            try await mal.expect("ERROR :Closing Link: ")
            try await mal.expectClosed()

            // SASL is refused with the reason; PASS gets in no further than the ban.
            let sasl = try await server.connect()
            for line in ["CAP REQ :sasl", "NICK mal", "USER mal 0 * :Mal", "AUTHENTICATE PLAIN"] {
                try await sasl.send(line)
            }
            try await sasl.expect("AUTHENTICATE +")
            try await sasl.send("AUTHENTICATE \(Self.plainAuth("mal", "s3cret-pass"))")
            try await sasl.expect(" 904 mal :SASL authentication failed: mal is banned from this server: posting spam")
            let pass = try await server.connect()
            for line in ["PASS mal:s3cret-pass", "NICK mal2", "USER mal 0 * :Mal"] { try await pass.send(line) }
            try await pass.expect(" 465 ")
            try await pass.expectClosed()
            // !login from a plain connection too.
            let nc = try await TestClient.plain(server)
            try await nc.send("!login mal s3cret-pass")
            try await nc.expect("mal is banned from this server: posting spam links")

            try await oper.send("UBAN LIST")
            try await oper.expect("NOTICE oper :mal (account) — posting spam links (set by oper at ")
            try await oper.expect("NOTICE oper :1 server ban")
            try await oper.send("UBAN INFO MAL")
            try await oper.expect("NOTICE oper :mal (account) — posting spam links")
            try await oper.send("UBAN DEL mal")
            try await oper.expect("NOTICE oper :Removed the ban on mal")
            try await oper.send("UBAN DEL mal")
            try await oper.expect("NOTICE oper :No ban on mal")
            let back = try await TestClient.irc(server, nick: "mal3", extra: ["PASS mal:s3cret-pass"])
            try await back.send("WHOIS mal3")
            try await back.expect(" 330 mal3 mal3 mal ")
        }
    }

    @Test func anAddressOrNetworkBanEndsWhoMatchesButTheOperator() async throws {
        try await withServer(configure: ChghostTests.opers) { server in
            let bob = try await TestClient.irc(server, nick: "bob")
            let oper = try await Self.oper(server)
            // An IPv6 network matches nobody here (everyone is on 127.0.0.1).
            try await oper.send("DLINE 2001:db8::/32 :documentation")
            try await oper.expect("NOTICE oper :Banned 2001:db8:0:0:0:0:0:0/32 (address)")
            try await oper.send("KLINE 10m 127.0.0.0/8 :loopback flood")
            try await oper.expect("NOTICE oper :Banned 127.0.0.0/8 (address) — loopback flood")
            try await bob.expect(" 465 bob :You are banned from this server: loopback flood")
            try await bob.expectClosed()
            let again = try await server.connect()
            for line in ["NICK bob", "USER bob 0 * :Bob"] { try await again.send(line) }
            try await again.expect(" 465 ")
            try await again.expectNoLine(containing: " 001 ", before: "ERROR :Closing Link")
            try await again.expectClosed()
            try await oper.send("UNDLINE 127.0.0.1/8")
            try await oper.expect("NOTICE oper :Removed the ban on 127.0.0.0/8")
            _ = try await TestClient.irc(server, nick: "bob")
        }
    }

    @Test func aMaskBanMatchesTheRealAddressAndExpires() async throws {
        let clock = TestClock(Date().formatted(.iso8601))
        try await withServer {
            ChghostTests.opers(&$0)
            $0.clock = clock.hearth
        } run: { server in
            let oper = try await Self.oper(server)
            try await oper.send("UBAN ADD eve*!*@127.0.0.1 DURATION 30m")
            try await oper.expect("NOTICE oper :Banned eve*!*@127.0.0.1 (mask) — No reason given")
            let eve = try await server.connect()
            for line in ["NICK eve2", "USER eve 0 * :Eve"] { try await eve.send(line) }
            try await eve.expect(" 465 eve2 :You are banned from this server: No reason given")
            try await eve.expectClosed()
            clock.set(clock.now.addingTimeInterval(1800).formatted(.iso8601))
            _ = try await TestClient.irc(server, nick: "eve2")
            try await oper.send("UBAN LIST")
            try await oper.expect("NOTICE oper :0 server bans")
        }
    }

    @Test func badBansAreRefusedAndChangeNothing() async throws {
        try await withServer(configure: ChghostTests.opers) { server in
            let oper = try await Self.oper(server)
            try await oper.send("UBAN ADD 300.1.1.1/8")
            try await oper.expect("FAIL UBAN INVALID_TARGET :300.1.1.1/8 is not an address")
            try await oper.send("UBAN ADD 10.0.0.0/33")
            try await oper.expect("FAIL UBAN INVALID_TARGET")
            try await oper.send("UBAN ADD mal DURATION 367d")
            try await oper.expect("FAIL UBAN INVALID_DURATION :A duration is like 30m, 2h, 7d or 1h30m, at most 366d")
            try await oper.send("UBAN ADD mal DURATION 366d")
            try await oper.expect("NOTICE oper :Banned mal (account)")
            try await oper.send("UBAN ADD mal DURATION 1x")
            try await oper.expect("FAIL UBAN INVALID_DURATION")
            try await oper.send("UBAN ADD bob :" + String(repeating: "r", count: 301))
            try await oper.expect("FAIL UBAN INVALID_REASON :A reason is at most 300 characters")
            try await oper.send("UBAN ADD bob " + String(repeating: "r", count: 300))
            try await oper.expect("NOTICE oper :Banned bob (account)")
            try await oper.send("UBAN ADD 10.0.0.0/8 REQUIRE-SASL")
            try await oper.expect("FAIL UBAN UNSUPPORTED")
            try await oper.send("UBAN FROB")
            try await oper.expect("FAIL UBAN UNKNOWN_COMMAND")
            try await oper.send("UBAN LIST")
            try await oper.expect("NOTICE oper :2 server bans")
        }
    }

    /// Kept in the store: a restart keeps the ban.
    @Test func aBanSurvivesARestart() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir, configure: ChghostTests.opers)
        let oper = try await Self.oper(server)
        try await oper.send("UBAN ADD troll!*@* :trolling")
        try await oper.expect("NOTICE oper :Banned troll!*@* (mask)")
        await oper.close()
        await server.stop()
        server = try await TestServer.start(dataDirectory: dir, configure: ChghostTests.opers)
        let troll = try await server.connect()
        for line in ["NICK troll", "USER t 0 * :T"] { try await troll.send(line) }
        try await troll.expect(" 465 troll :You are banned from this server: trolling")
        await server.stop()
    }
}
