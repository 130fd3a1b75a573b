import Foundation
import HearthStore
import HearthTesting
import Testing

/// Network-wide nick claims on PostgreSQL (the only engine a network can share).
@Suite struct NetworkNickStoreTests {
    /// A sweep frees the claims of a node's sessions that are gone (a release lost while the
    /// database was away), keeps those of live sessions, claims made after the node listed its
    /// sessions (a higher session number) and every other node's.
    @Test func aSweepFreesOnlyTheNodesClaimsNoLiveSessionHolds() async throws {
        let store = try await PostgresStore.open(
            try await TestPostgres.freshDatabase("nicks"), operationTimeout: Engine.crowdedTimeout)
        defer { Task { await store.close() } }
        _ = try await store.joinNetwork(node: "a")
        _ = try await store.joinNetwork(node: "b")
        let live = NetworkNick(nickKey: "ann", node: "a", session: 1, accountID: nil)
        let stale = NetworkNick(nickKey: "leaver", node: "a", session: 2, accountID: nil)
        let renamed = NetworkNick(nickKey: "old", node: "a", session: 1, accountID: nil)
        let newer = NetworkNick(nickKey: "new", node: "a", session: 9, accountID: nil)
        let other = NetworkNick(nickKey: "bob", node: "b", session: 2, accountID: nil)
        for claim in [live, stale, renamed, newer, other] { #expect(try await store.claimNick(claim)) }
        let freed = try await store.sweepNicks(node: "a", live: [live], below: 5)
        #expect(Set(freed.map(\.nickKey)) == ["leaver", "old"])
        let held = try await store.networkNicks().map(\.nickKey)
        #expect(Set(held) == ["ann", "new", "bob"])
        // The freed nick is free again for anyone.
        #expect(try await store.claimNick(NetworkNick(nickKey: "leaver", node: "b", session: 3, accountID: nil)))
        #expect(try await store.sweepNicks(node: "a", live: [live, newer], below: 10).isEmpty)
    }
}
