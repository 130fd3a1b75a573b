import Foundation
import Logging
import PostgresNIO

/// How the PostgreSQL engine runs its SQL: one statement on any pooled connection, or several
/// in a transaction; and what a unique violation means. Statements that must say how many
/// rows they changed end in `RETURNING 1` and count the rows.
extension PostgresStore {
    /// A statement the server refused, with its reason and SQLSTATE (never the values bound,
    /// which may be secrets): what logs and the operator see.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var sqlState: String?
        public var message: String
        public var description: String { "PostgreSQL: \(message)" + (sqlState.map { " (\($0))" } ?? "") }
    }

    /// The driver's error in a form a log can show.
    static func failure(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError else { return error }
        if let info = error.serverInfo {
            return Failure(sqlState: info[.sqlState], message: info[.message] ?? "error")
        }
        return Failure(sqlState: nil, message: "\(error.code)")
    }

    /// How long one operation may wait for the database (a free connection included) before
    /// it fails with "unavailable": a stopped or unreachable server must not hold a user's
    /// commands, and the chat lines behind them, for ever.
    public static let defaultOperationTimeout: Duration = .seconds(5)

    /// Runs `body`, or fails with `Failure` ("unavailable") once `operationTimeout` has passed,
    /// even when `body` never notices it was cancelled (`Deadline`).
    func bounded<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let (times, timeout) = (queryTimes, operationTimeout)
        guard let result = await Deadline.first(before: .now + timeout, { try await times.time(body) }) else {
            throw Failure(sqlState: nil, message: "the database did not answer within \(timeout)")
        }
        return try result.get()
    }

    /// Runs one query on a pooled connection and collects its rows.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let (client, logger) = (self.client, self.logger)
        do { return try await bounded { try await client.query(query, logger: logger).collect() } } catch {
            throw Self.failure(error)
        }
    }

    /// Runs one statement that returns nothing.
    func run(_ query: PostgresQuery) async throws {
        _ = try await rows(query)
    }

    /// Runs `body` on a pooled connection, outside a transaction, within the same limit as a query.
    func connection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let client = self.client
        do { return try await bounded { try await client.withConnection { db in try await body(db) } } } catch {
            throw Self.failure(error)
        }
    }

    /// Runs `body` in one transaction (READ COMMITTED; row locks where a body needs them).
    /// What the body threw comes out as itself, not wrapped in the driver's transaction error.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T
    {
        let (client, logger) = (self.client, self.logger)
        do {
            return try await bounded {
                try await client.withTransaction(logger: logger) { connection in try await body(connection) }
            }
        } catch let error as PostgresTransactionError {
            throw Self.failure(Self.unwrap(error))
        } catch {
            throw Self.failure(error)
        }
    }

    static func unwrap(_ error: PostgresTransactionError) -> any Error {
        error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error
    }

    /// SQLSTATE 23505: a UNIQUE constraint refused the row.
    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? Failure)?.sqlState == "23505" || (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}

extension PostgresConnection {
    /// Runs one query in this connection (inside a transaction) and collects its rows.
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }

    /// Runs a query of one BIGINT column in this connection and collects the set.
    func ids(_ query: PostgresQuery, _ logger: Logger) async throws -> Set<Int64> {
        Set(try await rows(query, logger).map { try $0.decode(Int64.self) })
    }
}
