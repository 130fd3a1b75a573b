import Foundation
import HearthStore
import HearthTesting
import Testing

/// The database going away under a running store: operations fail within the timeout (they
/// never hang), nothing half-done stays, and the pool reconnects by itself once it is back.
@Suite struct PostgresFaultTests {
    @Test func anUnreachableDatabaseFailsFastAndTheStoreRecovers() async throws {
        let url = try await TestPostgres.freshDatabase("fault")
        let store = try await PostgresStore.open(url)
        let ann = try await AccountStoreTests.make(store, "ann")

        // Connections refused and the open ones cut: like a database restarting.
        try await PostgresOpenTests.execute(
            try await TestPostgres.superuserURL(), "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS false")
        try await PostgresOpenTests.execute(
            try await TestPostgres.superuserURL(),
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(url.database)'")
        let start = ContinuousClock.now
        await #expect(throws: (any Error).self) { try await store.setBio(ann.id, "while it was away") }
        let waited = ContinuousClock.now - start
        #expect(waited < store.operationTimeout + .seconds(2), "waited \(waited)")

        try await PostgresOpenTests.execute(
            try await TestPostgres.superuserURL(), "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS true")
        var recovered = false
        for _ in 0..<100 where !recovered {
            recovered = (try? await store.setBio(ann.id, "back again")) != nil
            if !recovered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(recovered)
        #expect(try await store.account(id: ann.id)?.bio == "back again")
        await store.close()
    }
}
