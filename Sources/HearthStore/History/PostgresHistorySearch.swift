import Foundation
import PostgresNIO

/// Chat history search on PostgreSQL: `history.search`, a tsvector of the text ('simple') with
/// the line's scope as lexemes — "@" and its target, "@u:<id>" per account of a conversation —
/// under a GIN index (migration v17), read newest first in id windows (`HistorySearchWindows`).
extension PostgresStore {
    public func searchHistory(_ search: HistorySearch) async throws -> [HistoryRecord] {
        guard !search.scope.isEmpty, !search.words.parts.isEmpty, search.limit > 0 else { return [] }
        let newestRow = try await rows("SELECT max(id) FROM history").first
        guard var upTo = try newestRow?.decode(Int64?.self) else { return [] }
        var found: [HistoryRecord] = []
        let newest = upTo
        let pairs = search.words.pairGroups.flatMap {
            HistorySearchScopedPairs.tsquery(groups: $0, scope: search.scope)
        }
        while found.count < search.limit, upTo > 0 {
            let window = HistorySearchWindows.next(
                upTo: upTo, covered: newest - upTo, found: found.count, need: search.limit - found.count,
                byPairs: pairs != nil)
            found += try await searchHistory(
                search, window, pairs: pairs, upTo: upTo, limit: search.limit - found.count)
            upTo = window.above ?? 0
        }
        return found.reversed()
    }

    /// Writes the scoped word pairs of lines from before migration v41, newest first (and drops
    /// v39's bare ones, which nothing reads now). Rows taken by another node's backfill are
    /// skipped (SKIP LOCKED), so nodes share the work. Each line done leaves a dead entry in the
    /// partial index that phrase searches read until autovacuum (it comes on its own after a
    /// fifth of the table changed) cleans it.
    public func indexHistoryForSearch(batch: Int) async throws -> Int {
        try await indexHistoryForSearch(batch: batch, target: nil)
    }

    /// The same for one target's lines (a retired channel's), or all when nil.
    func indexHistoryForSearch(batch: Int, target: String?) async throws -> Int {
        var binds = PostgresBindings()
        binds.append(Int64(batch))
        if let target { binds.append(target) }
        let select = PostgresQuery(
            unsafeSQL: """
                SELECT id, target, command, text FROM history
                WHERE searchScopedPairs IS NULL AND command IN ('PRIVMSG', 'NOTICE')
                  \(target == nil ? "" : "AND target = $2")
                ORDER BY id DESC LIMIT $1 FOR UPDATE SKIP LOCKED
                """, binds: binds)
        return try await transaction { db in
            let lines = try await db.query(select, logger: self.logger).collect().map { row in
                let (id, target, command, text) = try row.decode((Int64, String, String, String).self)
                return (id, Self.searchPairs(command: command, target: target, text: text))
            }
            guard !lines.isEmpty else { return 0 }
            try await db.query(
                """
                UPDATE history SET searchScopedPairs = array_to_tsvector(string_to_array(u.p, ',')), searchPairs = NULL
                FROM unnest(\(lines.map(\.0))::bigint[], \(lines.map(\.1))::text[]) AS u(i, p) WHERE history.id = u.i
                """, logger: self.logger)
            return lines.count
        }
    }

