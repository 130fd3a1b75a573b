import Foundation
import GRDB

extension SQLiteStore {
    /// Writes a batch in one transaction with one prepared statement, with the grants of
    /// access to channel incarnations collected since the last batch.
    public func appendHistory(_ records: [HistoryRecord], access: [HistoryAccess] = []) async throws {
        guard !records.isEmpty || !access.isEmpty else { return }
        try await pool.write { db in
            // A line said just before its sender deleted the account is kept without the account,
            // as the deletion does to the lines already written (a failed key lost the whole batch).
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO history (target, msgid, source, accountId, command, text, createdAt, tags, refMsgid)
                    VALUES (?, ?, ?, (SELECT id FROM account WHERE id = ?), ?, ?, ?, ?, ?)
                    """)
            var ids: ClosedRange<Int64>?
            for record in records {
                try SQLiteHistoryInsert.insert(record, with: statement, in: db)
                let id = db.lastInsertedRowID
                ids = (ids?.lowerBound ?? id)...id
            }
            // The batch's lines go into the search index in one statement (v40: a statement per
            // row made FTS5 write a segment per line).
            if let ids {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO historySearch (rowid, text, scope)
                          SELECT id, text, scope FROM historySearchSource WHERE id BETWEEN ? AND ?
                        """
                ).execute(arguments: [ids.lowerBound, ids.upperBound])
            }
            let grant = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO historyAccess (target, accountId) SELECT ?, id FROM account WHERE id = ?")
            for entry in access { try grant.execute(arguments: [entry.target, entry.accountID]) }
        }
    }

    /// A registered channel stopped being one: what was said in it moves under `newTarget`
    /// (an incarnation), readable by the accounts in `access` only, so whoever registers
    /// the name next does not inherit it.
    public func retireHistory(target: String, to newTarget: String, access: [HistoryAccess]) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE history SET target = ? WHERE target = ?", arguments: [newTarget, target])
            for entry in access {
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO historyAccess (target, accountId) SELECT ?, id FROM account "
                        + "WHERE id = ?",
                    arguments: [entry.target, entry.accountID])
            }
        }
    }

    /// The history targets of a channel that an account may read: the live incarnation
    /// `current`, and earlier incarnations of the same channel the account was in.
    public func readableHistoryTargets(channel: String, current: String, accountID: Int64?) async throws -> [String] {
        guard let accountID else { return [current] }
        let range = HistoryRules.incarnations(of: channel)
        let earlier = try await pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT target FROM historyAccess WHERE accountId = ? AND target > ? AND target < ?",
                arguments: [accountID, range.above, range.below])
        }
        return HistoryRules.readable(current: current, earlier: earlier)
    }

    /// The last `limit` messages of some targets, oldest first.
    public func latestHistory(targets: [String], limit: Int) async throws -> [HistoryRecord] {
        try await history(targets: targets, after: nil, before: nil, limit: limit, newestFirst: true)
    }

    /// Deletes messages older than `days`; returns how many went.
    @discardableResult
    public func expireHistory(olderThan days: Int, now: Date = Date()) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM history WHERE createdAt < ?",
                arguments: [now.addingTimeInterval(-Double(days) * 86_400)])
            let removed = db.changesCount
            try db.execute(
                sql: """
                    DELETE FROM historyAccess WHERE NOT EXISTS (SELECT 1 FROM history WHERE history.target =
                      historyAccess.target)
                    """)
            return removed
        }
    }
}

extension SQLiteStore {
    /// The row id of a message, for msgid references.
    private static func rowID(_ db: Database, targets: [String], msgid: String) throws -> Int64? {
        try Int64.fetchOne(
            db, sql: "SELECT id FROM history WHERE target IN \(placeholders(targets.count)) AND msgid = ?",
            arguments: StatementArguments(targets + [msgid]))
    }

