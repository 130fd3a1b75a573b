import Foundation

/// The history one reader may search: the keys of channel incarnations (as CHATHISTORY reads
/// them) and, when `conversationsOf` is set, every conversation that account is in.
public struct HistoryScope: Sendable, Equatable {
    public var targets: [String]
    public var conversationsOf: Int64?

    public init(targets: [String], conversationsOf: Int64?) {
        self.targets = targets
        self.conversationsOf = conversationsOf
    }

    public var isEmpty: Bool { targets.isEmpty && conversationsOf == nil }
}

/// A full-text search of chat history: words, where, optional bounds (`after`, `before`
/// inclusive; `fromNick`, the sender's nick, ASCII case-insensitive) and how many lines.
public struct HistorySearch: Sendable {
    public var words: TextSearch
    public var scope: HistoryScope
    public var fromNick: String?
    public var after: Date?
    public var before: Date?
    public var limit: Int

    public init(
        words: TextSearch, scope: HistoryScope, fromNick: String? = nil, after: Date? = nil, before: Date? = nil,
        limit: Int
    ) {
        (self.words, self.scope, self.fromNick, self.after, self.before) = (words, scope, fromNick, after, before)
        self.limit = limit
    }

    /// `fromNick` as a LIKE pattern for `source` ("nick!…"), with `\` escaping LIKE's wildcards.
    public var sourcePattern: String? {
        fromNick.map { nick in
            var escaped = ""
            for c in nick {
                if c == "\\" || c == "%" || c == "_" { escaped.append("\\") }
                escaped.append(c)
            }
            return escaped + "!%"
        }
    }
}

/// Full-text search of chat history, the same on every engine.
public protocol HistorySearchStore: HistoryStore {
    /// The newest `search.limit` PRIVMSG and NOTICE lines matching a search in its scope (a
    /// redacted line leaves the index with its row), returned oldest first.
    func searchHistory(_ search: HistorySearch) async throws -> [HistoryRecord]

    /// Indexes up to `batch` lines written before this version's search index, newest first, each
    /// batch a short transaction of its own; returns how many, 0 when none are left. Searches are
    /// the same before and after, only faster.
    func indexHistoryForSearch(batch: Int) async throws -> Int
}

/// Lines a search-index backfill takes at a time (a fraction of a second on PostgreSQL).
public let historySearchIndexBatch = 2000

extension HistoryStore {
    /// What a reader may search, the same history CHATHISTORY lets them read (one rule): each
    /// channel they are in now — `key` its folded name, `current` its live incarnation's history
    /// key — with the earlier incarnations their account was in, and their own conversations.
    /// Never a channel they are not in, never other people's conversations.
    public func searchScope(channels: [(key: String, current: String)], accountID: Int64?) async throws
        -> HistoryScope
    {
        var targets: [String] = []
        for channel in channels {
            targets += try await readableHistoryTargets(
                channel: channel.key, current: channel.current, accountID: accountID)
        }
        return HistoryScope(targets: targets, conversationsOf: accountID)
    }
}
