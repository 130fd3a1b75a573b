import Foundation
import PostgresNIO

extension PostgresStore: ChatTicketStore {
    public func saveChatTicket(_ ticket: ChatTicket, now: Date, maxWaiting: Int) async throws -> Bool {
        try await transaction { db in
            // One writer counts at a time: two nodes issuing at once cannot both take the last place.
            try await db.query("LOCK TABLE chatTicket IN SHARE ROW EXCLUSIVE MODE", logger: self.logger)
            try await db.query("DELETE FROM chatTicket WHERE expiresAt <= \(now)", logger: self.logger)
            let waiting = try await db.query("SELECT COUNT(*) FROM chatTicket", logger: self.logger)
                .collect()[0].decode(Int64.self)
            guard waiting < maxWaiting else { return false }
            try await db.query(
                """
                INSERT INTO chatTicket (hash, accountId, tokenHash, expiresAt)
                VALUES (\(ticket.hash), \(ticket.accountId), \(ticket.tokenHash), \(ticket.expiresAt))
                """, logger: self.logger)
            return true
        }
    }

    public func takeChatTicket(hash: String, now: Date) async throws -> ChatTicket? {
        guard
            let row = try await rows(
                "DELETE FROM chatTicket WHERE hash = \(hash) RETURNING accountId, tokenHash, expiresAt"
            ).first
        else { return nil }
        let (account, tokenHash, expires) = try row.decode((Int64, String, Date).self)
        let ticket = ChatTicket(hash: hash, accountId: account, tokenHash: tokenHash, expiresAt: expires)
        return expires > now ? ticket : nil
    }
}