    static func placeholders(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: max(count, 1)).joined(separator: ",") + ")"
    }

    /// Messages of `targets` strictly after `after` and before `before` (either may be nil),
    /// at most `limit`, taken from the newest end when `newestFirst`; returned oldest first.
    public func history(
        targets: [String], after: HistoryRef?, before: HistoryRef?, limit: Int, newestFirst: Bool,
        includeAfter: Bool = false
    ) async throws -> [HistoryRecord] {
        try await pool.read { db in
            let names = targets.indices.map { ":t\($0)" }
            var conditions = ["target IN (\(names.joined(separator: ",")))"]
            var arguments: [String: (any DatabaseValueConvertible)?] = ["limit": limit]
            for (index, target) in targets.enumerated() { arguments["t\(index)"] = target }
            func bound(_ ref: HistoryRef, _ name: String, _ op: String) throws -> Bool {
                switch ref {
                case .msgid(let id):
                    guard let row = try Self.rowID(db, targets: targets, msgid: id) else { return false }
                    conditions.append("id \(op) :\(name)")
                    arguments[name] = row
                case .time(let date):
                    conditions.append("createdAt \(op) :\(name)")
                    arguments[name] = date
                }
                return true
            }
            if let after, try !bound(after, "after", includeAfter ? ">=" : ">") { return [] }
            if let before, try !bound(before, "before", "<") { return [] }
            let order = newestFirst ? "DESC" : "ASC"
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT * FROM history WHERE \(conditions.joined(separator: " AND ")) ORDER BY id \(order) "
                    + "LIMIT :limit",
                arguments: StatementArguments(arguments))
            let records = rows.map(HistoryRecord.init(row:))
            return newestFirst ? records.reversed() : records
        }
    }

    /// Conversations and channels whose latest message falls strictly between two times,
    /// earliest first (IRCv3 CHATHISTORY TARGETS): the channels in `channels`, and
    /// conversations that include `accountID`.
    public func historyTargets(channels: [String], accountID: Int64?, from: Date, to: Date, limit: Int) async throws
        -> [(target: String, latest: Date)]
    {
        try await pool.read { db in
            var clauses: [String] = []
            var arguments: [any DatabaseValueConvertible] = []
            if !channels.isEmpty {
                clauses.append("target IN (\(channels.map { _ in "?" }.joined(separator: ",")))")
                arguments += channels
            }
            if let accountID {
                clauses.append("target LIKE ? OR target LIKE ?")
                arguments += ["pm:\(accountID):%", "pm:%:\(accountID)"]
            }
            guard !clauses.isEmpty else { return [] }
            // Older lines cannot be a qualifying latest: skipping them lets the time index bound the scan.
            arguments += [min(from, to), min(from, to), max(from, to), limit]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT target, MAX(createdAt) AS latest FROM history
                    WHERE (\(clauses.joined(separator: " OR "))) AND createdAt > ?
                    GROUP BY target HAVING latest > ? AND latest < ?
                    ORDER BY latest LIMIT ?
                    """, arguments: StatementArguments(arguments))
            return rows.map { ($0["target"], $0["latest"]) }
        }
    }
}

extension SQLiteStore {
    /// The stored message with this msgid in one of these targets, if any.
    public func historyMessage(targets: [String], msgid: String) async throws -> HistoryRecord? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM history WHERE target IN \(Self.placeholders(targets.count)) AND msgid = ?",
                arguments: StatementArguments(targets + [msgid])
            ).map(HistoryRecord.init(row:))
        }
    }

    /// Removes a message from history (message redaction), with the reactions and edits that
    /// act on it; replies stay.
    public func deleteHistoryMessage(targets: [String], msgid: String) async throws {
        let dependent = HistoryRules.dependentCommands
        try await pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM history WHERE target IN \(Self.placeholders(targets.count))
                      AND (msgid = ? OR (refMsgid = ? AND command IN \(Self.placeholders(dependent.count))))
                    """,
                arguments: StatementArguments(targets + [msgid, msgid] + dependent))
        }
    }
}

extension SQLiteStore {
    public func readMarker(accountID: Int64, target: String) async throws -> Date? {
        try await pool.read { db in
            try Date.fetchOne(
                db, sql: "SELECT readAt FROM readMarker WHERE accountId = ? AND target = ?",
                arguments: [accountID, target])
        }
    }

    /// Moves a read marker forward (never back) and returns where it is now.
    public func advanceReadMarker(accountID: Int64, target: String, to date: Date) async throws -> Date {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO readMarker (accountId, target, readAt) VALUES (?, ?, ?)
                    ON CONFLICT(accountId, target) DO UPDATE SET readAt = MAX(readAt, excluded.readAt)
                    """, arguments: [accountID, target, date])
            return try Date.fetchOne(
                db, sql: "SELECT readAt FROM readMarker WHERE accountId = ? AND target = ?",
                arguments: [accountID, target]) ?? date
        }
    }
}

extension HistoryRecord {
    init(row: Row) {
        self.init(
            target: row["target"], msgid: row["msgid"], source: row["source"], accountID: row["accountId"],
            command: row["command"], text: row["text"], createdAt: row["createdAt"], tags: row["tags"],
            refMsgid: row["refMsgid"])
    }
}
