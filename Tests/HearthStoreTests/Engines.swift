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

    /// Runs `body` with a fresh, empty store of this engine, and closes it after.
    func withStore<T>(_ body: (any EngineStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            return try await body(try SQLiteStore(dataDirectory: TestServer.tempDirectory()))
        case .postgres:
            let store = try await PostgresStore.open(try await TestPostgres.freshDatabase("store"))
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
