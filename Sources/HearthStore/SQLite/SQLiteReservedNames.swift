import GRDB

/// Keeps `reservedNames` right. This process's account writes change it in the writer; another
/// process's (`hearth user add` beside the running server) show as a new `data_version` on the
/// writer's connection, looked at every `foreignWriteCheck`, and the keys are read again.
extension SQLiteStore {
    /// How often the writer looks for another process's commits.
    public static let foreignWriteCheck: Duration = .seconds(1)

    public var reservedNames: ReservedNameKeys? { nameKeys }

    /// Reads the keys again if another connection committed since they were read.
    public func checkForeignWrites() async throws {
        try await pool.writeWithoutTransaction { db in try self.syncReservedNames(db) }
    }

    /// In the writer, so no write of this process changes accounts meanwhile. The version is read
    /// first: a commit between the two reads is in the keys and makes the next look read them again.
    func syncReservedNames(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA data_version")
        let changed = nameKeysVersion.withLock { seen in
            defer { seen = version }
            return seen == nil || seen != version
        }
        if changed { nameKeys.load(try String.fetchAll(db, sql: "SELECT nameKey FROM account")) }
    }

    /// A write that freed a name failed: nobody knows which keys hold until they are read again.
    /// Keys first, version second: a look in between then reads them again, where the other order
    /// let it read them, record the version, and lose them to the forget (every later look saw
    /// the same version, so registrations asked the store until another process wrote).
    func forgetReservedNames() {
        nameKeys.forget()
        nameKeysVersion.withLock { $0 = nil }
    }

    /// Looks for other processes' commits while the store lives.
    func watchForeignWrites() {
        Task { [weak self] in
            while true {
                try? await Task.sleep(for: Self.foreignWriteCheck)
                guard let self else { return }
                try? await self.checkForeignWrites()
            }
        }
    }
}
