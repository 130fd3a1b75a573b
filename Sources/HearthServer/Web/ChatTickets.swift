import Foundation
import HearthCrypto
import HearthKit
import HearthStore

/// One-time sign-in tickets for the web chat. The site's session is an HttpOnly cookie the chat's
/// script cannot read, so the page asks `POST /chat/ticket` for a ticket and sends it over SASL
/// PLAIN as the account's password. A ticket works once, for its account only, within `lifetime`;
/// it carries the session's resume-token hash, so the chat's login is that session's. Tickets
/// are kept in the store (by hash), not in this process: behind a balancer the WebSocket may
/// reach another node than the one that gave the ticket.
enum ChatTickets {
    /// Seconds a ticket stays good: the page uses it at once, on a WebSocket opened right after.
    static let lifetime: TimeInterval = 60
    /// Most tickets waiting at once (all accounts); past it, expired ones are dropped, then none issued.
    static let maxOutstanding = 10_000
    static let prefix = "hct_"

    static func looksLikeTicket(_ text: String) -> Bool {
        text.hasPrefix(prefix) && text.utf8.count == prefix.utf8.count + 32
    }

    /// A new ticket for the session's account, or nil while `maxOutstanding` are waiting.
    static func issue(_ store: any ChatTicketStore, for account: AccountRef, tokenHash: String, now: Date = Date())
        async throws -> String?
    {
        let ticket = prefix + Sodium.hex(Sodium.randomBytes(16))
        let kept = ChatTicket(
            hash: Sodium.hashSecret(ticket), accountId: account.id, tokenHash: tokenHash,
            expiresAt: now.addingTimeInterval(lifetime))
        return try await store.saveChatTicket(kept, now: now, maxWaiting: maxOutstanding) ? ticket : nil
    }

    /// The ticket if it is unexpired; used up either way, so a ticket never gets a second try
    /// (whose it is, the caller checks against the session it names).
    static func redeem(_ store: any ChatTicketStore, _ ticket: String, now: Date = Date()) async throws
        -> ChatTicket?
    {
        guard looksLikeTicket(ticket) else { return nil }
        return try await store.takeChatTicket(hash: Sodium.hashSecret(ticket), now: now)
    }
}
