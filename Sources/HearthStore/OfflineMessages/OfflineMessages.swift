import Foundation

public struct OfflineMessage: Sendable {
    public var senderName: String
    public var text: String
    public var createdAt: Date
}

public enum OfflineResult: Sendable, Equatable { case stored, noSuchAccount, inboxFull, blocked }

/// The offlinemessages part of the store, the same on every engine.
public protocol OfflineMessageStore: Sendable {
    /// Keeps a message for the account called `recipientKey`, in one transaction with the
    /// checks (account exists, sender not blocked, inbox not full).
    func keepOfflineMessage(recipientKey: String, senderID: Int64, senderName: String, text: String, now: Date)
        async throws -> OfflineResult

    /// Hands over (and forgets) the messages kept for an account, oldest first.
    func takeOfflineMessages(for accountID: Int64) async throws -> [OfflineMessage]
}

extension OfflineMessageStore {
    public func keepOfflineMessage(recipientKey: String, senderID: Int64, senderName: String, text: String) async throws
        -> OfflineResult
    {
        try await keepOfflineMessage(
            recipientKey: recipientKey, senderID: senderID, senderName: senderName, text: text, now: Date())
    }
}
