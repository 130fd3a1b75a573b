import Foundation
import HearthProtocol
import HearthStore
import Logging
import Synchronization
import Testing

@testable import HearthServer

/// A node's nick claims against a database that is away, slow or answering (in-process: the
/// stories with real nodes are in NetworkNickTests).
@Suite struct NetworkNicksTests {
    /// Claims and releases against a table in memory; `down` makes every call fail, `hang` makes
    /// claims wait until cancelled.
    final class FakeNicks: NetworkStore {
        let rows = Mutex<[NetworkNick]>([])
        let down = Atomic<Bool>(false)
        let hang = Atomic<Bool>(false)
        let releaseTries = Atomic<Int>(0)
        struct Away: Error {}

        func claimNick(_ claim: NetworkNick) async throws -> Bool {
            while hang.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
            if down.load(ordering: .relaxed) { throw Away() }
            return rows.withLock { rows in
                if rows.contains(where: { $0.nickKey == claim.nickKey && $0.session != claim.session }) { return false }
                if !rows.contains(claim) { rows.append(claim) }
                return true
            }
        }
        func releaseNick(_ nickKey: String, node: String, session: Int) async throws {
            releaseTries.add(1, ordering: .relaxed)
            if down.load(ordering: .relaxed) { throw Away() }
            rows.withLock { $0.removeAll { $0.nickKey == nickKey && $0.node == node && $0.session == session } }
        }
        func sweepNicks(node: String, live: [NetworkNick], below: Int) async throws -> [NetworkNick] {
            rows.withLock { rows in
                let stale = rows.filter { row in
                    row.node == node && row.session < below
                        && !live.contains { $0.nickKey == row.nickKey && $0.session == row.session }
                }
                rows.removeAll { stale.contains($0) }
                return stale
            }
        }
        func networkNicks() async throws -> [NetworkNick] { rows.withLock { $0 } }
        func joinNetwork(node: String) async throws -> [NetworkNick] { [] }
        func leaveNetwork(node: String) async throws {}
        func heartbeat(node: String, users: Int, reap: Bool) async throws -> Heartbeat { Heartbeat() }
        func nodes() async throws -> [NodeInfo] { [] }
        func claimChannel(_ channelKey: String, historyKey: String) async throws -> ChannelClaim {
            ChannelClaim(historyKey: historyKey, created: true)
        }
        func releaseChannel(_ channelKey: String, historyKey: String) async throws {}
        func publish(_ events: [[UInt8]], from node: String) async throws {}
        func events(from node: String, after id: Int64) async throws -> [NetworkDelivery] { [] }
        func subscribe(ignoring node: String) -> AsyncThrowingStream<NetworkDelivery, any Error> {
            AsyncThrowingStream { _ in }
        }
    }

    static func nick(_ key: String, _ session: Int) -> NetworkNick {
        NetworkNick(nickKey: key, node: "a", session: session, accountID: nil)
    }

    /// A database that does not answer, or fails: the claim is "unavailable" by the deadline,
    /// never "taken"; one that answers late has its claim released, so the row does not stay.
    @Test(.timeLimit(.minutes(1))) func aClaimTheDatabaseCannotAnswerIsUnavailableNotTaken() async throws {
        let store = FakeNicks()
        let nicks = NetworkNicks(node: "a", store: store, logger: Logger(label: "test"))
        store.hang.store(true, ordering: .relaxed)
        #expect(await nicks.claim(Self.nick("ann", 1), before: .now + .milliseconds(50)) == .unavailable)
        store.hang.store(false, ordering: .relaxed)
        try await waitUntilReleased(store, "ann")
        store.down.store(true, ordering: .relaxed)
        #expect(await nicks.claim(Self.nick("bob", 2), before: .now + .seconds(30)) == .unavailable)
        store.down.store(false, ordering: .relaxed)
        #expect(await nicks.claim(Self.nick("bob", 2), before: .now + .seconds(30)) == .claimed)
        #expect(await nicks.claim(Self.nick("bob", 3), before: .now + .seconds(30)) == .taken)
    }

    func waitUntilReleased(_ store: FakeNicks, _ key: String) async throws {
        func held() -> Bool { store.rows.withLock { $0.contains { $0.nickKey == key } } }
        while held() || store.releaseTries.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// A release made while the database is away is tried again until it is back.
    @Test(.timeLimit(.minutes(1))) func aReleaseIsRetriedUntilTheDatabaseAnswers() async throws {
        let store = FakeNicks()
        let nicks = NetworkNicks(node: "a", store: store, logger: Logger(label: "test"))
        #expect(await nicks.claim(Self.nick("leaver", 1), before: .now + .seconds(30)) == .claimed)
        store.down.store(true, ordering: .relaxed)
        let released = Task { await nicks.release("leaver", session: 1) }
        while store.releaseTries.load(ordering: .relaxed) < 3 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(store.rows.withLock { $0.count } == 1)
        store.down.store(false, ordering: .relaxed)
        await released.value
        #expect(store.rows.withLock { $0.isEmpty })
    }

    /// After a stall: users whose nick is still free keep it; one whose nick another took gets a
    /// collision nick, claimed, valid and of no one else.
    @Test(.timeLimit(.minutes(1))) func reclaimingRenamesOnlyTheUsersWhoseNickWasTaken() async throws {
        let store = FakeNicks()
        let nicks = NetworkNicks(node: "c", store: store, logger: Logger(label: "test"))
        #expect(try await store.claimNick(NetworkNick(nickKey: "rcs0", node: "a", session: 7, accountID: nil)))
        let mine = [
            NetworkNick(nickKey: "rcs0", node: "c", session: 1, accountID: nil),
            NetworkNick(nickKey: "keeper", node: "c", session: 2, accountID: nil),
        ]
        let renames = await nicks.reclaim(mine)
        #expect(renames.keys.sorted() == [1])
        let fresh = try #require(renames[1])
        #expect(IRCNames.isValidNick(fresh) && fresh.hasPrefix("_"))
        let rows = try await store.networkNicks()
        #expect(rows.contains { $0.nickKey == IRCNames.fold(fresh) && $0.node == "c" && $0.session == 1 })
        #expect(rows.contains { $0.nickKey == "keeper" && $0.session == 2 })
        #expect(rows.contains { $0.nickKey == "rcs0" && $0.node == "a" })
    }

    /// A sweep keeps what live sessions hold and what was claimed a moment ago, and frees the rest.
    @Test(.timeLimit(.minutes(1))) func aSweepFreesWhatNoSessionHolds() async throws {
        let store = FakeNicks()
        let nicks = NetworkNicks(node: "a", store: store, logger: Logger(label: "test"))
        for row in [Self.nick("ann", 1), Self.nick("gone", 2)] { #expect(try await store.claimNick(row)) }
        #expect(await nicks.claim(Self.nick("young", 3), before: .now + .seconds(30)) == .claimed)
        try await nicks.sweep(live: [Self.nick("ann", 1)], below: 10)
        #expect(Set(try await store.networkNicks().map(\.nickKey)) == ["ann", "young"])
    }
}
