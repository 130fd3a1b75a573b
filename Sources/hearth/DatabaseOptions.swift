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
            guard let text = database ?? ProcessInfo.processInfo.environment["HEARTH_DATABASE_URL"], !text.isEmpty
            else { return nil }
            do { return try DatabaseURL(parsing: text) } catch { throw Failure(description: error.description) }
        }
    }

    func open(dataDirectory: String, logger: Logger) async throws -> any Store {
        let url = try url
        do {
            return try await StoreEngine.open(
                database: url, dataDirectory: dataDirectory, poolSize: max(1, databasePool), logger: logger)
        } catch let problem as PostgresStore.OpenProblem {
            throw Failure(description: problem.description)
        }
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
        var url: DatabaseURL?
        if let text, !text.isEmpty {
            do { url = try DatabaseURL(parsing: text) } catch { throw Failure(description: error.description) }
        }
        do {
            return try await StoreEngine.open(
                database: url, dataDirectory: dataDirectory, poolSize: max(1, pool), logger: logger)
        } catch let problem as PostgresStore.OpenProblem {
            throw Failure(description: problem.description)
        }
    }
}
