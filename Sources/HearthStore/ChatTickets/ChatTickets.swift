import Foundation

/// A web chat sign-in ticket as kept (by its hash: the secret itself is kept nowhere): whose
/// it is, the site session it stands for, and when it stops working. Kept in the store, not in
/// one process, so a ticket one node gave works on the node the chat's WebSocket reaches.
public struct ChatTicket: Sendable, Equatable {
    public var hash: String
    public var accountId: Int64
    public var tokenHash: String
    public var expiresAt: Date

    public init(hash: String, accountId: Int64, tokenHash: String, expiresAt: Date) {
        (self.hash, self.accountId, self.tokenHash, self.expiresAt) = (hash, accountId, tokenHash, expiresAt)
    }
}

public protocol ChatTicketStore: Sendable {
    /// Keeps a new ticket after sweeping the expired ones; false when `maxWaiting` unexpired
    /// tickets are kept already (none is added).
    func saveChatTicket(_ ticket: ChatTicket, now: Date, maxWaiting: Int) async throws -> Bool

    /// Takes the ticket out (in one statement, so of two nodes redeeming it at once one gets it)
    /// and gives it back if it has not expired: a ticket works once, and a late try uses it up.
    func takeChatTicket(hash: String, now: Date) async throws -> ChatTicket?
}
