import Foundation
import HearthTesting
import Testing

@testable import HearthStore

/// The network's bus on PostgreSQL: a batch is logged by one insert and announced by one
/// notification, and listeners read it from the log, in order; notifications of nodes from
/// before the binary form (one JSON event each) are still read.
@Suite struct NetworkBusStoreTests {
    static func open() async throws -> PostgresStore {
        try await PostgresStore.open(
            try await TestPostgres.freshDatabase("netbus"), operationTimeout: Engine.crowdedTimeout)
    }

    /// More events than one read of the log takes (far too many for a notification), then a
    /// batch small enough to travel in its notification: all arrive, in order, once.
    @Test(.timeLimit(.minutes(1))) func batchesArriveWholeAndInOrder() async throws {
        let store = try await Self.open()
        defer { Task { await store.close() } }
        var deliveries = store.subscribe(ignoring: "self").makeAsyncIterator()
        #expect(try await deliveries.next() == .listening)
        // The listener's own events are not handed back.
        try await store.publish([[2, 9, 9]], from: "self")
        // 20 bytes each: the first batch (two reads of the log) is some 20 KB in base64, so it
        // cannot travel inline; the last 8 (under 300 bytes) do.
        let events = (0..<(PostgresStore.fetchLimit + 88)).map {
            [2, UInt8($0 % 251)] + [UInt8](repeating: 0xFF, count: 18)
        }
        try await store.publish(Array(events[..<(PostgresStore.fetchLimit + 80)]), from: "a")
        try await store.publish(Array(events[(PostgresStore.fetchLimit + 80)...]), from: "a")
        var got: [NetworkDelivery] = []
        while got.count < events.count, let next = try await deliveries.next() { got.append(next) }
        #expect(got.map(\.payload) == events && Set(got.map(\.node)) == ["a"])
        #expect(got.map(\.id) == got.map(\.id).sorted() && Set(got.map(\.id)).count == events.count)
        // The log holds the same, for a node catching up.
        #expect(try await store.events(from: "a", after: got[9].id).map(\.payload) == Array(events[10...]))
        // One notification per batch: a marker after them comes next, nothing repeated.
        try await store.publish([[2, 1]], from: "b")
        #expect(try await deliveries.next()?.payload == [2, 1])
    }

    /// The notification also carries both ids and the node's name: a batch whose events alone
    /// fit, from a node with the longest name and ids grown long, is announced by its ids and
    /// read from the log (pg_notify refused it whole once, and the node retried it forever).
    @Test(.timeLimit(.minutes(1))) func aBatchNearTheNotifyLimitFromALongNodeNameArrives() async throws {
        let store = try await Self.open()
        defer { Task { await store.close() } }
        // A network that has run a long time: 13-digit ids.
        try await store.run("ALTER SEQUENCE networkevent_id_seq RESTART WITH 1000000000000")
        var deliveries = store.subscribe(ignoring: "self").makeAsyncIterator()
        #expect(try await deliveries.next() == .listening)
        let node = String(repeating: "n", count: 63)
        // 5,910 bytes: 7,880 in base64, "ID:" before it: 7,894, under the events-only cut of
        // 7,900, but the whole notification is 8,008 bytes.
        let event = [2] + (0..<5_909).map { UInt8($0 % 256) }
        try await store.publish([event], from: node)
        let got = try #require(try await deliveries.next())
        #expect(got.payload == event && got.node == node && got.id >= 1_000_000_000_000)
        // Smaller ones still travel inline and follow it.
        try await store.publish([[2, 1]], from: node)
        #expect(try await deliveries.next()?.payload == [2, 1])
    }

    /// A node from before the binary form announces each event by itself ("ID NODE EVENT", or
    /// "ID NODE @" for one kept in the log only): both still arrive, as their JSON.
    @Test(.timeLimit(.minutes(1))) func eventsOfANodeBeforeTheBinaryFormAreRead() async throws {
        let store = try await Self.open()
        defer { Task { await store.close() } }
        var deliveries = store.subscribe(ignoring: "self").makeAsyncIterator()
        #expect(try await deliveries.next() == .listening)
        let small = #"{"kind":"quit","from":"old","node":"old","session":3,"text":"bye"}"#
        let big = #"{"kind":"quit","from":"old","node":"old","session":4,"text":"long"}"#
        for (payload, inline) in [(small, true), (big, false)] {
            try await store.run(
                """
                WITH logged AS (INSERT INTO networkEvent (fromNode, payload) VALUES ('old', \(payload)) RETURNING id)
                SELECT pg_notify('hearth_network', id || ' old ' || \(inline ? payload : "@")) FROM logged
                """)
        }
        let first = try #require(try await deliveries.next())
        let second = try #require(try await deliveries.next())
        #expect([first.payload, second.payload] == [Array(small.utf8), Array(big.utf8)])
        #expect(first.node == "old" && second.id > first.id)
        #expect(try await store.events(from: "old", after: 0).map(\.payload) == [Array(small.utf8), Array(big.utf8)])
    }
}
