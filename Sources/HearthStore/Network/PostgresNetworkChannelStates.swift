import Foundation
import PostgresNIO

/// Channel state on PostgreSQL: `networkChannelState`, one row per channel, changed under
/// its row lock; the event announcing a change is logged and notified in the same transaction
/// (as `publish` does), so the order of versions is the order of notifications.
extension PostgresStore: NetworkChannelStore {
    public func changeChannelState(
        _ channelKey: String, historyKey: String, from node: String,
        change: @escaping @Sendable (String?) -> String?, event: @escaping @Sendable (Int64, String) -> [UInt8]
    ) async throws -> NetworkChannelState? {
        return try await transaction { db in
            try await db.query(
                """
                INSERT INTO networkChannelState (channelKey, historyKey, version, state)
                VALUES (\(channelKey), \(historyKey), 0, NULL) ON CONFLICT (channelKey) DO NOTHING
                """, logger: self.logger)
            let (storedHistory, version, stored) = try await db.rows(
                """
                SELECT historyKey, version, state FROM networkChannelState
                WHERE channelKey = \(channelKey) FOR UPDATE
                """, self.logger)[0].decode((String, Int64, String?).self)
            // An earlier incarnation's state is none for this one; versions go on rising.
            guard let state = change(storedHistory == historyKey ? stored : nil) else { return nil }
            let next = version + 1
            try await db.query(
                """
                UPDATE networkChannelState SET historyKey = \(historyKey), version = \(next), state = \(state)
                WHERE channelKey = \(channelKey)
                """, logger: self.logger)
            try await db.query(Self.logAndAnnounce([event(next, state)], from: node), logger: self.logger)
            return NetworkChannelState(channelKey: channelKey, historyKey: historyKey, version: next, state: state)
        }
    }

    public func releaseChannelState(_ channelKey: String, historyKey: String) async throws {
        try await run(
            "DELETE FROM networkChannelState WHERE channelKey = \(channelKey) AND historyKey = \(historyKey)")
    }

    public func channelStates(_ channelKeys: [String]) async throws -> [NetworkChannelState] {
        try await rows(
            """
            SELECT channelKey, historyKey, version, state FROM networkChannelState
            WHERE channelKey = ANY(\(channelKeys)::text[]) AND state IS NOT NULL
            """
        ).map { row in
            let (key, history, version, state) = try row.decode((String, String, Int64, String).self)
            return NetworkChannelState(channelKey: key, historyKey: history, version: version, state: state)
        }
    }
}
