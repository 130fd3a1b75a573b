import Foundation

/// A saying a user wrote for fortune cookies: their friends' cookies may draw it, and once
/// proposed and approved by a moderator, everyone's.
public struct SayingRecord: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Kept for the author's friends (a rejected proposal goes back to this).
        case friends
        /// Waiting in the moderators' queue.
        case proposed
        /// In the public pool.
        case approved
    }

    public var accountId: Int64
    public var text: String
    public var status: Status
    public var createdAt: Date
    /// When a moderator last decided on it, and who (nil: nobody yet).
    public var decidedAt: Date?
    public var decidedBy: Int64?

    public init(accountId: Int64, text: String, status: Status = .friends, now: Date) {
        (self.accountId, self.text, self.status, self.createdAt) = (accountId, text, status, now)
    }
}

/// A saying with its author's name, for crediting it.
public struct SayingRow: Sendable, Equatable {
    public var saying: Stored<SayingRecord>
    public var author: String
    public init(saying: Stored<SayingRecord>, author: String) { (self.saying, self.author) = (saying, author) }
}

/// The sayings part of the store, the same on every engine.
public protocol SayingStore: Sendable {
    /// Adds a saying unless its author already has `maxPerAccount` (nil then, nothing added).
    func addSaying(_ saying: SayingRecord, maxPerAccount: Int) async throws -> Stored<SayingRecord>?

    func saying(id: Int64) async throws -> SayingRow?

    /// An account's own sayings, newest first.
    func sayings(of accountID: Int64) async throws -> [Stored<SayingRecord>]

    /// Sayings in `status` with their authors, oldest first, at most `limit`.
    func sayings(status: SayingRecord.Status, limit: Int) async throws -> [SayingRow]

    func sayingCount(status: SayingRecord.Status) async throws -> Int

    /// The sayings of `accountID`'s friends (mutual follows), newest first, at most `limit`.
    func friendSayings(of accountID: Int64, limit: Int) async throws -> [SayingRow]

    /// Moves a saying to `status` if it is in one of `from` (and, when `author` is given, is
    /// theirs), noting who decided when `decidedBy` is given. False when it was not.
    func moveSaying(
        id: Int64, from: Set<SayingRecord.Status>, to status: SayingRecord.Status, author: Int64?,
        decidedBy: Int64?, now: Date
    ) async throws -> Bool

    /// Offers the author's friends-only saying to the moderators, unless `maxProposed` wait already:
    /// counted in the same transaction as the move, so concurrent proposals cannot pass the limit.
    func proposeSaying(id: Int64, author: Int64, maxProposed: Int) async throws -> SayingProposal

    /// Deletes a saying its author wrote.
    func deleteSaying(id: Int64, by accountID: Int64) async throws -> Bool
}

/// What `proposeSaying` did.
public enum SayingProposal: Sendable, Equatable {
    case proposed
    /// The moderators' queue is full; nothing changed.
    case queueFull
    /// Not the author's, or not friends-only (any more).
    case notMovable
}
