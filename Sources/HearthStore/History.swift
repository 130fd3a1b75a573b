import Foundation
import GRDB

/// One stored message. `target` is a folded channel name, or `pm:<id>:<id>` (account ids,
/// smaller first) for a private conversation between two accounts.
public struct HistoryRecord: Sendable {
    public var target: String
    public var msgid: String
    /// `nick!user@host` of the sender.
    public var source: String
    public var command: String
    public var text: String
    public var createdAt: Date

    public init(target: String, msgid: String, source: String, command: String, text: String, createdAt: Date) {
        self.target = target
        self.msgid = msgid
        self.source = source
        self.command = command
        self.text = text
        self.createdAt = createdAt
    }

    public static func conversation(_ a: Int64, _ b: Int64) -> String {
        "pm:\(min(a, b)):\(max(a, b))"
    }
}

extension Store {
    /// Writes a batch in one transaction with one prepared statement.
    public func appendHistory(_ records: [HistoryRecord]) async throws {
        guard !records.isEmpty else { return }
        try await pool.write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO history (target, msgid, source, command, text, createdAt) VALUES (?, ?, ?, ?, ?, ?)")
            for record in records {
                try statement.execute(arguments: [
                    record.target, record.msgid, record.source, record.command, record.text, record.createdAt,
                ])
            }
        }
    }

    /// The last `limit` messages of a target, oldest first.
    public func latestHistory(target: String, limit: Int) async throws -> [HistoryRecord] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM (SELECT * FROM history WHERE target = ? ORDER BY id DESC LIMIT ?) ORDER BY id
                    """, arguments: [target, limit])
            return rows.map {
                HistoryRecord(
                    target: $0["target"], msgid: $0["msgid"], source: $0["source"], command: $0["command"], text: $0["text"],
                    createdAt: $0["createdAt"])
            }
        }
    }

    /// Deletes messages older than `days`; returns how many went.
    @discardableResult
    public func expireHistory(olderThan days: Int, now: Date = Date()) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM history WHERE createdAt < ?", arguments: [now.addingTimeInterval(-Double(days) * 86_400)])
            return db.changesCount
        }
    }
}
