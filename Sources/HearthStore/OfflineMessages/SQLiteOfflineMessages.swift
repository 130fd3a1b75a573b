import Foundation
import GRDB

/// Private messages kept for registered users who are offline.
extension SQLiteStore {
    /// Keeps a message for the account called `recipientKey`, in one transaction with the
    /// checks (account exists, sender not blocked, inbox not full).
    public func keepOfflineMessage(
        recipientKey: String, senderID: Int64, senderName: String, text: String, now: Date = Date()
    ) async throws -> OfflineResult {
        try await pool.write { db in
            guard
                let recipient = try Int64.fetchOne(
                    db, sql: "SELECT id FROM account WHERE nameKey = ?", arguments: [recipientKey])
            else { return .noSuchAccount }
            let blocked = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM block WHERE blockerId = ? AND blockedId = ?", arguments: [recipient, senderID])
            let waiting =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM offlineMessage WHERE recipientId = ?", arguments: [recipient]) ?? 0
            if let refusal = OfflineMessageRules.refusal(senderBlocked: blocked != nil, waiting: waiting) {
                return refusal
            }
            try db.execute(
                sql: """
                    INSERT INTO offlineMessage (recipientId, senderId, senderName, text, createdAt)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [recipient, senderID, senderName, text, now])
            return .stored
        }
    }

    /// Hands over (and forgets) the messages kept for an account, oldest first.
    public func takeOfflineMessages(for accountID: Int64) async throws -> [OfflineMessage] {
        try await pool.write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT senderName, text, createdAt FROM offlineMessage WHERE recipientId = ? ORDER BY id",
                arguments: [accountID])
            try db.execute(sql: "DELETE FROM offlineMessage WHERE recipientId = ?", arguments: [accountID])
            return rows.map {
                OfflineMessage(senderName: $0["senderName"], text: $0["text"], createdAt: $0["createdAt"])
            }
        }
    }
}
