import Foundation
import GRDB

extension SQLiteStore: ServerBanStore {
    public func serverBans(now: Date) async throws -> [ServerBan] {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM serverBan WHERE expiresAt <= ?", arguments: [now])
            return try Row.fetchAll(
                db, sql: "SELECT target, kind, reason, setBy, createdAt, expiresAt FROM serverBan ORDER BY createdAt"
            ).map { row in
                ServerBan(
                    target: row["target"], kind: ServerBan.Kind(rawValue: row["kind"]) ?? .mask,
                    reason: row["reason"], setBy: row["setBy"], createdAt: row["createdAt"],
                    expiresAt: row["expiresAt"])
            }
        }
    }

    public func addServerBan(_ ban: ServerBan) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO serverBan (target, kind, reason, setBy, createdAt, expiresAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [ban.target, ban.kind.rawValue, ban.reason, ban.setBy, ban.createdAt, ban.expiresAt])
        }
    }

    public func removeServerBan(target: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM serverBan WHERE target = ?", arguments: [target])
            return db.changesCount == 1
        }
    }
}
