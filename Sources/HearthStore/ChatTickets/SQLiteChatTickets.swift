import Foundation
import GRDB

extension SQLiteStore: ChatTicketStore {
    public func saveChatTicket(_ ticket: ChatTicket, now: Date, maxWaiting: Int) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM chatTicket WHERE expiresAt <= ?", arguments: [now])
            let waiting = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chatTicket") ?? 0
            guard waiting < maxWaiting else { return false }
            try db.execute(
                sql: "INSERT INTO chatTicket (hash, accountId, tokenHash, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [ticket.hash, ticket.accountId, ticket.tokenHash, ticket.expiresAt])
            return true
        }
    }

    public func takeChatTicket(hash: String, now: Date) async throws -> ChatTicket? {
        try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "DELETE FROM chatTicket WHERE hash = ? RETURNING accountId, tokenHash, expiresAt",
                    arguments: [hash])
            else { return nil }
            let ticket = ChatTicket(
                hash: hash, accountId: row["accountId"], tokenHash: row["tokenHash"], expiresAt: row["expiresAt"])
            return ticket.expiresAt > now ? ticket : nil
        }
    }
}
