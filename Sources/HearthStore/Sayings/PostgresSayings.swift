import Foundation
import PostgresNIO

/// Users' sayings on PostgreSQL. A new saying is counted against its author's limit while the
/// author's account row is held, so two at once cannot both pass it.
extension PostgresStore: SayingStore {
    static let sayingColumns =
        "saying.id, saying.accountId, saying.text, saying.status, saying.createdAt, saying.decidedAt,"
        + " saying.decidedBy"
    static let sayingWithAuthor =
        "SELECT \(sayingColumns), account.name FROM saying JOIN account ON account.id = saying.accountId"

    static func sayingRecord(_ row: PostgresRow) throws -> Stored<SayingRecord> {
        let (id, accountId, text, status, createdAt, decidedAt, decidedBy) = try row.decode(
            (Int64, Int64, String, String, Date, Date?, Int64?).self)
        var record = SayingRecord(
            accountId: accountId, text: text, status: SayingRecord.Status(rawValue: status) ?? .friends,
            now: createdAt)
        (record.decidedAt, record.decidedBy) = (decidedAt, decidedBy)
        return Stored(id: id, record)
    }

    static func sayingRow(_ row: PostgresRow) throws -> SayingRow {
        SayingRow(saying: try sayingRecord(row), author: try row.makeRandomAccess()[7].decode(String.self))
    }

    public func addSaying(_ saying: SayingRecord, maxPerAccount: Int) async throws -> Stored<SayingRecord>? {
        try await transaction { db in
            try await db.query("SELECT 1 FROM account WHERE id = \(saying.accountId) FOR UPDATE", logger: self.logger)
            let count = try await db.rows(
                "SELECT COUNT(*) FROM saying WHERE accountId = \(saying.accountId)", self.logger)[0].decode(Int64.self)
            guard count < maxPerAccount else { return nil }
            return try Self.sayingRecord(
                try await db.rows(
                    """
                    INSERT INTO saying (accountId, text, status, createdAt)
                    VALUES (\(saying.accountId), \(saying.text), \(saying.status.rawValue), \(saying.createdAt))
                    RETURNING \(unescaped: Self.sayingColumns)
                    """, self.logger)[0])
        }
    }

    public func saying(id: Int64) async throws -> SayingRow? {
        try await rows("\(unescaped: Self.sayingWithAuthor) WHERE saying.id = \(id)").first.map(Self.sayingRow)
    }

    public func sayings(of accountID: Int64) async throws -> [Stored<SayingRecord>] {
        try await rows(
            "SELECT \(unescaped: Self.sayingColumns) FROM saying WHERE accountId = \(accountID) ORDER BY id DESC"
        ).map(Self.sayingRecord)
    }

    public func sayings(status: SayingRecord.Status, limit: Int) async throws -> [SayingRow] {
        try await rows(
            """
            \(unescaped: Self.sayingWithAuthor) WHERE saying.status = \(status.rawValue)
            ORDER BY saying.id LIMIT \(Int64(limit))
            """
        ).map(Self.sayingRow)
    }

    public func sayingCount(status: SayingRecord.Status) async throws -> Int {
        Int(try await rows("SELECT COUNT(*) FROM saying WHERE status = \(status.rawValue)")[0].decode(Int64.self))
    }

    public func friendSayings(of accountID: Int64, limit: Int) async throws -> [SayingRow] {
        try await rows(
            """
            \(unescaped: Self.sayingWithAuthor)
            WHERE EXISTS (SELECT 1 FROM follow WHERE followerId = \(accountID) AND followeeId = saying.accountId)
              AND EXISTS (SELECT 1 FROM follow WHERE followerId = saying.accountId AND followeeId = \(accountID))
            ORDER BY saying.id DESC LIMIT \(Int64(limit))
            """
        ).map(Self.sayingRow)
    }

    public func moveSaying(
        id: Int64, from: Set<SayingRecord.Status>, to status: SayingRecord.Status, author: Int64?,
        decidedBy: Int64?, now: Date
    ) async throws -> Bool {
        let states = from.map(\.rawValue).sorted()
        let decided = decidedBy != nil
        return
            !(try await rows(
                """
                UPDATE saying SET status = \(status.rawValue),
                  decidedAt = CASE WHEN \(decided) THEN \(now) ELSE decidedAt END,
                  decidedBy = CASE WHEN \(decided) THEN \(decidedBy) ELSE decidedBy END
                WHERE id = \(id) AND status = ANY(\(states)) AND (\(author == nil) OR accountId = \(author ?? -1))
                RETURNING 1
                """)).isEmpty
    }

    public func proposeSaying(id: Int64, author: Int64, maxProposed: Int) async throws -> SayingProposal {
        let (proposed, friends) = (SayingRecord.Status.proposed.rawValue, SayingRecord.Status.friends.rawValue)
        return try await transaction { db in
            // One proposal at a time, so the count below stays true until the update commits.
            try await db.query("SELECT pg_advisory_xact_lock(hashtext('saying/proposed'))", logger: self.logger)
            let waiting = try await db.rows(
                "SELECT COUNT(*) FROM saying WHERE status = \(proposed)", self.logger)[0].decode(Int64.self)
            guard waiting < maxProposed else { return .queueFull }
            let moved = try await db.rows(
                """
                UPDATE saying SET status = \(proposed)
                WHERE id = \(id) AND accountId = \(author) AND status = \(friends) RETURNING 1
                """, self.logger)
            return moved.isEmpty ? .notMovable : .proposed
        }
    }

    public func deleteSaying(id: Int64, by accountID: Int64) async throws -> Bool {
        !(try await rows("DELETE FROM saying WHERE id = \(id) AND accountId = \(accountID) RETURNING 1")).isEmpty
    }
}
