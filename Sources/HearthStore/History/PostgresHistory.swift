import Foundation
import PostgresNIO

/// Channel and conversation history, incarnation grants and read markers on PostgreSQL.
/// A batch of lines is one INSERT of arrays (`unnest`), however many lines it holds.
extension PostgresStore: HistoryStore {
    static let historyColumns = "target, msgid, source, accountId, command, text, createdAt, tags, refMsgid"

    static func record(_ row: PostgresRow) throws -> HistoryRecord {
        let (target, msgid, source, accountID, command, text, createdAt, tags, refMsgid) = try row.decode(
            (String, String, String, Int64?, String, String, Date, String, String?).self)
        return HistoryRecord(
            target: target, msgid: msgid, source: source, accountID: accountID, command: command, text: text,
            createdAt: createdAt, tags: tags, refMsgid: refMsgid)
    }

    /// Lines a history INSERT carries at most (`insertHistory`). PhraseSearchStoreTests writes 3,000
    /// lines in one batch and checks every line's pairs.
    static let historyInsertPart = 250

    /// Transactions a large batch is written in at once, and the lines it needs for that. One write
    /// stream reached about 14,000 lines/s whatever the search indexes' settings; two streams on one
    /// database 25,000 (issue 38: GIN's insertions do not serialize them, and two backends use two cores).
    static let historyWriters = 2
    static let historyWritersFrom = 2 * historyInsertPart

