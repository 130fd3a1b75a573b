import Foundation
import GRDB
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import HearthTesting
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import HearthApps
@testable import HearthMedia
@testable import HearthServer

/// Connections, SASL, history and flood control at their limits.
extension LimitCrossingTests {
    /// The default connections per address (LimitTests crosses a configured value).
    @Test func connectionsPerAddressAtTheDefaultLimitAndOnePast() async throws {
        // loopback is exempt otherwise
        try await withServer {
            $0.floodControl = true
        } run: { server in
            var held: [TestClient] = []
            for _ in 0..<IRCLimits.connectionsPerAddress { held.append(try await server.connect()) }
            try await held.last!.sync()  // the last one at the limit is served
            let refused = try await server.connect()
            try await refused.expect(
                "ERROR :Closing Link: 127.0.0.1 (Too many connections from your address: the limit is "
                    + "\(IRCLimits.connectionsPerAddress))"
            )
            try await held.last!.sync()  // and still is
            await held[0].close()
            var again: TestClient?
            for _ in 0..<100 where again == nil {
                try await Task.sleep(for: .milliseconds(20))
                let c = try await server.connect()
                try await c.send("PING room")
                let line = try await c.expect("PONG or ERROR") { $0.contains("PONG") || $0.contains("ERROR") }
                if line.contains("PONG") { again = c }
            }
            #expect(again != nil)
            for c in held { await c.close() }
        }
    }

    @Test func saslPayloadAtItsLimitIsReadAndOnePastIsRefused() async throws {
        try await withServer { server in
            try await TestClient.register(server, "sam", "s3cret-pass")
            let c = try await Self.saslClient(server, "sam")
            // Valid base64 without the NUL separators of PLAIN: read whole, then refused for its content.
            let atLimit = String(repeating: "QUFB", count: Core.maxSASLBytes / 4)
            #expect(atLimit.utf8.count == Core.maxSASLBytes)
            try await Self.authenticate(c, atLimit)
            let first = try await c.expect("a SASL failure") { $0.contains(" 904 ") || $0.contains(" 905 ") }
            #expect(first.contains(" 904 ") && first.contains("malformed PLAIN message"), "\(first)")
            try await Self.authenticate(c, atLimit + "Q")
            try await c.expect(" 904 sam :SASL authentication failed: the message is too long")
            // One line longer than a chunk is refused as such.
            try await c.send("AUTHENTICATE PLAIN")
            try await c.expect("AUTHENTICATE +")
            try await c.send("AUTHENTICATE " + String(repeating: "QUFB", count: 101))
            try await c.expect(" 905 sam :SASL message too long")
            // The connection lives on and can still log in.
            try await Self.authenticate(c, IRCProtocolTests.plainAuth("sam", "s3cret-pass"))
            try await c.expectNumeric("903")
            try await c.send("CAP END")
            try await c.expectNumeric("001")
        }
    }

    @Test func chathistoryReturnsAtMostItsLimit() async throws {
        try await withServer { server in
            let ava = try await IRCv3Tests.client(server, "ava", caps: ChathistoryTests.caps)
            try await ava.send("JOIN #h")
            try await ava.expectNumeric("366")
            let total = Core.chathistoryLimit + 1
            for i in 1...total { try await ava.send("PRIVMSG #h :m\(i)") }
            try await ava.sync()
            var latest: [String] = []
            for _ in 0..<100 {
                try await ava.send("CHATHISTORY LATEST #h * \(Core.chathistoryLimit)")
                latest = try await ChathistoryTests.batch(ava)
                if latest.last?.hasSuffix(":m\(total)") == true { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(latest.count == Core.chathistoryLimit && latest.first?.hasSuffix(":m2") == true)
            // Asking for one more gets the same: the oldest line is not sent.
            try await ava.send("CHATHISTORY LATEST #h * \(total)")
            let capped = try await ChathistoryTests.batch(ava)
            #expect(capped.count == Core.chathistoryLimit && capped.first?.hasSuffix(":m2") == true)
            #expect(!capped.contains { $0.hasSuffix(":m1") })
        }
    }

    enum FloodTier: String, CaseIterable, Sendable { case unregistered, registered, bot }

    /// Each tier's burst goes through at once; the line after it waits for one token's time
    /// (1/rate) and is answered, not dropped. Unregistered is the strictest tier, bot accounts
    /// (`!set bot on`) the loosest, and still capped. On a server clock that stands still, moved
    /// by the test: buckets refill only when it moves (on the wall clock, a loaded machine could
    /// not send a bot's burst of 40 within the 0.1 s that tells it from a refill).
    @Test(arguments: FloodTier.allCases)
    func floodControlLetsTheBurstThroughAndMakesTheNextLineWait(tier: FloodTier) async throws {
        let clock = TestClock()
        try await withServer {
            $0.floodControl = true
            $0.clock = clock.hearth
        } run: { server in
            let burst: Double
            let rate: Double
            let client: TestClient
            switch tier {
            case .unregistered:
                (burst, rate) = (FloodTiers.standard.unregisteredBurst, FloodTiers.standard.unregisteredRate)
                client = try await server.connect()
            case .registered:
                (burst, rate) = (FloodTiers.standard.burst, FloodTiers.standard.rate)
                client = try await TestClient.irc(server, nick: "reg")
            case .bot:
                (burst, rate) = (FloodTiers.standard.botBurst, FloodTiers.standard.botRate)
                client = try await TestClient.irc(server, nick: "robo")
                try await client.send("PRIVMSG hearth :register robo s3cret-pass")
                try await client.expect("Welcome to Hearth, robo!")
                try await client.send("PRIVMSG hearth :set bot on")
                try await client.expect(":robo!~robo@\(server.localHost) MODE robo :+B")
            }
            // A full bucket: registering took tokens.
            clock.advance(burst / rate)
            let tokens = (1...(Int(burst) + 1)).map { "t\($0)" }
            try await client.sendRaw(Array(tokens.map { "PING \($0)\r\n" }.joined().utf8))
            for token in tokens.dropLast() {
                try await client.expect("PONG \(token)") { $0.hasSuffix(" PONG test.hearth :\(token)") }
            }
            // The line after the burst waits while the clock stands still, and is answered once
            // a token's time has passed.
            let last = try #require(tokens.last)
            #expect(!client.unread().contains { $0.hasSuffix(":\(last)") }, "\(tier): answered before its token")
            clock.advance(1 / rate + 0.001)  // a hair more: the ticks come from a Date, to ~0.2 µs
            try await client.expect("PONG \(last)") { $0.hasSuffix(" PONG test.hearth :\(last)") }
        }
    }
}
