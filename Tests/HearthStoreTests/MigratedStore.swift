import Foundation
import GRDB
import HearthTesting
import Logging
import PostgresNIO
import Testing

@testable import HearthStore

/// A store of an engine whose `rows` (SQL) were written just before a migration — `sqlite` or
/// `postgres`, by name — then opened, which applies it and what follows: an upgrade, for
/// migrations that change or index what is kept.
enum MigratedStore {
    static func with(
        _ engine: Engine, before sqlite: String, _ postgres: String, rows: [String],
        _ body: (any Store) async throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            let directory = TestServer.tempDirectory()
            let queue = try DatabaseQueue(path: (directory as NSString).appendingPathComponent(SQLiteStore.fileName))
            let ids = Migrations.migrator.migrations
            let mine = try #require(ids.firstIndex(of: sqlite))
            try Migrations.migrator.migrate(queue, upTo: ids[mine - 1])
            let statements = rows
            try await queue.write { db in for sql in statements { try db.execute(sql: sql) } }
            try queue.close()
            try await body(try SQLiteStore(dataDirectory: directory))
        case .postgres:
            let url = try await TestPostgres.freshDatabase("legacy")
            let logger = Logger(label: "legacy-test")
            let connection = try await PostgresConnection.connect(
                configuration: .init(
                    host: url.host, port: url.port, username: url.user, password: url.password,
                    database: url.database, tls: .disable),
                id: 1, logger: logger)
            func run(_ sql: String) async throws {
                for statement in PostgresMigrations.statements(sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            let mine = try #require(PostgresMigrations.all.firstIndex { $0.0 == postgres })
            try await run(
                "CREATE TABLE hearth_migrations (identifier TEXT PRIMARY KEY, appliedAt TIMESTAMPTZ NOT NULL)")
            for (identifier, sql) in PostgresMigrations.all[..<mine] {
                try await run(sql)
                try await run("INSERT INTO hearth_migrations VALUES ('\(identifier)', now())")
            }
            for sql in rows { try await run(sql) }
            try await connection.close()
            let store = try await PostgresStore.open(url, operationTimeout: Engine.crowdedTimeout)  // migrates the rest
            do {
                try await body(store)
                await store.close()
            } catch {
                await store.close()
                throw error
            }
        }
    }
}
