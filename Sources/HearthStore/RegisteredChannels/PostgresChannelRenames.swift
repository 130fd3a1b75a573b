import Foundation
import PostgresNIO

extension PostgresStore: ChannelRenameStore {
    public func renameChannel(from oldKey: String, to newKey: String, name: String) async throws {
        try await transaction { db in
            guard oldKey != newKey else {
                try await db.query(
                    "UPDATE registeredChannel SET name = \(name) WHERE nameKey = \(oldKey)", logger: self.logger)
                return
            }
            // The new row first, so the kept lists can point at it before the old one goes.
            let copied = try await db.query(
                """
                INSERT INTO registeredChannel
                  (nameKey, name, ownerId, topic, topicSetBy, topicSetAt, flags, channelKey, userLimit, createdAt)
                SELECT \(newKey), \(name), ownerId, topic, topicSetBy, topicSetAt, flags, channelKey, userLimit,
                  createdAt
                FROM registeredChannel WHERE nameKey = \(oldKey) RETURNING 1
                """, logger: self.logger
            ).collect()
            if !copied.isEmpty {
                for table in ChannelRenameRules.registeredChildren {
                    try await db.query(
                        "UPDATE \(unescaped: table) SET nameKey = \(newKey) WHERE nameKey = \(oldKey)",
                        logger: self.logger)
                }
                try await db.query("DELETE FROM registeredChannel WHERE nameKey = \(oldKey)", logger: self.logger)
            }
            // The lines' scoped pairs name the old key: written again under the new one after the move
            // (as a retirement's), else phrase searches by pairs would never find them there.
            try await db.query(
                "UPDATE history SET target = \(newKey), searchScopedPairs = NULL WHERE target = \(oldKey)",
                logger: self.logger)
            try await db.query("DELETE FROM readMarker WHERE target = \(newKey)", logger: self.logger)
            try await db.query(
                "UPDATE readMarker SET target = \(newKey) WHERE target = \(oldKey)", logger: self.logger)
        }
        // In the background: the rename's save (and every channel save queued behind it) must not wait
        // for a long history to be written again; meanwhile a phrase search checks those lines whole.
        Task {
            do {
                while try await indexHistoryForSearch(batch: historySearchIndexBatch, target: newKey) > 0 {}
            } catch {
                logger.warning("history search: indexing \(newKey)'s lines after a rename failed: \(error)")
            }
        }
    }
}
