import Foundation
import GRDB

extension SQLiteStore {
    public func registeredChannels() async throws -> [RegisteredChannel] {
        try await pool.read { db in try RegisteredChannel.fetchAll(db) }
    }

    public func registeredChannel(nameKey: String) async throws -> RegisteredChannel? {
        try await pool.read { db in try RegisteredChannel.fetchOne(db, key: nameKey) }
    }

    /// Registers a channel; false if it already has an owner. Throws `ownsTooMany` when
    /// the owner already has `maxOwned`.
    public func register(_ channel: RegisteredChannel, maxOwned: Int = .max) async throws -> Bool {
        try await pool.write { db in
            if try RegisteredChannel.exists(db, key: channel.nameKey) { return false }
            try Self.checkOwned(db, channel.ownerId, maxOwned)
            try channel.insert(db)
            return true
        }
    }

    static func checkOwned(_ db: Database, _ ownerId: Int64, _ maxOwned: Int) throws {
        let owned = try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM registeredChannel WHERE ownerId = ?", arguments: [ownerId])
        try RegisteredChannelRules.checkOwned(owned: owned ?? 0, maxOwned: maxOwned)
    }

    /// Saves topic and modes (after a change in a live channel).
    public func save(_ channel: RegisteredChannel) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE registeredChannel SET topic = ?, topicSetBy = ?, topicSetAt = ?, flags = ?,
                      channelKey = ?, userLimit = ?
                    WHERE nameKey = ?
                    """,
                arguments: [
                    channel.topic, channel.topicSetBy, channel.topicSetAt, channel.flags, channel.channelKey,
                    channel.userLimit, channel.nameKey,
                ])
        }
    }

    public func dropChannel(nameKey: String) async throws {
        try await pool.write { db in _ = try RegisteredChannel.deleteOne(db, key: nameKey) }
    }

    public func transferChannel(nameKey: String, to ownerId: Int64, maxOwned: Int = .max) async throws {
        try await pool.write { db in
            try Self.checkOwned(db, ownerId, maxOwned)
            try db.execute(
                sql: "UPDATE registeredChannel SET ownerId = ? WHERE nameKey = ?", arguments: [ownerId, nameKey])
        }
    }

    public func channelListEntries() async throws -> [ChannelListEntry] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT nameKey, mode, mask, setBy, setAt, byOper FROM channelListEntry ORDER BY setAt, mask"
            ).map { row in
                ChannelListEntry(
                    nameKey: row["nameKey"], mode: row["mode"], mask: row["mask"], setBy: row["setBy"],
                    setAt: row["setAt"], byOper: row["byOper"])
            }
        }
    }

    public func saveChannelLists(nameKey: String, _ entries: [ChannelListEntry]) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM channelListEntry WHERE nameKey = ?", arguments: [nameKey])
            // A channel dropped meanwhile keeps nothing.
            guard try RegisteredChannel.exists(db, key: nameKey) else { return }
            for entry in entries {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO channelListEntry (nameKey, mode, mask, setBy, setAt, byOper)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [nameKey, entry.mode, entry.mask, entry.setBy, entry.setAt, entry.byOper])
            }
        }
    }

    public func channelAccess() async throws -> [ChannelAccess] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT nameKey, accountId, level FROM channelAccess").compactMap { row in
                ChannelAccess.Level(rawValue: row["level"]).map {
                    ChannelAccess(nameKey: row["nameKey"], accountId: row["accountId"], level: $0)
                }
            }
        }
    }

    public func setChannelAccess(nameKey: String, accountId: Int64, level: ChannelAccess.Level?) async throws {
        try await pool.write { db in
            guard let level else {
                try db.execute(
                    sql: "DELETE FROM channelAccess WHERE nameKey = ? AND accountId = ?",
                    arguments: [nameKey, accountId])
                return
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO channelAccess (nameKey, accountId, level) VALUES (?, ?, ?)",
                arguments: [nameKey, accountId, level.rawValue])
        }
    }
}
