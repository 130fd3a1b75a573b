import Foundation
import PostgresNIO

/// Chat history search on PostgreSQL: `history.search`, a tsvector of the text ('simple') with
/// the line's scope as lexemes — "@" and its target, "@u:<id>" per account of a conversation —
/// under a GIN index (migration v17), so the scope is matched inside the index.
extension PostgresStore {
    public func searchHistory(_ search: HistorySearch) async throws -> [HistoryRecord] {
        guard !search.scope.isEmpty, !search.words.parts.isEmpty, search.limit > 0 else { return [] }
        var binds = PostgresBindings()
        binds.append(search.scope.tsquery)
        binds.append(search.words.tsquery)
        // The scope is a tsquery value (no parser runs on it); the words go through 'simple'.
        var conditions = ["search @@ ($1::tsquery && to_tsquery('simple', $2))"]
        if let after = search.after {
            binds.append(after)
            conditions.append("createdAt >= $\(binds.count)")
        }
        if let before = search.before {
            binds.append(before)
            conditions.append("createdAt <= $\(binds.count)")
        }
        if let pattern = search.sourcePattern {
            binds.append(pattern)
            conditions.append("source ILIKE $\(binds.count) ESCAPE '\\'")
        }
        binds.append(Int64(search.limit))
        let sql = """
            SELECT \(Self.historyColumns) FROM history WHERE \(conditions.joined(separator: " AND "))
            ORDER BY id DESC LIMIT $\(binds.count)
            """
        return try await rows(PostgresQuery(unsafeSQL: sql, binds: binds)).map(Self.record).reversed()
    }
}

extension HistoryScope {
    /// The scope as a tsquery text of quoted lexemes (a quote or backslash in a name escaped).
    var tsquery: String {
        let lexemes = targets.map { "@" + $0 } + (conversationsOf.map { ["@u:\($0)"] } ?? [])
        return lexemes.map {
            "'" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
        }.joined(separator: " | ")
    }
}
