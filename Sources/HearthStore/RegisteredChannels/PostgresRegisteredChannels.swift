import Foundation
import PostgresNIO

/// Registered channels on PostgreSQL. The owner's account row is locked while the number of
/// channels they own is checked, so the limit holds under concurrent registrations.
extension PostgresStore: ChannelRegistry {
    static let channelColumns =
        "nameKey, name, ownerId, topic, topicSetBy, topicSetAt, flags, channelKey, userLimit, createdAt"

    static func channel(_ row: PostgresRow) throws -> RegisteredChannel {
        let (nameKey, name, ownerId, topic, topicSetBy, topicSetAt, flags, key, limit, createdAt) = try row.decode(
            (String, String, Int64, String, String, Date?, String, String?, Int64?, Date).self)
        return RegisteredChannel(
            nameKey: nameKey, name: name, ownerId: ownerId, topic: topic, topicSetBy: topicSetBy,
            topicSetAt: topicSetAt, flags: flags, channelKey: key, userLimit: limit.map { Int($0) },
            createdAt: createdAt)
    }

    public func registeredChannels() async throws -> [RegisteredChannel] {
        try await rows("SELECT \(unescaped: Self.channelColumns) FROM registeredChannel").map(Self.channel)
    }

    public func registeredChannel(nameKey: String) async throws -> RegisteredChannel? {
        try await rows("SELECT \(unescaped: Self.channelColumns) FROM registeredChannel WHERE nameKey = \(nameKey)")
            .first.map(Self.channel)
    }

    public func register(_ channel: RegisteredChannel, maxOwned: Int) async throws -> Bool {
        try await transaction { db in
            let taken = try await db.rows(
                "SELECT 1 FROM registeredChannel WHERE nameKey = \(channel.nameKey)", self.logger)
            if !taken.isEmpty { return false }
            try await Self.checkOwned(db, channel.ownerId, maxOwned, self.logger)
            let added = try await db.rows(
                """
                INSERT INTO registeredChannel (\(unescaped: Self.channelColumns))
                VALUES (\(channel.nameKey), \(channel.name), \(channel.ownerId), \(channel.topic),
                  \(channel.topicSetBy), \(channel.topicSetAt), \(channel.flags), \(channel.channelKey),
                  \(channel.userLimit.map { Int64($0) }), \(channel.createdAt))
                ON CONFLICT (nameKey) DO NOTHING RETURNING 1
                """, self.logger)
            return !added.isEmpty
        }
    }

    static func checkOwned(_ db: PostgresConnection, _ ownerId: Int64, _ maxOwned: Int, _ logger: Logger) async throws {
        _ = try await db.rows("SELECT 1 FROM account WHERE id = \(ownerId) FOR UPDATE", logger)
        let owned = try await db.rows("SELECT COUNT(*) FROM registeredChannel WHERE ownerId = \(ownerId)", logger)[0]
            .decode(Int64.self)
        try RegisteredChannelRules.checkOwned(owned: Int(owned), maxOwned: maxOwned)
    }

    public func save(_ channel: RegisteredChannel) async throws {
        try await run(
            """
            UPDATE registeredChannel SET topic = \(channel.topic), topicSetBy = \(channel.topicSetBy),
              topicSetAt = \(channel.topicSetAt), flags = \(channel.flags), channelKey = \(channel.channelKey),
              userLimit = \(channel.userLimit.map { Int64($0) })
            WHERE nameKey = \(channel.nameKey)
            """)
    }

    public func dropChannel(nameKey: String) async throws {
        try await run("DELETE FROM registeredChannel WHERE nameKey = \(nameKey)")
    }

    public func transferChannel(nameKey: String, to ownerId: Int64, maxOwned: Int) async throws {
        try await transaction { db in
            try await Self.checkOwned(db, ownerId, maxOwned, self.logger)
            try await db.query(
                "UPDATE registeredChannel SET ownerId = \(ownerId) WHERE nameKey = \(nameKey)", logger: self.logger)
        }
    }

    public func channelListEntries() async throws -> [ChannelListEntry] {
        try await rows(
            "SELECT nameKey, mode, mask, setBy, setAt, byOper FROM channelListEntry ORDER BY setAt, mask"
        ).map {
            let (nameKey, mode, mask, setBy, setAt, byOper) = try $0.decode(
                (String, String, String, String, Date, Bool).self)
            return ChannelListEntry(
                nameKey: nameKey, mode: mode, mask: mask, setBy: setBy, setAt: setAt, byOper: byOper)
        }
    }

    public func saveChannelLists(nameKey: String, _ entries: [ChannelListEntry]) async throws {
        try await transaction { db in
            // The channel's row held still: a drop meanwhile leaves nothing behind.
            let kept = try await db.rows(
                "SELECT 1 FROM registeredChannel WHERE nameKey = \(nameKey) FOR UPDATE", self.logger)
            try await db.query("DELETE FROM channelListEntry WHERE nameKey = \(nameKey)", logger: self.logger)
            guard !kept.isEmpty else { return }
            for entry in entries {
                try await db.query(
                    """
                    INSERT INTO channelListEntry (nameKey, mode, mask, setBy, setAt, byOper)
                    VALUES (\(nameKey), \(entry.mode), \(entry.mask), \(entry.setBy), \(entry.setAt), \(entry.byOper))
                    ON CONFLICT DO NOTHING
                    """, logger: self.logger)
            }
        }
    }

    public func channelAccess() async throws -> [ChannelAccess] {
        try await rows("SELECT nameKey, accountId, level FROM channelAccess").compactMap {
            let (nameKey, accountId, level) = try $0.decode((String, Int64, String).self)
            return ChannelAccess.Level(rawValue: level).map {
                ChannelAccess(nameKey: nameKey, accountId: accountId, level: $0)
            }
        }
    }

    public func setChannelAccess(nameKey: String, accountId: Int64, level: ChannelAccess.Level?) async throws {
        guard let level else {
            try await run("DELETE FROM channelAccess WHERE nameKey = \(nameKey) AND accountId = \(accountId)")
            return
        }
        try await run(
            """
            INSERT INTO channelAccess (nameKey, accountId, level) VALUES (\(nameKey), \(accountId), \(level.rawValue))
            ON CONFLICT (nameKey, accountId) DO UPDATE SET level = EXCLUDED.level
            """)
    }
}
