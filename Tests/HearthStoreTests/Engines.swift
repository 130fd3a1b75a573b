import Foundation
import HearthStore
import HearthTesting
import Testing

/// The engines every store test runs on: SQLite in a temporary directory, and PostgreSQL in a
/// new database on the test server (see `TestPostgres`; never skipped).
/// The areas both engines implement so far (grows to `Store`).
typealias EngineStore = Store

enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// How long a store test's statement may wait for the crowded test database.
    static let crowdedTimeout: Duration = .seconds(30)

    /// Runs `body` with a fresh, empty store of this engine, and closes it after.
    func withStore<T>(_ body: (any EngineStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            return try await body(try SQLiteStore(dataDirectory: TestServer.tempDirectory()))
        case .postgres:
            // Store tests share two cores with the whole first pass: a slow answer is not a failure here.
            let store = try await PostgresStore.open(
                try await TestPostgres.freshDatabase("store"), operationTimeout: Self.crowdedTimeout)
            do {
                let result = try await body(store)
                await store.close()
                return result
            } catch {
                await store.close()
                throw error
            }
        }
    }
}
