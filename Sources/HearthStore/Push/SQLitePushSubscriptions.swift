import Foundation
import GRDB

extension SQLiteStore: PushSubscriptionStore {
    public func savePushSubscription(_ s: PushSubscription, now: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM pushSubscription WHERE expiresAt <= ?", arguments: [now])
            let owner = try Int64.fetchOne(
                db, sql: "SELECT accountId FROM pushSubscription WHERE endpoint = ?", arguments: [s.endpoint])
            let held =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM pushSubscription WHERE accountId = ?", arguments: [s.accountId]) ?? 0
            guard PushRules.mayAdd(alreadyTheirs: owner == s.accountId, held: held) else { return false }
            try db.execute(
                sql: """
                    INSERT INTO pushSubscription
                      (endpoint, accountId, p256dh, auth, source, kinds, createdAt, expiresAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (endpoint) DO UPDATE SET accountId = excluded.accountId, p256dh = excluded.p256dh,
                      auth = excluded.auth, source = excluded.source, kinds = excluded.kinds,
                      expiresAt = excluded.expiresAt
                    """,
                arguments: [
                    s.endpoint, s.accountId, s.p256dh, s.auth, s.source.rawValue, PushKind.text(s.kinds), s.createdAt,
                    s.expiresAt,
                ])
            return true
        }
    }

    public func pushSubscriptions(accountID: Int64, now: Date) async throws -> [PushSubscription] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM pushSubscription WHERE accountId = ? AND expiresAt > ? ORDER BY createdAt, endpoint
                    """,
                arguments: [accountID, now]
            ).map { row in
                PushSubscription(
                    accountId: row["accountId"], endpoint: row["endpoint"], p256dh: row["p256dh"], auth: row["auth"],
                    source: PushSubscription.Source(rawValue: row["source"]) ?? .web,
                    kinds: PushKind.set(row["kinds"]), createdAt: row["createdAt"], expiresAt: row["expiresAt"])
            }
        }
    }

    @discardableResult
    public func removePushSubscription(endpoint: String, accountID: Int64?) async throws -> Bool {
        try await pool.write { db in
            if let accountID {
                try db.execute(
                    sql: "DELETE FROM pushSubscription WHERE endpoint = ? AND accountId = ?",
                    arguments: [endpoint, accountID])
            } else {
                try db.execute(sql: "DELETE FROM pushSubscription WHERE endpoint = ?", arguments: [endpoint])
            }
            return db.changesCount > 0
        }
    }
}
