import Logging

/// Opens the store once at start: PostgreSQL when a database URL is given, else SQLite in the
/// data directory. Nothing after this learns which engine runs.
public enum StoreEngine {
    /// Files and directories of the data directory whose permissions were tightened (SQLite).
    public static func open(
        database: DatabaseURL?, dataDirectory: String, poolSize: Int = PostgresStore.defaultPoolSize,
        operationTimeout: Duration = PostgresStore.defaultOperationTimeout,
        logger: Logger = Logger(label: "hearth.store")
    ) async throws -> any Store {
        guard let database else {
            let sqlite = try SQLiteStore(dataDirectory: dataDirectory)
            for path in sqlite.tightened {
                logger.notice("made \(path) private to this user (it was readable by others)")
            }
            return sqlite
        }
        // Pictures and the server secret stay in the data directory: private on every engine.
        for path in try DataDirectory.secure(dataDirectory) {
            logger.notice("made \(path) private to this user (it was readable by others)")
        }
        return try await PostgresStore.open(
            database, poolSize: poolSize, operationTimeout: operationTimeout, logger: logger)
    }
}
