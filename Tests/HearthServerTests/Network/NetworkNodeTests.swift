import Foundation
import HearthProtocol
import HearthStore
import HearthTesting
import Logging
import Synchronization
import Testing

@testable import HearthServer

/// The node's listener in-process, over a bus that delivers what a test gives it.
@Suite struct NetworkNodeTests {
    /// A bus with no database: it listens, then delivers `deliveries`; what the node publishes
    /// is kept.
    final class FakeBus: NetworkStore {
        let deliveries: [NetworkDelivery]
        let published = Mutex<[[UInt8]]>([])
        init(_ deliveries: [NetworkDelivery]) { self.deliveries = deliveries }

        func joinNetwork(node: String) async throws -> [NetworkNick] { [] }
        func leaveNetwork(node: String) async throws {}
        func heartbeat(node: String, users: Int, reap: Bool) async throws -> Heartbeat { Heartbeat() }
        func nodes() async throws -> [NodeInfo] { [] }
        func claimNick(_ claim: NetworkNick) async throws -> Bool { true }
        func releaseNick(_ nickKey: String, node: String, session: Int) async throws {}
        func claimChannel(_ channelKey: String, historyKey: String) async throws -> ChannelClaim {
            ChannelClaim(historyKey: historyKey, created: true)
        }
        func releaseChannel(_ channelKey: String, historyKey: String) async throws {}
        func networkNicks() async throws -> [NetworkNick] { [] }
        func sweepNicks(node: String, live: [NetworkNick], below: Int) async throws -> [NetworkNick] { [] }
        func publish(_ events: [[UInt8]], from node: String) async throws { published.withLock { $0 += events } }
        func events(from node: String, after id: Int64) async throws -> [NetworkDelivery] { [] }
        func subscribe(ignoring node: String) -> AsyncThrowingStream<NetworkDelivery, any Error> {
            // Stays open after the last delivery, as a bus does.
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: NetworkDelivery.self)
            for delivery in [.listening] + deliveries { continuation.yield(delivery) }
            return stream
        }
    }

    /// What the node handed the core.
    enum Seen: Equatable {
        case applied(NetworkMessage)
        case refused(String)
    }

    /// A node of another version (or a broken one) sends what this node cannot read: each is
    /// refused with its reason (logged, and counted by the core), and the events after it still
    /// apply.
    @Test(.timeLimit(.minutes(1))) func unreadableEventsAreRefusedAndCountedNotDropped() async throws {
        let quit = NetworkEnvelope(from: "b", message: .quit(NetworkUser(node: "b", session: 3), reason: "bye"))
        let payloads = [
            "not json", #"{"v":1,"kind":"teleport","from":"b","node":"b","session":3}"#,
            #"{"v":2,"kind":"quit","from":"b","future":{}}"#,
            #"{"kind":"join","from":"b","node":"b","session":3,"op":true,"history":"h"}"#, try quit.json(),
        ]
        let got = await Self.receive(payloads, logger: Logger(label: "test"))
        #expect(
            got == [
                .refused("malformed"), .refused("unknown_kind"), .refused("unsupported_version"),
                .refused("malformed"), .applied(quit.message),
            ])
    }

    static func receive(_ payloads: [String], logger: Logger) async -> [Seen] {
        await receive(payloads.map { Array($0.utf8) }, logger: logger)
    }

    /// Runs a node "a" over `payloads` from node "b" until it has handled them all.
    static func receive(_ payloads: [[UInt8]], logger: Logger) async -> [Seen] {
        let bus = FakeBus(
            payloads.enumerated().map { NetworkDelivery(id: Int64($0.offset + 1), node: "b", payload: $0.element) })
        let node = NetworkNode(name: "a", serverName: "a.hearth", store: bus, logger: logger)
        let (seen, record) = AsyncStream.makeStream(of: Seen.self)
        node.setHandlers(
            NetworkNode.Handlers(
                apply: { record.yield(.applied($0)) }, announce: { [] }, mirrored: { [] }, localUsers: { 0 },
                refused: { record.yield(.refused($0)) }))
        let running = Task { await node.run() }
        defer { running.cancel() }
        var got: [Seen] = []
        for await event in seen {
            got.append(event)
            if got.count == payloads.count { break }
        }
        return got
    }

    /// A client may send 4094 bytes of tags; its node adds time, msgid and account to them, and
    /// the other nodes read the line with the relayed limit, so it arrives.
    @Test(.timeLimit(.minutes(1))) func aLineWithAFullClientTagSectionCrossesNodes() async throws {
        let client = IRCTag("+draft/reply", String(repeating: "r", count: IRCLimits.maxClientTagBytes - 13))
        let line = IRCMessage(
            tags: [
                client, IRCTag("time", "2026-11-27T05:00:00.000Z"), IRCTag("msgid", "m1"), IRCTag("account", "ann"),
            ],
            source: "ann!ann@h", command: "PRIVMSG", params: ["#tea", "hello"])
        // The client's part alone is within the client's limit.
        let sent = IRCMessage(tags: [client], command: "PRIVMSG", params: ["#t", "x"]).serialized()
        #expect(try IRCMessage.parse(sent).tags == [client])
        let message = NetworkMessage.message(NetworkUser(node: "b", session: 3), target: "#tea", line: line)
        let got = await Self.receive(
            [try NetworkEnvelope(from: "b", message: message).encoded()], logger: Logger(label: "test"))
        #expect(got == [.applied(message)])
    }

    /// A refused event is logged by its id, node and reason: never what was said in it (a
    /// line's text, a channel's key, a bot answer, a field's value).
    @Test(.timeLimit(.minutes(1))) func aRefusedEventIsLoggedWithoutWhatItSaid() async throws {
        let head = #""from":"b","node":"b","session":3"#
        let long = String(repeating: "secret words ", count: 50)
        let payloads = [
            "{\"kind\":\"message\",\(head),\"target\":\"#t\",\"line\":\"PRIVMSG #t :\(long)\"}",
            "{\"kind\":\"channel\",\(head),\"target\":\"#t\",\"line\":\"+ko sesame-key ann\"}",
            "{\"kind\":\"effect\",\(head),\"line\":\"{\\\"remind\\\":{\\\"text\\\":\\\"secret words\\\"}}\"}",
            "{\"kind\":\"quit\",\"from\":\"b\",\"node\":\"b\",\"session\":3,\"text\":[\"secret words\"]}",
            "{\"kind\":\"quit\",\"from\":\"b\",\"node\":\"b\",\"session\":3,\"text\":\"secret words",
        ]
        let logs = LogCapture()
        let logger = Logger(label: "test") { _ in LogCapture.Handler(capture: logs) }
        let got = await Self.receive(payloads, logger: logger)
        #expect(got == Array(repeating: .refused("malformed"), count: payloads.count))
        for id in 1...payloads.count { #expect(logs.text.contains("refused event \(id) of b"), "\(logs.text)") }
        #expect(!logs.text.contains("secret") && !logs.text.contains("sesame"), "\(logs.text)")
    }

    /// The counter the core counts them in, per reason, as /metrics shows it.
    @Test func refusedEventsAreCountedPerReason() {
        let metrics = ServerMetrics()
        metrics.networkEventRefused(reason: "unknown_kind")
        metrics.networkEventRefused(reason: "unknown_kind")
        metrics.networkEventRefused(reason: "malformed")
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"hearth_network_events_refused_total{reason="unknown_kind"} 2"#), "\(text)")
        #expect(text.contains(#"hearth_network_events_refused_total{reason="malformed"} 1"#))
    }
}
