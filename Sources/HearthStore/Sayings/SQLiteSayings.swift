import Foundation
import GRDB

extension SayingRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "saying"
}

extension SQLiteStore: SayingStore {
    static let sayingWithAuthor =
        "SELECT saying.*, account.name AS author FROM saying JOIN account ON account.id = saying.accountId"

    static func sayingRow(_ row: Row) throws -> SayingRow {
        SayingRow(saying: try Stored<SayingRecord>(row: row), author: row["author"])
    }

    public func addSaying(_ saying: SayingRecord, maxPerAccount: Int) async throws -> Stored<SayingRecord>? {
        try await pool.write { db in
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM saying WHERE accountId = ?", arguments: [saying.accountId])
                ?? 0
            guard count < maxPerAccount else { return nil }
            return try saying.insertStored(db)
        }
    }

    public func saying(id: Int64) async throws -> SayingRow? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "\(Self.sayingWithAuthor) WHERE saying.id = ?", arguments: [id]).map(
                Self.sayingRow)
        }
    }

    public func sayings(of accountID: Int64) async throws -> [Stored<SayingRecord>] {
        try await pool.read { db in
            try Stored<SayingRecord>.fetchAll(
                db, sql: "SELECT * FROM saying WHERE accountId = ? ORDER BY id DESC", arguments: [accountID])
        }
    }

    public func sayings(status: SayingRecord.Status, limit: Int) async throws -> [SayingRow] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "\(Self.sayingWithAuthor) WHERE saying.status = ? ORDER BY saying.id LIMIT ?",
                arguments: [status.rawValue, limit]
            ).map(Self.sayingRow)
        }
    }

    public func sayingCount(status: SayingRecord.Status) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM saying WHERE status = ?", arguments: [status.rawValue]) ?? 0
        }
    }

    public func friendSayings(of accountID: Int64, limit: Int) async throws -> [SayingRow] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    \(Self.sayingWithAuthor)
                    WHERE EXISTS (SELECT 1 FROM follow WHERE followerId = :me AND followeeId = saying.accountId)
                      AND EXISTS (SELECT 1 FROM follow WHERE followerId = saying.accountId AND followeeId = :me)
                    ORDER BY saying.id DESC LIMIT :limit
                    """,
                arguments: ["me": accountID, "limit": limit]
            ).map(Self.sayingRow)
        }
    }

    public func moveSaying(
        id: Int64, from: Set<SayingRecord.Status>, to status: SayingRecord.Status, author: Int64?,
        decidedBy: Int64?, now: Date
    ) async throws -> Bool {
        try await pool.write { db in
            let states = from.map(\.rawValue).sorted()
            let marks = databaseQuestionMarks(count: states.count)
            let decided = decidedBy == nil ? "" : ", decidedAt = ?, decidedBy = ?"
            var arguments: StatementArguments = [status.rawValue]
            if let decidedBy { arguments += [now, decidedBy] }
            arguments += [id]
            arguments += StatementArguments(states)
            var sql = "UPDATE saying SET status = ?\(decided) WHERE id = ? AND status IN (\(marks))"
            if let author {
                sql += " AND accountId = ?"
                arguments += [author]
            }
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount > 0
        }
    }

    public func proposeSaying(id: Int64, author: Int64, maxProposed: Int) async throws -> SayingProposal {
        try await pool.write { db in
            let waiting =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM saying WHERE status = ?",
                    arguments: [SayingRecord.Status.proposed.rawValue]) ?? 0
            guard waiting < maxProposed else { return .queueFull }
            try db.execute(
                sql: "UPDATE saying SET status = ? WHERE id = ? AND accountId = ? AND status = ?",
                arguments: [
                    SayingRecord.Status.proposed.rawValue, id, author, SayingRecord.Status.friends.rawValue,
                ])
            return db.changesCount > 0 ? .proposed : .notMovable
        }
    }

    public func deleteSaying(id: Int64, by accountID: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM saying WHERE id = ? AND accountId = ?", arguments: [id, accountID])
            return db.changesCount > 0
        }
    }
}