    /// The newest `limit` matches with ids in a window, newest first. `pairs`: the phrases' word
    /// pairs in the reader's scope (`HistorySearchScopedPairs`), which a bitmap reads from their
    /// index instead of the words'.
    private func searchHistory(
        _ search: HistorySearch, _ window: HistorySearchWindows.Window, pairs: String?, upTo: Int64, limit: Int
    ) async throws -> [HistoryRecord] {
        var binds = PostgresBindings()
        binds.append(search.scope.tsquery)
        binds.append(search.words.tsquery)
        // The scope is a tsquery value (no parser runs on it); the words go through 'simple'. The
        // scope, a dozen lexemes or more, is never read from the index (merging their posting lists
        // took 40 ms a search over a million lines): `ts_match_vq`, the function behind `@@` that no
        // index answers, checks it on the rows read. So it does the words in a backward window.
        let words = "to_tsquery('simple', $2)"
        let byPairs = window.read == .bitmap && pairs != nil
        var conditions = [
            window.read == .backward || byPairs ? "ts_match_vq(search, \(words))" : "search @@ \(words)",
            "ts_match_vq(search, $1::tsquery)",
        ]
        if byPairs, let pairs {
            // A phrase of common words: its words are each in a third of the lines, its pairs in a
            // few, and in the reader's scope fewer again. Lines written before the scoped pairs were
            // (NULL until `indexHistoryForSearch`) are all candidates, from their partial index;
            // `search` then decides, as without pairs.
            binds.append(pairs)
            conditions.append(
                "(searchScopedPairs @@ $\(binds.count)::tsquery "
                    + "OR (searchScopedPairs IS NULL AND command IN ('PRIVMSG', 'NOTICE')))")
        }
        binds.append(upTo)
        // A bitmap reads all the rest: only the words' index may serve it (`id + 0` is no key range),
        // or a planner without statistics yet (a fresh table) took the key's bitmap of every row.
        conditions.append("\(window.read == .bitmap ? "id + 0" : "id") <= $\(binds.count)")
        if let above = window.above {
            binds.append(above)
            conditions.append("id > $\(binds.count)")
        }
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
        binds.append(Int64(limit))
        let query = PostgresQuery(
            unsafeSQL: "SELECT \(Self.historyColumns) FROM history WHERE \(conditions.joined(separator: " AND ")) "
                + "ORDER BY id DESC LIMIT $\(binds.count)", binds: binds)
        guard window.read == .bitmap else { return try await rows(query).map(Self.record) }
        // The bitmap: left to itself the planner scans backward, hoping for matches it has badly
        // guessed (a word's 160,000 older rows: 60 ms where the bitmap took 5).
        let logger = self.logger
        return try await transaction { db in
            _ = try await db.rows(
                "SELECT set_config('enable_indexscan', 'off', true), set_config('enable_seqscan', 'off', true)",
                logger)
            return try await db.rows(query, logger).map(Self.record)
        }
    }
}

/// The id windows a PostgreSQL search reads, newest first, and how. GIN matches in no order: a
/// common word's thousands of matches were all fetched and sorted to keep the newest 100 (200 ms
/// over a million lines). First the newest `first` ids are read backward, row by row (a quarter
/// of a microsecond each); while the hits so far say the rest is within `scanRows`, a backward
/// window of 1.5 times what they predict; else the index's bitmap over all the older lines, fetching
/// only the word's matches, which are few there (their density decided it). A phrase with scoped
/// pairs fetches about its matches in the reader's scope from their bitmap: that is read instead
/// of a backward window when the matches below, at the density so far, cost less to fetch than
/// the window's rows to read. The last window has no lower end, so no match is ever left out.
enum HistorySearchWindows {
    static let first: Int64 = 20_000
    static let scanRows: Int64 = 240_000
    /// A row fetched from a bitmap costs about as much as this many read backward (7 µs a
    /// candidate of the pairs' bitmap, 0.26 µs a row of a backward window: issue 38's profile).
    static let bitmapRowCost: Int64 = 25

    enum Read: Equatable { case backward, bitmap }

    struct Window: Equatable {
        /// Ids above this (none: down to the first line), up to the last window's lower end.
        var above: Int64?
        var read: Read
    }

    /// The window below `upTo`, after `covered` ids gave `found` matches and `need` more are wanted;
    /// `byPairs`: a bitmap would read the scoped pairs' index.
    static func next(upTo: Int64, covered: Int64, found: Int, need: Int, byPairs: Bool = false) -> Window {
        var size = first
        if covered > 0 {
            // Half as many again as the hits so far predict, so a window seldom falls just short.
            let predicted = found > 0 ? Int64(need) * 3 * covered / (2 * Int64(found)) : Int64.max
            guard predicted <= scanRows else { return Window(above: nil, read: .bitmap) }
            if byPairs, Int64(found) * upTo / covered * bitmapRowCost < predicted {
                return Window(above: nil, read: .bitmap)
            }
            size = max(predicted, 1)
        }
        return Window(above: upTo > size ? upTo - size : nil, read: .backward)
    }
}

extension HistoryScope {
    /// The scope's lexemes in `search`: "@" and each target, "@u:<id>" for its conversations.
    var lexemes: [String] { targets.map { "@" + $0 } + (conversationsOf.map { ["@u:\($0)"] } ?? []) }

    /// The scope as a tsquery text of quoted lexemes.
    var tsquery: String { lexemes.map(Self.quoted).joined(separator: " | ") }

    /// A lexeme quoted for a tsquery text (a quote or backslash in a name escaped).
    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}
