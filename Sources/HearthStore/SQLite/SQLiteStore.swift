import Foundation
import GRDB
import Synchronization

/// The SQLite database: one `DatabasePool` in WAL mode under the data directory.
/// Every method is async so an event loop never waits on SQL.
public final class SQLiteStore: Store, Sendable {
    public let pool: DatabasePool
    public let queryTimes = QueryTimes()
    public let path: String
    /// The accounts' name keys (`reservedNames`), and the writer's `data_version` they were read at.
    let nameKeys = ReservedNameKeys()
    let nameKeysVersion = Mutex<Int?>(nil)

    public static let fileName = "hearth.sqlite"
    /// Files and directories whose permissions were wider than private at start (logged).
    public let tightened: [String]

    public init(dataDirectory: String) throws {
        tightened = try DataDirectory.secure(dataDirectory)
        path = (dataDirectory as NSString).appendingPathComponent(SQLiteStore.fileName)
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        let times = queryTimes
        config.prepareDatabase { db in
            // WAL + NORMAL: a commit survives a crash of the process; only a power loss
            // can lose the last transactions (see docs/OPERATIONS.md).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Each statement's time (SQLite measures it), for whoever listens; the observer is set
            // after this store opens, so the hook is asked at each statement.
            db.trace(options: .profile) { event in
                if case .profile(_, let seconds) = event { times.took(.nanoseconds(Int64(seconds * 1e9))) }
            }
        }
        pool = try DatabasePool(path: path, configuration: config)
        try Migrations.migrator.migrate(pool)
        try pool.writeWithoutTransaction { db in try syncReservedNames(db) }
        watchForeignWrites()
    }

    public var location: String { "SQLite in \(path)" }

    /// One process owns an SQLite data directory: its media files are the pictures.
    public var sharedPictures: (any PictureStore)? { nil }
    public var network: (any NetworkStore)? { nil }

    /// The pool closes its files when the store goes away.
    public func close() async {}

    public func journalMode() async throws -> String {
        try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }
}
