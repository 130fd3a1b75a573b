import Foundation
import PostgresNIO

/// Comments on memes, recipes and family posts on PostgreSQL; each keeps its target's count.
extension PostgresStore: CommentStore {
    public func commentTargetOwner(kind: String, id: Int64) async throws -> Int64? {
        guard let table = CommentKinds.tables[kind] else { return nil }
        return try await rows("SELECT accountId FROM \(unescaped: table) WHERE id = \(id)").first?.decode(Int64.self)
    }

    public func addComment(kind: String, targetID: Int64, accountID: Int64, text: String, now: Date) async throws
        -> Int64?
    {
        guard let table = CommentKinds.tables[kind] else { return nil }
        // One statement: the target's row stays locked only while it runs, not for the insert and
        // commit after it (two dozen commenting on one meme at once queued behind it).
        return try await rows(
            """
            WITH target AS (
              UPDATE \(unescaped: table) SET comments = comments + 1 WHERE id = \(targetID) RETURNING id)
            INSERT INTO comment (kind, targetId, accountId, text, createdAt)
            SELECT \(kind), id, \(accountID), \(text), \(now) FROM target RETURNING id
            """
        ).first?.decode(Int64.self)
    }

    public func comments(kind: String, targetID: Int64, page: Int, viewer: Int64?) async throws -> (
        comments: [CommentRow], total: Int
    ) {
        let size = Int64(StoreLimits.commentPageSize)
        let me = viewer ?? -1  // nobody: blocks nothing
        let total = try await rows("SELECT COUNT(*) FROM comment WHERE kind = \(kind) AND targetId = \(targetID)")[0]
            .decode(Int64.self)
        let found = try await rows(
            """
            SELECT comment.id, account.name, comment.accountId, comment.text, comment.createdAt
            FROM comment JOIN account ON account.id = comment.accountId
            WHERE kind = \(kind) AND targetId = \(targetID)
              AND comment.accountId NOT IN (SELECT blockerId FROM block WHERE blockedId = \(me)
                UNION SELECT blockedId FROM block WHERE blockerId = \(me))
            ORDER BY comment.id LIMIT \(size) OFFSET \(Int64(page - 1) * size)
            """
        ).map { row in
            let (id, author, authorId, text, createdAt) = try row.decode((Int64, String, Int64, String, Date).self)
            return CommentRow(id: id, author: author, authorId: authorId, text: text, createdAt: createdAt)
        }
        return (found, Int(total))
    }

    public func deleteComment(id: Int64, by accountID: Int64) async throws -> (kind: String, targetID: Int64)? {
        try await transaction { db in
            guard
                let (kind, target) = try await db.rows(
                    "DELETE FROM comment WHERE id = \(id) AND accountId = \(accountID) RETURNING kind, targetId",
                    self.logger
                ).first?.decode((String, Int64).self)
            else { return nil }
            if let table = CommentKinds.tables[kind] {
                try await db.query(
                    "UPDATE \(unescaped: table) SET comments = GREATEST(0, comments - 1) WHERE id = \(target)",
                    logger: self.logger)
            }
            return (kind, target)
        }
    }
}
