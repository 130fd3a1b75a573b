import Foundation
import GRDB
import HearthStore
import Logging
import PostgresNIO

/// Raw SQL against a test server's store, whichever engine it runs on, for tests that check
/// rows themselves (nothing left behind, no secret in clear). Table and column names are
/// written as in the schema; PostgreSQL folds them to lower case alike.
public struct TestSQL: Sendable {
    let store: any Store
    /// The PostgreSQL database, when that is the engine.
    let postgres: DatabaseURL?

    public var isPostgres: Bool { postgres != nil }

    func withPostgres<T>(_ url: DatabaseURL, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: .disable),
            id: 1, logger: Logger(label: "test-sql"))
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    var sqlite: SQLiteStore { store as! SQLiteStore }

    /// The first column of the first row, as a number (`SELECT COUNT(*) …`).
    public func int(_ sql: String) async throws -> Int {
        if let postgres {
            return try await withPostgres(postgres) { db in
                let rows = try await db.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test-sql"))
                    .collect()
                return Int(try rows.first?.decode(Int64.self) ?? 0)
            }
        }
        return try await sqlite.pool.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }

    /// The first column of every row, as text.
    public func strings(_ sql: String) async throws -> [String] {
        if let postgres {
            return try await withPostgres(postgres) { db in
                try await db.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test-sql")).collect()
                    .compactMap { try $0.decode(String?.self) }
            }
        }
        return try await sqlite.pool.read { db in try String.fetchAll(db, sql: sql) }
    }

    public func execute(_ sql: String) async throws {
        if let postgres {
            try await withPostgres(postgres) { db in
                _ = try await db.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test-sql")).collect()
            }
            return
        }
        try await sqlite.pool.write { db in try db.execute(sql: sql) }
    }

    /// Every table the store made (SQLite's own and full-text index tables left out).
    public func tables() async throws -> [String] {
        if isPostgres {
            return try await strings(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() "
                    + "ORDER BY table_name")
        }
        return try await strings(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    }

    /// Every row of a table as one line of text holding each column's value, sorted.
    public func rowsAsText(_ table: String) async throws -> [String] {
        if isPostgres { return try await strings("SELECT row_to_json(t)::text FROM \(table) t").sorted() }
        return try await sqlite.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { row in
                row.map { column, value -> String in
                    switch value.storage {
                    case .null: return "\(column)=NULL"
                    case .int64(let n): return "\(column)=\(n)"
                    case .double(let d): return "\(column)=\(d)"
                    case .string(let s): return "\(column)=\(s)"
                    case .blob(let data): return "\(column)=\(String(decoding: data, as: UTF8.self))"
                    }
                }.joined(separator: " | ")
            }.sorted()
        }
    }

    /// Rows whose foreign keys point nowhere (PostgreSQL never keeps such a row).
    public func foreignKeyProblems() async throws -> [String] {
        if isPostgres { return [] }
        return try await strings("SELECT \"table\" FROM pragma_foreign_key_check")
    }
}
