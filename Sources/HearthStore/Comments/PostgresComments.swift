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
        var binds = Self.markBinds(account: accountID, target: targetID)
        binds.append(kind)
        binds.append(text)
        binds.append(now)
        return try await mark(
            MarkStatement(
                table: table,
                changes: """
                    changed AS (
                      INSERT INTO comment (kind, targetId, accountId, text, createdAt)
                      SELECT $3, id, $1, $4, $5 FROM target RETURNING id)
                    """,
                counts: "comments = comments + (SELECT COUNT(*) FROM changed)", answer: "(SELECT id FROM changed)"),
            binds)[1].decode(Int64?.self)
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

    /// The comment goes with its count in one statement, the target's row locked before the
    /// comment's as account and meme deletions take them (`MarkStatement`); a comment whose thing
    /// is gone altogether still goes.
    public func deleteComment(id: Int64, by accountID: Int64) async throws -> (kind: String, targetID: Int64)? {
        guard
            let (kind, target) = try await rows(
                "SELECT kind, targetId FROM comment WHERE id = \(id) AND accountId = \(accountID)"
            ).first?.decode((String, Int64).self), let table = CommentKinds.tables[kind]
        else { return nil }
        var binds = Self.markBinds(account: accountID, target: target)
        binds.append(id)
        do {
            let gone = try await mark(
                MarkStatement(
                    table: table,
                    changes: """
                        changed AS (
                          DELETE FROM comment WHERE id = $3 AND accountId = $1
                            AND (EXISTS (SELECT 1 FROM target) OR NOT EXISTS (SELECT 1 FROM \(table) WHERE id = $2))
                          RETURNING 1)
                        """,
                    counts: "comments = GREATEST(0, comments - (SELECT COUNT(*) FROM changed))",
                    answer: "(SELECT COUNT(*) FROM changed)"), binds)[1].decode(Int64.self)
            return gone > 0 ? (kind, target) : nil
        } catch StoreError.notFound {
            return nil  // the account went meanwhile, its comments with it
        }
    }
}
