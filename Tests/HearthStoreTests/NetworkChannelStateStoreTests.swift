import Foundation
import HearthStore
import HearthTesting
import Synchronization
import Testing

/// Channel state in one order across nodes, on PostgreSQL (the only engine a network shares).
@Suite struct NetworkChannelStateStoreTests {
    /// Changes of one channel from many nodes at once take turns: each sees the state the one
    /// before it left and gets the next version, and its event is logged with that version.
    @Test func concurrentChangesOfOneChannelTakeTurnsAndAreNumbered() async throws {
        let store = try await PostgresStore.open(
            try await TestPostgres.freshDatabase("chanstate"), operationTimeout: Engine.crowdedTimeout)
        defer { Task { await store.close() } }
        let changers = 16
        let results = try await withThrowingTaskGroup(of: NetworkChannelState?.self) { group in
            for n in 0..<changers {
                group.addTask {
                    try await store.changeChannelState(
                        "#kk", historyKey: "#kk 1", from: "node\(n % 3)",
                        change: { old in (old ?? "") + "\(n)," },
                        event: { version, state in Array("\(version) \(state)".utf8) })
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let versions = results.compactMap { $0?.version }.sorted()
        #expect(versions == Array(1...Int64(changers)))
        // The last state holds every change, once: none was lost to a concurrent one.
        let last = try #require(try await store.channelStates(["#kk", "#none"]).first)
        #expect(last.version == Int64(changers) && last.historyKey == "#kk 1")
        let parts = last.state.split(separator: ",").compactMap { Int($0) }
        #expect(Set(parts) == Set(0..<changers) && parts.count == changers)
        // Each change's event is in the log, from its node, numbered.
        let logged = try await (0..<3).asyncFlatMap { try await store.events(from: "node\($0)", after: 0) }
        let texts = logged.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(Set(texts.map { $0.split(separator: " ")[0] }) == Set((1...changers).map { "\($0)" }))
    }

    /// A new incarnation of a channel starts from no state (versions go on rising), and a
    /// change that changes nothing publishes nothing.
    @Test func aNewIncarnationStartsAfreshAndANoChangeIsNotPublished() async throws {
        let store = try await PostgresStore.open(
            try await TestPostgres.freshDatabase("chanstate"), operationTimeout: Engine.crowdedTimeout)
        defer { Task { await store.close() } }
        let first = try await store.changeChannelState(
            "#a", historyKey: "#a 1", from: "n", change: { _ in "old" }, event: { _, _ in Array("e1".utf8) })
        #expect(first?.version == 1)
        let none = try await store.changeChannelState(
            "#a", historyKey: "#a 1", from: "n", change: { _ in nil }, event: { _, _ in Array("never".utf8) })
        #expect(none == nil)
        let seen = Mutex<String?>("unset")
        let again = try await store.changeChannelState(
            "#a", historyKey: "#a 2", from: "n",
            change: { old in
                seen.withLock { $0 = old }
                return "new"
            },
            event: { _, _ in Array("e2".utf8) })
        #expect(seen.withLock { $0 } == nil && again?.version == 2)
        let logged = try await store.events(from: "n", after: 0).map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(logged == ["e1", "e2"])
        // Emptied: an earlier incarnation's release leaves it; its own removes it.
        try await store.releaseChannelState("#a", historyKey: "#a 1")
        #expect(try await store.channelStates(["#a"]).map(\.version) == [2])
        try await store.releaseChannelState("#a", historyKey: "#a 2")
        #expect(try await store.channelStates(["#a"]).isEmpty)
    }
}

extension Range where Bound == Int {
    fileprivate func asyncFlatMap<T>(_ body: (Int) async throws -> [T]) async rethrows -> [T] {
        var all: [T] = []
        for n in self { all += try await body(n) }
        return all
    }
}
