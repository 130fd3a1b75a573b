import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// Always-on accounts: present in their channels, away, while no device is connected; each
/// device gets what it missed when it is back; a restart keeps them.
@Suite struct AlwaysOnTests {
    /// An IRC client logging in with SASL PLAIN as `login` (`ann@phone` names a device).
    static func device(
        _ server: TestServer, nick: String, login: String, caps: [String] = []
    ) async throws -> TestClient {
        try await device(port: server.ircPort, nick: nick, login: login, caps: caps)
    }

    /// The same on the server (or node) listening on `port`.
    static func device(port: Int, nick: String, login: String, caps: [String] = []) async throws -> TestClient {
        let c = try await TestClient.connect(port: port)
        try await c.send("CAP REQ :\((["sasl"] + caps).joined(separator: " "))")
        try await c.send("NICK \(nick)")
        try await c.send("USER \(nick) 0 * :\(nick)")
        try await c.send("AUTHENTICATE PLAIN")
        try await c.expect("AUTHENTICATE +")
        try await c.send("AUTHENTICATE " + Data(("\0" + login + "\0s3cret-pass").utf8).base64EncodedString())
        try await c.expectNumeric("903")
        try await c.send("CAP END")
        try await c.expectNumeric("001")
        return c
    }

    /// A device of `nick`'s account that turns always-on on and joins #den.
    static func alwaysOnInDen(
        _ server: TestServer, nick: String, login: String, caps: [String] = []
    ) async throws -> TestClient {
        try await alwaysOnInDen(port: server.ircPort, nick: nick, login: login, caps: caps)
    }

    static func alwaysOnInDen(port: Int, nick: String, login: String, caps: [String] = []) async throws -> TestClient {
        let device = try await device(port: port, nick: nick, login: login, caps: caps)
        try await device.send("PRIVMSG hearth :set always-on on")
        try await device.expect("always-on is now on")
        try await device.send("JOIN #den")
        try await device.expectNumeric("366")
        return device
    }

    /// bob, a guest in #den with away-notify, watching ann.
    static func watcher(_ server: TestServer) async throws -> TestClient {
        let bob = try await TestClient.irc(
            server, nick: "bob", extra: ["CAP LS 302", "CAP REQ :away-notify", "CAP END"])
        try await bob.send("JOIN #den")
        try await bob.expectNumeric("366")
        return bob
    }

    @Test func anAlwaysOnAccountStaysAwayInItsChannelsAndEachDeviceGetsWhatItMissed() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            try await TestClient.register(server, "cat", "s3cret-pass")
            let laptop = try await Self.alwaysOnInDen(server, nick: "ann", login: "ann@laptop", caps: ["server-time"])
            let bob = try await Self.watcher(server)
            try await laptop.expect("JOIN #den")
            let cat = try await DeviceTests.laptop(server, "cat")

            // The laptop closes: bob sees ann go away, not quit, and she is still in #den.
            await laptop.close()
            let away = try await bob.expect(" AWAY :")
            #expect(away.contains("no device connected"))
            try await bob.send("NAMES #den")
            let names = try await bob.expectNumeric("353")
            #expect(names.contains("ann"), "ann still listed: \(names)")
            try await bob.send("WHOIS ann")
            try await bob.expectNumeric("301")
            try await bob.send("PRIVMSG #den :ann: the soup is ready")
            try await cat.send("PRIVMSG ann :did you see the soup?")
            try await cat.expectNumeric("301")

