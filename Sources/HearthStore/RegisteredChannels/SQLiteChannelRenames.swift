import Foundation
import GRDB

extension SQLiteStore: ChannelRenameStore {
    public func renameChannel(from oldKey: String, to newKey: String, name: String) async throws {
        try await pool.write { db in
            guard oldKey != newKey else {
                try db.execute(
                    sql: "UPDATE registeredChannel SET name = ? WHERE nameKey = ?", arguments: [name, oldKey])
                return
            }
            if var record = try RegisteredChannel.fetchOne(db, key: oldKey) {
                // The new row first, so the kept lists can point at it before the old one goes.
                (record.nameKey, record.name) = (newKey, name)
                try record.insert(db)
                for table in ChannelRenameRules.registeredChildren {
                    try db.execute(
                        sql: "UPDATE \(table) SET nameKey = ? WHERE nameKey = ?", arguments: [newKey, oldKey])
                }
                _ = try RegisteredChannel.deleteOne(db, key: oldKey)
            }
            try db.execute(sql: "UPDATE history SET target = ? WHERE target = ?", arguments: [newKey, oldKey])
            try db.execute(sql: "DELETE FROM readMarker WHERE target = ?", arguments: [newKey])
            try db.execute(sql: "UPDATE readMarker SET target = ? WHERE target = ?", arguments: [newKey, oldKey])
        }
    }
}
