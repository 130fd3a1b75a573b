import Foundation
import HearthStore
import HearthTesting
import Testing

@testable import HearthServer

/// How a device finds its always-on account: a device named in a SCRAM login as in a PLAIN one,
/// and one presence per account whatever nick a device asks for (Ergo's rule: an always-on
/// account's nick is its name).
@Suite struct AlwaysOnLoginTests {
    /// A device logging in with SCRAM-SHA-256 as `login` (`ann@phone`), registered.
    static func scramDevice(_ server: TestServer, nick: String, login: String) async throws -> TestClient {
        let c = try await ScramTests.connect(server, nick: nick)
        #expect(try await ScramTests.login(c, ScramTests.Client(user: login, password: "s3cret-pass")))
        try await c.send("CAP END")
        try await c.expectNumeric("001")
        return c
    }

    @Test func aScramLoginNamesADeviceThatGetsWhatItMissed() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let laptop = try await AlwaysOnTests.alwaysOnInDen(server, nick: "ann", login: "ann@laptop")
            let bob = try await AlwaysOnTests.watcher(server)
            try await laptop.expect("JOIN #den")

            // The phone joins ann where she is; then everyone leaves and bob speaks.
            let phone = try await Self.scramDevice(server, nick: "ann", login: "ann@phone")
            try await phone.expect("JOIN #den")
            await phone.close()
            await laptop.close()
            try await bob.expect(" AWAY :")
            try await bob.send("PRIVMSG #den :for the phone")

            // Only what it missed, and as ann's own device: bob sees no second ann.
            let back = try await Self.scramDevice(server, nick: "someone", login: "ann@phone")
            // The stand-in is a user but no connection: LUSERS counts no unknown one (it said -1).
            #expect(try await back.expectNumeric("253").contains(" 0 :unknown connection(s)"))
            #expect(try await back.expectNumeric("255").contains("I have 2 clients"))
            try await back.expect("JOIN #den")
            try await back.expect("While you were away: 1 line")
            try await back.expect("PRIVMSG #den :for the phone")
            try await DeviceTests.nothing(bob, containing: "JOIN")

            // A bad device name fails as with PLAIN.
            let c = try await ScramTests.connect(server, nick: "eve")
            let bad = ScramTests.Client(user: "ann@" + String(repeating: "p", count: 33), password: "s3cret-pass")
            try await c.send("AUTHENTICATE SCRAM-SHA-256")
            try await c.expect("AUTHENTICATE +")
            try await c.send("AUTHENTICATE \(ScramTests.b64(bad.first))")
            try await c.expect("904 eve :SASL authentication failed: a device's name (after @) is 1 to 32")
        }
    }

    /// SASL EXTERNAL's authzid may name the device too (`ann@tablet`, or `@tablet`).
    @Test func anExternalLoginNamesADeviceThatGetsWhatItMissed() async throws {
        let (started, port) = try await TLSTests.tlsServer()
        try await stopping(started) { server async throws in
            let (withCertificate, fingerprint) = try await SaslExternalTests.clientCertificate()
            try await TestClient.register(server, "ann", "s3cret-pass")
            let laptop = try await AlwaysOnTests.alwaysOnInDen(server, nick: "ann", login: "ann@laptop")
            try await laptop.send("PRIVMSG hearth :!cert add \(fingerprint)")
            try await laptop.expect("Added \(fingerprint)")
            let bob = try await AlwaysOnTests.watcher(server)

            func tablet(_ authzid: String) async throws -> TestClient {
                let c = try await TestClient.connectTLS(port: port, configure: withCertificate)
                let named = Data(authzid.utf8).base64EncodedString()
                #expect(try await SaslExternalTests.external(c, authzid: named).contains(" 903 "))
                try await c.send("NICK tab")
                try await c.send("USER tab 0 * :Tab")
                try await c.send("CAP END")
                try await c.expectNumeric("001")
                return c
            }
            let first = try await tablet("ann@tablet")
            try await first.expect("JOIN #den")
            await first.close()
            await laptop.close()
            try await bob.expect(" AWAY :")
            try await bob.send("PRIVMSG #den :for the tablet")
            let back = try await tablet("@tablet")
            try await back.expect("While you were away: 1 line")
            try await back.expect("PRIVMSG #den :for the tablet")

            let bad = try await TestClient.connectTLS(port: port, configure: withCertificate)
            let long = Data("ann@\(String(repeating: "t", count: 33))".utf8).base64EncodedString()
            #expect(try await SaslExternalTests.external(bad, authzid: long).contains("a device's name (after @)"))
        }
    }

    @Test func anAlwaysOnAccountKeepsItsNameAsItsNick() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let laptop = try await AlwaysOnTests.device(server, nick: "ann", login: "ann@laptop")
            // Off, another nick is fine; turning it on brings the account's name back.
            try await laptop.send("NICK annie")
            try await laptop.expect(" NICK annie")
            try await laptop.send("PRIVMSG hearth :set always-on on")
            try await laptop.expect(":annie!") { $0.hasSuffix(" NICK ann") }
            try await laptop.expect("always-on is now on")
            try await laptop.send("NICK annie")
            try await laptop.expect(" 400 ann NICK :You must use your account name as your nickname")
            try await laptop.send("NICK ANN")
            try await laptop.expect(" NICK ANN")
        }
    }

    /// A presence kept under another nick (from before the rule) is where a device lands, not a
    /// second ann beside it.
    @Test func aDeviceJoinsAPresenceKeptUnderAnotherNick() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        try await TestClient.register(server, "ann", "s3cret-pass")
        let laptop = try await AlwaysOnTests.alwaysOnInDen(server, nick: "ann", login: "ann@laptop")
        let bob = try await AlwaysOnTests.watcher(server)
        await laptop.close()
        try await bob.expect(" AWAY :")
        await bob.close()
        await server.server.core.presenceWrites.drain()
        let store = server.server.store
        let kept = try #require(try await store.alwaysOnPresences().first?.presence)
        var renamed = kept
        renamed.nick = "annie"
        try await store.keepAlwaysOnPresence(renamed)
        await server.stop()

        try await withServer(dataDirectory: dir) { restarted in
            server = restarted
            let bob = try await AlwaysOnTests.watcher(server)
            let back = try await AlwaysOnTests.device(server, nick: "ann", login: "ann@laptop")
            try await back.expect("JOIN #den") { $0.hasPrefix(":annie!") && $0.contains(" JOIN #den") }
            try await bob.expect(":annie!") { $0.hasSuffix(" AWAY") }
            try await DeviceTests.nothing(bob, containing: "JOIN")
            try await bob.send("NAMES #den")
            let names = try await bob.expectNumeric("353")
            #expect(names.contains("annie") && !names.contains(" ann ") && !names.hasSuffix(" ann"), "\(names)")
            // Its own name is still the way back to Ergo's rule.
            try await back.send("NICK ann")
            try await bob.expect(":annie!") { $0.hasSuffix(" NICK ann") }
        }
    }
}
