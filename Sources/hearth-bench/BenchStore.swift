import ArgumentParser
import Foundation
import HearthStore

/// The store a store scenario writes and reads (`search`, `history-write`): SQLite in a data
/// directory, or PostgreSQL at a URL.
struct BenchStore: ParsableArguments {
    @Option(help: "sqlite or postgres.") var engine = "sqlite"
    @Option(help: "PostgreSQL URL (postgres://…), for --engine postgres.") var databaseURL: String?

    func open(dataDirectory: String) async throws -> any Store {
        if engine == "postgres" {
            guard let text = databaseURL else { throw ValidationError("--engine postgres needs --database-url") }
            return try await PostgresStore.open(try DatabaseURL(parsing: text))
        }
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        return try SQLiteStore(dataDirectory: dataDirectory)
    }
}
