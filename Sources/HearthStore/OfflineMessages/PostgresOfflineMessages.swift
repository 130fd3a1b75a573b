import Foundation
import PostgresNIO

/// Private messages kept for registered users who are offline, on PostgreSQL.
extension PostgresStore: OfflineMessageStore {
    /// The recipient's account row is locked for the transaction, so concurrent senders take
    /// turns and the inbox limit holds exactly.
    public func keepOfflineMessage(
        recipientKey: String, senderID: Int64, senderName: String, text: String, now: Date
    ) async throws -> OfflineResult {
        try await transaction { db in
            guard
                let recipient = try await db.rows(
                    "SELECT id FROM account WHERE nameKey = \(recipientKey) FOR UPDATE", self.logger
                ).first?.decode(Int64.self)
            else { return .noSuchAccount }
            let blocked = try await db.rows(
                "SELECT 1 FROM block WHERE blockerId = \(recipient) AND blockedId = \(senderID)", self.logger)
            let waiting = try await db.rows(
                "SELECT COUNT(*) FROM offlineMessage WHERE recipientId = \(recipient)", self.logger)[0].decode(
                    Int64.self)
            if let refusal = OfflineMessageRules.refusal(senderBlocked: !blocked.isEmpty, waiting: Int(waiting)) {
                return refusal
            }
            try await db.query(
                """
                INSERT INTO offlineMessage (recipientId, senderId, senderName, text, createdAt)
                VALUES (\(recipient), \(senderID), \(senderName), \(text), \(now))
                """, logger: self.logger)
            return .stored
        }
    }

    /// Hands over (and forgets) the messages kept for an account, oldest first.
    public func takeOfflineMessages(for accountID: Int64) async throws -> [OfflineMessage] {
        try await rows(
            """
            WITH taken AS (DELETE FROM offlineMessage WHERE recipientId = \(accountID)
              RETURNING id, senderName, text, createdAt)
            SELECT senderName, text, createdAt FROM taken ORDER BY id
            """
        ).map { row in
            let (sender, text, at) = try row.decode((String, String, Date).self)
            return OfflineMessage(senderName: sender, text: text, createdAt: at)
        }
    }
}
