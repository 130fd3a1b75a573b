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

    /// Notes when each PONG arrives, on the client's event loop, before the test reads it.
    final class PongClock: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        let arrivals = NIOLockedValueBox<[String: Date]>([:])
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let line = String(buffer: unwrapInboundIn(data))
            if let range = line.range(of: " PONG test.hearth :") {
                let token = line[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
                let now = Date()
                arrivals.withLockedValue { if $0[token] == nil { $0[token] = now } }
            }
            context.fireChannelRead(data)
        }
    }

    enum FloodTier: String, CaseIterable, Sendable { case unregistered, registered, bot }

    /// Each tier's burst goes through at once; the line after it waits at least one token's
    /// time (1/rate) and is answered, not dropped. Unregistered is the strictest tier, bot
    /// accounts (`!set bot on`) the loosest, and still capped.
    @Test(arguments: FloodTier.allCases)
    func floodControlLetsTheBurstThroughAndMakesTheNextLineWait(tier: FloodTier) async throws {
        try await withServer {
            $0.floodControl = true
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
            let clock = PongClock()
            try await client.channel.pipeline.addHandler(clock, position: .before(client.inbox)).get()
            let count = Int(burst) + 1
            let tokenTime = 1 / rate
            // The burst going through at once is a matter of timing: on a machine too busy to tell,
            // try again after the bucket has refilled. The line after the burst must always wait.
            for attempt in 1...3 {
                // A full bucket: registering took tokens (and so did the previous attempt).
                if tier != .unregistered || attempt > 1 { try await Task.sleep(for: .seconds(burst / rate + 0.3)) }
                let tokens = (1...count).map { "t\(attempt)-\($0)" }
                let sent = Date()
                try await client.sendRaw(Array(tokens.map { "PING \($0)\r\n" }.joined().utf8))
                for token in tokens {
                    try await client.expect("PONG \(token)") { $0.hasSuffix(" PONG test.hearth :\(token)") }
                }
                let times = try clock.arrivals.withLockedValue { state in
                    try tokens.map { try #require(state[$0]).timeIntervalSince(sent) }
                }
                #expect(
                    times[count - 1] >= tokenTime - 0.005,
                    "\(tier): line \(count) was answered after \(times[count - 1]) s")
                if times[count - 2] < tokenTime { return }
            }
            Issue.record("\(tier): the burst of \(Int(burst)) lines never went through within \(tokenTime) s")
        }
    }
}
