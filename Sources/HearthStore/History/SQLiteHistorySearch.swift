import Foundation
import GRDB

/// Chat history search on SQLite: `historySearch`, an FTS5 index over `historySearchSource` (a
/// view of the PRIVMSG and NOTICE lines), kept by triggers (migration v19). Each line is
/// indexed with its scope — a token for its target and one per account of a conversation — so
/// "in what this reader may read" is matched inside the index, not row by row.
extension SQLiteStore {
    public func searchHistory(_ search: HistorySearch) async throws -> [HistoryRecord] {
        guard !search.scope.isEmpty, !search.words.parts.isEmpty, search.limit > 0 else { return [] }
        let match = "scope : (\(search.scope.fts5Match)) AND text : (\(search.words.fts5Match))"
        var conditions = ["historySearch MATCH :match"]
        if search.after != nil { conditions.append("history.createdAt >= :after") }
        if search.before != nil { conditions.append("history.createdAt <= :before") }
        if search.sourcePattern != nil { conditions.append("history.source LIKE :source ESCAPE '\\'") }
        let sql = """
            SELECT history.* FROM historySearch JOIN history ON history.id = historySearch.rowid
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY historySearch.rowid DESC LIMIT :limit
            """
        return try await pool.read { db in
            var arguments: [String: (any DatabaseValueConvertible)?] = ["match": match, "limit": search.limit]
            if let after = search.after { arguments["after"] = after }
            if let before = search.before { arguments["before"] = before }
            if let pattern = search.sourcePattern { arguments["source"] = pattern }
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
                .map(HistoryRecord.init(row:)).reversed()
        }
    }

    /// None to do: FTS5's triggers index every line as it is written, and its migrations the rest.
    public func indexHistoryForSearch(batch: Int) async throws -> Int { 0 }
}

extension HistoryScope {
    /// The scope as FTS5 tokens of `historySearchSource.scope`: "c" and the target's UTF-8 bytes
    /// in hex (one token whatever the name holds), "u<id>" for an account's conversations.
    var fts5Match: String {
        let tokens =
            targets.map { "c" + $0.utf8.map { String(format: "%02X", $0) }.joined() }
            + (conversationsOf.map { ["u\($0)"] } ?? [])
        return tokens.map { "\"\($0)\"" }.joined(separator: " OR ")
    }
}
