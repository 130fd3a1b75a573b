import Foundation

/// One stored message. `target` is a folded channel name, or `pm:<id>:<id>` (account ids,
/// smaller first) for a private conversation between two accounts.
public struct HistoryRecord: Sendable {
    public var target: String
    public var msgid: String
    /// `nick!user@host` of the sender.
    public var source: String
    /// The sender's account, if logged in.
    public var accountID: Int64?
    public var command: String
    public var text: String
    public var createdAt: Date
    /// The sender's client-only tags (`+draft/reply=…;+draft/react=…`) as written on the wire,
    /// escaped; empty when it had none. The store keeps them as they are.
    public var tags: String
    /// The message this one acts on: a reply's or a reaction's `+draft/reply`, an edit's
    /// target. Reactions and edits of a message go when it is redacted (`HistoryRules`).
    public var refMsgid: String?

    public init(
        target: String, msgid: String, source: String, accountID: Int64? = nil, command: String, text: String,
        createdAt: Date, tags: String = "", refMsgid: String? = nil
    ) {
        self.target = target
        self.msgid = msgid
        self.source = source
        self.accountID = accountID
        self.command = command
        self.text = text
        self.createdAt = createdAt
        self.tags = tags
        self.refMsgid = refMsgid
    }

    public static func conversation(_ a: Int64, _ b: Int64) -> String {
        "pm:\(min(a, b)):\(max(a, b))"
    }

    /// The two accounts of a `conversation` key ("pm:A:B"); none for a channel's key.
    public static func conversationAccounts(_ target: some StringProtocol) -> [Int64] {
        guard target.hasPrefix("pm:") else { return [] }
        return target.dropFirst(3).split(separator: ":").compactMap { Int64($0) }
    }
}

/// An account was in one incarnation of an unregistered channel, so it may read what was
/// said there later (see `Core.historyKey(forNew:)`).
public struct HistoryAccess: Sendable, Hashable {
    public var target: String
    public var accountID: Int64

    public init(target: String, accountID: Int64) {
        self.target = target
        self.accountID = accountID
    }
}

/// A point in a target's history: a message id or a time.
public enum HistoryRef: Sendable, Equatable {
    case msgid(String)
    case time(Date)
}

/// The history part of the store, the same on every engine.
public protocol HistoryStore: Sendable {
    /// Writes a batch whole or not at all, its lines in their order (CHATHISTORY's cursors follow
    /// it), with the grants of access to channel incarnations collected since the last batch.
    func appendHistory(_ records: [HistoryRecord], access: [HistoryAccess]) async throws

    /// A registered channel stopped being one: what was said in it moves under `newTarget`
    /// (an incarnation), readable by the accounts in `access` only, so whoever registers
    /// the name next does not inherit it.
    func retireHistory(target: String, to newTarget: String, access: [HistoryAccess]) async throws

    /// The history targets of a channel that an account may read: the live incarnation
    /// `current`, and earlier incarnations of the same channel the account was in.
    func readableHistoryTargets(channel: String, current: String, accountID: Int64?) async throws -> [String]

    /// The last `limit` messages of some targets, oldest first.
    func latestHistory(targets: [String], limit: Int) async throws -> [HistoryRecord]

    func expireHistory(olderThan days: Int, now: Date) async throws -> Int

    /// Messages of `targets` strictly after `after` and before `before` (either may be nil),
    /// at most `limit`, taken from the newest end when `newestFirst`; returned oldest first.
    func history(
        targets: [String], after: HistoryRef?, before: HistoryRef?, limit: Int, newestFirst: Bool, includeAfter: Bool
    ) async throws -> [HistoryRecord]

    /// Conversations and channels whose latest message falls strictly between two times,
    /// earliest first: the channels in `channels`, and conversations that include `accountID`.
    func historyTargets(channels: [String], accountID: Int64?, from: Date, to: Date, limit: Int) async throws -> [(
        target: String, latest: Date
    )]

    /// The stored message with this msgid in one of these targets, if any.
    func historyMessage(targets: [String], msgid: String) async throws -> HistoryRecord?

    /// Removes a message from history (message redaction), with the reactions and edits that
    /// act on it (`HistoryRules.dependentCommands`); replies stay.
    func deleteHistoryMessage(targets: [String], msgid: String) async throws

    func readMarker(accountID: Int64, target: String) async throws -> Date?

    /// Moves a read marker forward (never back) and returns where it is now.
    func advanceReadMarker(accountID: Int64, target: String, to date: Date) async throws -> Date
}

extension HistoryStore {
    public func appendHistory(_ records: [HistoryRecord]) async throws {
        try await appendHistory(records, access: [])
    }

    public func expireHistory(olderThan days: Int) async throws -> Int {
        try await expireHistory(olderThan: days, now: Date())
    }

    public func history(targets: [String], after: HistoryRef?, before: HistoryRef?, limit: Int, newestFirst: Bool)
        async throws -> [HistoryRecord]
    {
        try await history(
            targets: targets, after: after, before: before, limit: limit, newestFirst: newestFirst, includeAfter: false)
    }
}
