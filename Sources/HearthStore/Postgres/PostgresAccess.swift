import Foundation
import Logging
import PostgresNIO

/// How the PostgreSQL engine runs its SQL: one statement on any pooled connection, or several
/// in a transaction; and what a unique violation means. Statements that must say how many
/// rows they changed end in `RETURNING 1` and count the rows.
extension PostgresStore {
    /// Runs one query on a pooled connection and collects its rows.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await client.query(query, logger: logger).collect()
    }

    /// Runs one statement that returns nothing.
    func run(_ query: PostgresQuery) async throws {
        try await client.query(query, logger: logger).collect()
    }

    /// Runs `body` in one transaction (READ COMMITTED; row locks where a body needs them).
    /// What the body threw comes out as itself, not wrapped in the driver's transaction error.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            throw Self.unwrap(error)
        }
    }

    static func unwrap(_ error: PostgresTransactionError) -> any Error {
        error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error
    }

    /// SQLSTATE 23505: a UNIQUE constraint refused the row.
    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}

extension PostgresConnection {
    /// Runs one query in this connection (inside a transaction) and collects its rows.
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}