    public func appendHistory(_ records: [HistoryRecord], access: [HistoryAccess]) async throws {
        guard !records.isEmpty || !access.isEmpty else { return }
        // The parts wait for each other inside their transactions: with one connection, the second
        // would wait for the first's connection for ever (`--database-pool 1`).
        guard records.count >= Self.historyWritersFrom, poolSize >= Self.historyWriters else {
            try await transaction { db in
                try await Self.insertHistory(db, records, ids: nil, self.logger)
                try await Self.grant(db, access, self.logger)
            }
            return
        }
        // The ids are taken in order first, so the parts' lines keep the batch's order (CHATHISTORY's
        // cursors and every window are by id); the parts then commit in that order too.
        let ids = try await rows(
            "SELECT nextval(pg_get_serial_sequence('history', 'id')) FROM generate_series(1, \(records.count))"
        ).map { try $0.decode(Int64.self) }.sorted()
        let size = (records.count + Self.historyWriters - 1) / Self.historyWriters
        let starts = Array(stride(from: 0, to: records.count, by: size))
        let turns = CommitTurns(parts: starts.count)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (turn, start) in starts.enumerated() {
                let range = start..<min(records.count, start + size)
                let last = turn == starts.count - 1
                group.addTask {
                    do {
                        try await self.transaction { db in
                            try await Self.insertHistory(
                                db, Array(records[range]), ids: Array(ids[range]), self.logger)
                            if last { try await Self.grant(db, access, self.logger) }
                            turns.wrote()
                            try await turns.awaitTurn(turn)
                        }
                        turns.committed(turn)
                    } catch {
                        turns.fail()
                        throw error
                    }
                }
            }
            // The part that failed says why; the other only that it gave up (`Abandoned`).
            var failure: (any Error)?
            while let result = await group.nextResult() {
                if case .failure(let error) = result, failure == nil || failure is CommitTurns.Abandoned {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
    }

    /// Lines in INSERTs of `historyInsertPart`, each part's pairs computed (on another thread) while
    /// the part before is written, so the database and the pairs' work overlap on two cores instead
    /// of taking turns (issue 38: about a third of a write was pairs). `ids`: the lines' own, taken
    /// beforehand, or nil for the table's next ones.
    static func insertHistory(
        _ db: PostgresConnection, _ records: [HistoryRecord], ids: [Int64]?, _ logger: Logger
    ) async throws {
        let parts = stride(from: 0, to: records.count, by: historyInsertPart).map {
            $0..<min(records.count, $0 + historyInsertPart)
        }
        var pairs = parts.first.map { searchPairs(of: records[$0]) }
        for (index, part) in parts.enumerated() {
            let next = index + 1 < parts.count ? Task { searchPairs(of: records[parts[index + 1]]) } : nil
            let lines = Array(records[part])
            try await insertHistory(db, lines, ids: ids.map { Array($0[part]) }, pairs: pairs ?? [], logger)
            pairs = await next?.value
        }
    }

    /// One INSERT of lines, with their precomputed pairs (`searchPairs(of:)`).
    static func insertHistory(
        _ db: PostgresConnection, _ records: [HistoryRecord], ids: [Int64]?, pairs: [String], _ logger: Logger
    ) async throws {
        // An account id of 0 stands for "no account" (arrays here hold no NULLs). A line said
        // just before its sender deleted the account is kept without it, as the deletion
        // does to the lines already written (a failed key lost the whole batch). An empty
        // refMsgid stands for none, as 0 does for the account.
        try await db.query(
            """
            INSERT INTO history (\(unescaped: ids == nil ? "" : "id, ")
              target, msgid, source, accountId, command, text, createdAt, tags, refMsgid, searchScopedPairs)
            SELECT \(unescaped: ids == nil ? "" : "i, ")t, m, s, (SELECT id FROM account WHERE id = a), c, x, d, g,
              NULLIF(r, ''), CASE WHEN c IN ('PRIVMSG', 'NOTICE') THEN array_to_tsvector(string_to_array(p, ',')) END
            FROM unnest(
              \(ids ?? [])::bigint[], \(records.map(\.target))::text[], \(records.map(\.msgid))::text[],
              \(records.map(\.source))::text[], \(records.map { $0.accountID ?? 0 })::bigint[],
              \(records.map(\.command))::text[], \(records.map(\.text))::text[],
              \(records.map(\.createdAt))::timestamptz[], \(records.map(\.tags))::text[],
              \(records.map { $0.refMsgid ?? "" })::text[], \(pairs)::text[]
            ) AS u(i, t, m, s, a, c, x, d, g, r, p)
            """, logger: logger)
    }

    /// The lines' `searchPairs`, in their order.
    static func searchPairs(of records: some Sequence<HistoryRecord>) -> [String] {
        records.map { searchPairs(command: $0.command, target: $0.target, text: $0.text) }
    }

    /// A line's scoped word pairs for phrase search (`HistorySearchScopedPairs`), comma-separated,
    /// for the lines search reads (PRIVMSG and NOTICE, as `search` has them).
    static func searchPairs(command: String, target: String, text: String) -> String {
        guard command == "PRIVMSG" || command == "NOTICE" else { return "" }
        return HistorySearchScopedPairs.lexemes(target: target, text: text).joined(separator: ",")
    }

    /// Lets accounts read an incarnation's history (accounts deleted meanwhile are skipped).
    static func grant(_ db: PostgresConnection, _ access: [HistoryAccess], _ logger: Logger) async throws {
        guard !access.isEmpty else { return }
        try await db.query(
            """
            INSERT INTO historyAccess (target, accountId)
            SELECT t, a FROM unnest(\(access.map(\.target))::text[], \(access.map(\.accountID))::bigint[]) AS u(t, a)
            WHERE EXISTS (SELECT 1 FROM account WHERE id = a)
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// The lines' scoped pairs name the old target: they are written again under the new one,
    /// after the move, a batch at a time (meanwhile phrase searches check those lines whole).
    public func retireHistory(target: String, to newTarget: String, access: [HistoryAccess]) async throws {
        try await transaction { db in
            try await db.query(
                "UPDATE history SET target = \(newTarget), searchScopedPairs = NULL WHERE target = \(target)",
                logger: self.logger)
            try await Self.grant(db, access, self.logger)
        }
        while try await indexHistoryForSearch(batch: historySearchIndexBatch, target: newTarget) > 0 {}
    }

    public func readableHistoryTargets(channel: String, current: String, accountID: Int64?) async throws -> [String] {
        guard let accountID else { return [current] }
        let range = HistoryRules.incarnations(of: channel)
        let earlier = try await rows(
            """
            SELECT target FROM historyAccess WHERE accountId = \(accountID)
              AND target > \(range.above) COLLATE "C" AND target < \(range.below) COLLATE "C"
            """
        ).map { try $0.decode(String.self) }
        return HistoryRules.readable(current: current, earlier: earlier)
    }

    public func latestHistory(targets: [String], limit: Int) async throws -> [HistoryRecord] {
        try await history(targets: targets, after: nil, before: nil, limit: limit, newestFirst: true)
    }

    @discardableResult
    public func expireHistory(olderThan days: Int, now: Date) async throws -> Int {
        try await transaction { db in
            let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
            let removed = try await db.rows(
                "WITH gone AS (DELETE FROM history WHERE createdAt < \(cutoff) RETURNING 1) SELECT COUNT(*) FROM gone",
                self.logger)[0].decode(Int64.self)
            try await db.query(
                """
                DELETE FROM historyAccess
                WHERE NOT EXISTS (SELECT 1 FROM history WHERE history.target = historyAccess.target)
                """, logger: self.logger)
            return Int(removed)
        }
    }

    /// The row id of a message, for msgid references.
    func historyRowID(targets: [String], msgid: String) async throws -> Int64? {
        try await rows("SELECT id FROM history WHERE target = ANY(\(targets)) AND msgid = \(msgid)")
            .first?.decode(Int64.self)
    }

    public func history(
        targets: [String], after: HistoryRef?, before: HistoryRef?, limit: Int, newestFirst: Bool, includeAfter: Bool
    ) async throws -> [HistoryRecord] {
        var binds = PostgresBindings()
        binds.append(targets)
        var conditions = ["target = ANY($1)"]
        func bound(_ ref: HistoryRef, _ op: String) async throws -> Bool {
            switch ref {
            case .msgid(let id):
                guard let row = try await historyRowID(targets: targets, msgid: id) else { return false }
                binds.append(row)
                conditions.append("id \(op) $\(binds.count)")
            case .time(let date):
                binds.append(date)
                conditions.append("createdAt \(op) $\(binds.count)")
            }
            return true
        }
        if let after, try await !bound(after, includeAfter ? ">=" : ">") { return [] }
        if let before, try await !bound(before, "<") { return [] }
        binds.append(Int64(limit))
        let sql = """
            SELECT \(Self.historyColumns) FROM history WHERE \(conditions.joined(separator: " AND "))
            ORDER BY id \(newestFirst ? "DESC" : "ASC") LIMIT $\(binds.count)
            """
        let records = try await rows(PostgresQuery(unsafeSQL: sql, binds: binds)).map(Self.record)
        return newestFirst ? records.reversed() : records
    }

    public func historyTargets(channels: [String], accountID: Int64?, from: Date, to: Date, limit: Int) async throws
        -> [(target: String, latest: Date)]
    {
        guard !channels.isEmpty || accountID != nil else { return [] }
        // -1 matches no conversation when the caller has no account. Older lines cannot be a
        // qualifying latest, so skipping them lets the time index bound the scan. Times are compared to the
        // millisecond clients see (the time tag truncates; a bound, sent as microseconds, is rounded).
        let me = accountID ?? -1
        return try await rows(
            """
            SELECT target, MAX(createdAt) AS latest FROM history
            WHERE (target = ANY(\(channels)) OR target LIKE \("pm:\(me):%") OR target LIKE \("pm:%:\(me)"))
              AND createdAt > \(min(from, to))
            GROUP BY target
            HAVING floor(extract(epoch FROM MAX(createdAt)) * 1000) > round(extract(epoch FROM \(min(from, to))) * 1000)
               AND floor(extract(epoch FROM MAX(createdAt)) * 1000) < round(extract(epoch FROM \(max(from, to))) * 1000)
            ORDER BY latest LIMIT \(Int64(limit))
            """
        ).map { try $0.decode((String, Date).self) }
    }

    public func historyMessage(targets: [String], msgid: String) async throws -> HistoryRecord? {
        try await rows(
            "SELECT \(unescaped: Self.historyColumns) FROM history WHERE target = ANY(\(targets)) AND msgid = \(msgid)"
        ).first.map(Self.record)
    }

    public func deleteHistoryMessage(targets: [String], msgid: String) async throws {
        try await run(
            """
            DELETE FROM history WHERE target = ANY(\(targets))
              AND (msgid = \(msgid) OR (refMsgid = \(msgid) AND command = ANY(\(HistoryRules.dependentCommands))))
            """)
    }

    public func readMarker(accountID: Int64, target: String) async throws -> Date? {
        try await rows("SELECT readAt FROM readMarker WHERE accountId = \(accountID) AND target = \(target)")
            .first?.decode(Date.self)
    }

    public func advanceReadMarker(accountID: Int64, target: String, to date: Date) async throws -> Date {
        try await rows(
            """
            INSERT INTO readMarker (accountId, target, readAt) VALUES (\(accountID), \(target), \(date))
            ON CONFLICT (accountId, target) DO UPDATE SET readAt = GREATEST(readMarker.readAt, excluded.readAt)
            RETURNING readAt
            """
        )[0].decode(Date.self)
    }
}
