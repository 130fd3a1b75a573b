import Foundation
import PostgresNIO

extension PostgresStore: PushSubscriptionStore {
    public func savePushSubscription(_ s: PushSubscription, now: Date) async throws -> Bool {
        try await transaction { db in
            try await db.query("DELETE FROM pushSubscription WHERE expiresAt <= \(now)", logger: self.logger)
            // The account's row lock: two devices subscribing at once cannot both take the last place.
            try await db.query("SELECT 1 FROM account WHERE id = \(s.accountId) FOR UPDATE", logger: self.logger)
            let owner = try await db.query(
                "SELECT accountId FROM pushSubscription WHERE endpoint = \(s.endpoint)", logger: self.logger
            ).collect().first?.decode(Int64.self)
            let held = try await db.query(
                "SELECT COUNT(*) FROM pushSubscription WHERE accountId = \(s.accountId)", logger: self.logger
            ).collect()[0].decode(Int64.self)
            guard PushRules.mayAdd(alreadyTheirs: owner == s.accountId, held: Int(held)) else { return false }
            try await db.query(
                """
                INSERT INTO pushSubscription (endpoint, accountId, p256dh, auth, source, kinds, createdAt, expiresAt)
                VALUES (\(s.endpoint), \(s.accountId), \(s.p256dh), \(s.auth), \(s.source.rawValue),
                  \(PushKind.text(s.kinds)), \(s.createdAt), \(s.expiresAt))
                ON CONFLICT (endpoint) DO UPDATE SET accountId = excluded.accountId, p256dh = excluded.p256dh,
                  auth = excluded.auth, source = excluded.source, kinds = excluded.kinds,
                  expiresAt = excluded.expiresAt
                """, logger: self.logger)
            return true
        }
    }

    public func pushSubscriptions(accountID: Int64, now: Date) async throws -> [PushSubscription] {
        try await rows(
            """
            SELECT accountId, endpoint, p256dh, auth, source, kinds, createdAt, expiresAt FROM pushSubscription
            WHERE accountId = \(accountID) AND expiresAt > \(now) ORDER BY createdAt, endpoint
            """
        ).map { row in
            let (account, endpoint, p256dh, auth, source, kinds, created, expires) = try row.decode(
                (Int64, String, String, String, String, String, Date, Date).self)
            return PushSubscription(
                accountId: account, endpoint: endpoint, p256dh: p256dh, auth: auth,
                source: PushSubscription.Source(rawValue: source) ?? .web, kinds: PushKind.set(kinds),
                createdAt: created, expiresAt: expires)
        }
    }

    @discardableResult
    public func removePushSubscription(endpoint: String, accountID: Int64?) async throws -> Bool {
        if let accountID {
            return
                !(try await rows(
                    "DELETE FROM pushSubscription WHERE endpoint = \(endpoint) AND accountId = \(accountID) RETURNING 1"
                ))
                .isEmpty
        }
        return !(try await rows("DELETE FROM pushSubscription WHERE endpoint = \(endpoint) RETURNING 1")).isEmpty
    }
}
