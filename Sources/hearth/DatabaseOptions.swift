import ArgumentParser
import Foundation
import HearthStore
import Logging

/// `--database` (or HEARTH_DATABASE_URL) for every subcommand that touches the data: without
/// it, SQLite in the data directory. A wrong URL or an unusable database is one line and a
/// non-zero exit.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "PostgreSQL to keep everything in, as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE "
                + "(or HEARTH_DATABASE_URL); without it, SQLite in the data directory.",
            valueName: "url"))
    var database: String?
    @Option(help: "Connections to PostgreSQL this process keeps at most.")
    var databasePool = PostgresStore.defaultPoolSize

    /// One line for the operator; ArgumentParser prints it and exits non-zero.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var url: DatabaseURL? {
        get throws {
            try Self.parse(database ?? ProcessInfo.processInfo.environment["HEARTH_DATABASE_URL"])
        }
    }

    func open(dataDirectory: String, logger: Logger) async throws -> any Store {
        try await Self.open(url: try url, pool: databasePool, dataDirectory: dataDirectory, logger: logger)
    }

    /// Backup and restore are SQLite's; PostgreSQL has its own tools.
    func refuseOnPostgres(_ action: String, with tool: String) throws {
        if try url != nil {
            throw Failure(
                description: "hearth cannot \(action) a PostgreSQL database; use \(tool) (see docs/OPERATIONS.md)")
        }
    }
}

extension DatabaseOptions {
    /// `hearth serve`'s store: its settings name the database (nil: SQLite in the data directory).
    static func open(url text: String?, pool: Int, dataDirectory: String, logger: Logger) async throws -> any Store {
        try await open(url: try parse(text), pool: pool, dataDirectory: dataDirectory, logger: logger)
    }

    /// Nil or empty: no database named (SQLite); a URL that does not parse is one line.
    static func parse(_ text: String?) throws -> DatabaseURL? {
        guard let text, !text.isEmpty else { return nil }
        do { return try DatabaseURL(parsing: text) } catch { throw Failure(description: error.description) }
    }

    static func open(url: DatabaseURL?, pool: Int, dataDirectory: String, logger: Logger) async throws -> any Store {
        do {
            return try await StoreEngine.open(
                database: url, dataDirectory: dataDirectory, poolSize: max(1, pool), logger: logger)
        } catch let problem as PostgresStore.OpenProblem {
            throw Failure(description: problem.description)
        }
    }
}
