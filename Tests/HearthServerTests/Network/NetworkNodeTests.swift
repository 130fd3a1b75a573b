import Foundation
import HearthStore
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
        let published = Mutex<[String]>([])
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
        func publish(_ events: [String], from node: String) async throws { published.withLock { $0 += events } }
        func events(from node: String, after id: Int64) async throws -> [NetworkDelivery] { [] }
        func subscribe() -> AsyncThrowingStream<NetworkDelivery, any Error> {
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
            #"{"kind":"join","from":"b","node":"b","session":3,"op":true,"history":"h"}"#, try quit.encoded(),
        ]
        let bus = FakeBus(
            payloads.enumerated().map { NetworkDelivery(id: Int64($0.offset + 1), node: "b", payload: $0.element) })
        let node = NetworkNode(name: "a", serverName: "a.hearth", store: bus, logger: Logger(label: "test"))
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
        #expect(
            got == [
                .refused("malformed"), .refused("unknown_kind"), .refused("unsupported_version"),
                .refused("malformed"), .applied(quit.message),
            ])
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