            // Back on the laptop: in #den at once, with what it missed; bob sees her back, no JOIN.
            let back = try await Self.device(server, nick: "ann", login: "ann@laptop", caps: ["server-time"])
            try await back.expect("JOIN #den")
            try await back.expect("While you were away: 2 lines")
            // Oldest first; bob's line and cat's were sent at once, so either may be first.
            var missed: [String] = []
            while let line = await back.next(where: { _ in true }), !line.contains("End of what you missed.") {
                missed.append(line)
            }
            let soup = missed.first { $0.contains(" PRIVMSG #den :ann: the soup is ready") }
            #expect(soup?.hasPrefix("@time=") == true, "\(missed)")
            #expect(
                missed.contains { $0.contains(" :cat!~cat@") && $0.hasSuffix(" PRIVMSG ann :did you see the soup?") })
            let backAway = try await bob.expect(" AWAY")
            #expect(backAway.hasSuffix(" AWAY"), "back: \(backAway)")
            try await DeviceTests.nothing(bob, containing: "JOIN")

            // A device never seen before gets nothing replayed; its name must be a plain word.
            let phone = try await Self.device(server, nick: "ann", login: "ann@phone")
            try await phone.expect("JOIN #den")
            try await DeviceTests.nothing(phone, containing: "While you were away")
            let c = try await server.connect()
            try await c.send("CAP REQ :sasl")
            try await c.send("NICK ann")
            try await c.send("USER ann 0 * :ann")
            try await c.send("AUTHENTICATE PLAIN")
            try await c.expect("AUTHENTICATE +")
            let long = String(repeating: "p", count: 33)
            try await c.send("AUTHENTICATE " + Data("\0ann@\(long)\0s3cret-pass".utf8).base64EncodedString())
            try await c.expect("904 ann :SASL authentication failed: a device's name (after @) is 1 to 32")
        }
    }

    @Test func aPlainUserHearsWhatItMissedAndTurningItOffQuits() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let nc = try await TestClient.plain(server)
            try await nc.send("!login ann s3cret-pass")
            try await nc.expect("You are logged in as ann.")
            try await nc.send("!set always-on on")
            try await nc.expect("always-on is now on")
            try await nc.send("/join #den")
            try await nc.expect("You joined #den.")
            let bob = try await Self.watcher(server)
            try await nc.send("/quit")
            try await bob.expect(" AWAY :")
            try await bob.send("PRIVMSG #den :welcome back soon")

            let again = try await TestClient.plain(server)
            try await again.send("!login ann s3cret-pass")
            try await again.expect("While you were away: 1 line")
            try await again.expect("<bob> welcome back soon")
            try await again.expect("End of what you missed.")

            // Turned off with no device connected: the stand-in quits for real.
            try await again.send("!set always-on off")
            try await again.expect("always-on is now off")
            try await again.send("/quit")
            try await bob.expect("QUIT")
        }
    }

    @Test func aReplayStopsAtItsLimitAndSaysSo() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let laptop = try await Self.alwaysOnInDen(server, nick: "ann", login: "ann@laptop")
            let bob = try await Self.watcher(server)
            await laptop.close()
            try await bob.expect(" AWAY :")
            let limit = Core.maxReplayedLines
            for n in 1...limit + 1 { try await bob.send("PRIVMSG #den :line \(n)") }
            try await bob.send("PING done")
            try await bob.expect("PONG")
            let back = try await Self.device(server, nick: "ann", login: "ann@laptop")
            // A thousand lines written and read back: slow on a loaded machine, so wait longer.
            try await back.expect(
                "While you were away: \(limit) lines (the last \(limit); CHATHISTORY has earlier ones)", timeout: 90)
            let first = try await back.expect(" PRIVMSG #den :line ")
            #expect(first.hasSuffix(" :line 2"), "the oldest beyond the limit is left out: \(first)")
            try await back.expect(" PRIVMSG #den :line \(limit + 1)")
            try await back.expect("End of what you missed.")
        }
    }

    @Test func theOperatorsDefaultKeepsAccountsThatChoseNothing() async throws {
        try await withServer {
            $0.alwaysOn = true
        } run: { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let laptop = try await DeviceTests.laptop(server, "ann")
            try await laptop.send("JOIN #den")
            try await laptop.expectNumeric("366")
            let bob = try await Self.watcher(server)
            try await laptop.send("QUIT")
            try await bob.expect(" AWAY :")
            try await DeviceTests.nothing(bob, containing: "QUIT")
        }
    }

    @Test func aRestartBringsTheAlwaysOnAccountBackIntoItsChannels() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        try await TestClient.register(server, "ann", "s3cret-pass")
        let laptop = try await Self.alwaysOnInDen(server, nick: "ann", login: "ann@laptop")
        let bob = try await Self.watcher(server)
        await laptop.close()
        try await bob.expect(" AWAY :")
        await bob.close()
        await server.stop()

        try await withServer(dataDirectory: dir) { restarted in
            server = restarted
            let bob = try await Self.watcher(server)
            try await bob.send("NAMES #den")
            let names = try await bob.expectNumeric("353")
            #expect(names.contains("ann"), "ann is in #den after the restart: \(names)")
            try await bob.send("WHOIS ann")
            try await bob.expectNumeric("301")
            try await bob.send("PRIVMSG #den :said after the restart")
            let back = try await Self.device(server, nick: "ann", login: "ann@laptop")
            try await back.expect("JOIN #den")
            try await back.expect("While you were away: 1 line")
            try await back.expect("PRIVMSG #den :said after the restart")
        }
    }

    /// A device still connected when the server stops: its stand-in is written before the store
    /// closes, so the account is in its channel after the restart.
    @Test func anAccountConnectedAtTheStopIsBackAfterTheRestart() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        try await TestClient.register(server, "ann", "s3cret-pass")
        let laptop = try await Self.alwaysOnInDen(server, nick: "ann", login: "ann@laptop")
        await server.stop()
        await laptop.close()

        try await withServer(dataDirectory: dir) { restarted in
            server = restarted
            let bob = try await Self.watcher(server)
            try await bob.send("NAMES #den")
            let names = try await bob.expectNumeric("353")
            #expect(names.contains("ann"), "ann is in #den after the restart: \(names)")
        }
    }

    /// A server ban ends an always-on account for good: no stand-in for a device banned while
    /// connected, and a stand-in already away quits.
    @Test func aServerBanLeavesNoStandIn() async throws {
        try await withServer(configure: ChghostTests.opers) { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            try await TestClient.register(server, "cal", "s3cret-pass")
            let bob = try await Self.watcher(server)
            let oper = try await ServerBanTests.oper(server)
            // cal is away (a stand-in) when the ban comes.
            let cal = try await Self.alwaysOnInDen(server, nick: "cal", login: "cal")
            await cal.close()
            try await bob.expect("cal!") { $0.contains(" AWAY :") }
            try await oper.send("UBAN ADD cal spam")
            try await bob.expect("QUIT") { $0.hasPrefix(":cal!") && $0.contains(" QUIT ") }
            // ann is connected when the ban comes.
            _ = try await Self.alwaysOnInDen(server, nick: "ann", login: "ann")
            try await oper.send("UBAN ADD ann spam")
            let gone = try await bob.expect("ann leaving") { $0.hasPrefix(":ann!") && !$0.contains(" JOIN ") }
            #expect(gone.contains(" QUIT "), "\(gone)")
            try await bob.send("NAMES #den")
            let names = try await bob.expectNumeric("353")
            #expect(!names.contains("ann") && !names.contains("cal"), "\(names)")
        }
    }
}
