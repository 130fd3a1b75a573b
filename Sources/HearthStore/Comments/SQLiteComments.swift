import Foundation
import GRDB

extension SQLiteStore {
    /// The account that owns a commentable thing, or nil when it does not exist.
    public func commentTargetOwner(kind: String, id: Int64) async throws -> Int64? {
        guard let table = CommentKinds.tables[kind] else { return nil }
        return try await pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT accountId FROM \(table) WHERE id = ?", arguments: [id])
        }
    }

    public func addComment(kind: String, targetID: Int64, accountID: Int64, text: String, now: Date = Date())
        async throws -> Int64?
    {
        guard let table = CommentKinds.tables[kind] else { return nil }
        return try await pool.write { db in
            try Self.requireAccount(db, accountID)
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE id = ?", arguments: [targetID]) != nil else {
                return nil
            }
            try db.execute(
                sql: "INSERT INTO comment (kind, targetId, accountId, text, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [kind, targetID, accountID, text, now])
            let id = db.lastInsertedRowID
            try db.execute(sql: "UPDATE \(table) SET comments = comments + 1 WHERE id = ?", arguments: [targetID])
            return id
        }
    }

    /// Comments oldest first, `commentPageSize` a page, hiding people `viewer` blocks or who block them.
    public func comments(kind: String, targetID: Int64, page: Int, viewer: Int64?) async throws -> (
        comments: [CommentRow], total: Int
    ) {
        try await pool.read { db in try Self.comments(db, kind: kind, targetID: targetID, page: page, viewer: viewer) }
    }

    public func memeWithComments(id: Int64, page: Int, viewer: Int64?) async throws -> Commented<MemeRow>? {
        try await pool.read { db in
            guard let row = try Self.meme(db, id: id) else { return nil }
            let (comments, total) = try Self.comments(db, kind: "meme", targetID: id, page: page, viewer: viewer)
            return Commented(row: row, comments: comments, total: total)
        }
    }

    public func recipeWithComments(id: Int64, page: Int, viewer: Int64?) async throws -> Commented<RecipeRow>? {
        try await pool.read { db in
            guard let row = try Self.recipe(db, id: id) else { return nil }
            let (comments, total) = try Self.comments(db, kind: "recipe", targetID: id, page: page, viewer: viewer)
            return Commented(row: row, comments: comments, total: total)
        }
    }

    static func comments(_ db: Database, kind: String, targetID: Int64, page: Int, viewer: Int64?) throws -> (
        comments: [CommentRow], total: Int
    ) {
        let total =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM comment WHERE kind = ? AND targetId = ?"),
                arguments: [kind, targetID]) ?? 0
        // Cached statements: every meme and recipe page reads its comments.
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT comment.id, account.name, comment.accountId, comment.text, comment.createdAt
                    FROM comment JOIN account ON account.id = comment.accountId
                    WHERE kind = :kind AND targetId = :target
                      AND (:viewer IS NULL OR comment.accountId NOT IN (
                        SELECT blockerId FROM block WHERE blockedId = :viewer
                        UNION SELECT blockedId FROM block WHERE blockerId = :viewer))
                    ORDER BY comment.id LIMIT :limit OFFSET :offset
                    """),
            arguments: [
                "kind": kind, "target": targetID, "viewer": viewer, "limit": StoreLimits.commentPageSize,
                "offset": (page - 1) * StoreLimits.commentPageSize,
            ])
        return (
            rows.map { CommentRow(id: $0[0], author: $0[1], authorId: $0[2], text: $0[3], createdAt: $0[4]) }, total
        )
    }

    /// Before an account goes: its likes, favourites and comments leave others' counts.
    public static func forgetReactions(_ db: Database, accountID: Int64) throws {
        try db.execute(
            sql: """
                UPDATE meme SET
                  likes = likes - (SELECT COUNT(*) FROM memeLike WHERE memeId = meme.id AND accountId = :id),
                  favs = favs - (SELECT COUNT(*) FROM memeFav WHERE memeId = meme.id AND accountId = :id),
                  comments = comments - (SELECT COUNT(*) FROM comment WHERE kind = 'meme' AND targetId =
                    meme.id AND accountId = :id)
                WHERE id IN (SELECT memeId FROM memeLike WHERE accountId = :id UNION SELECT memeId FROM
                  memeFav WHERE accountId = :id
                  UNION SELECT targetId FROM comment WHERE kind = 'meme' AND accountId = :id)
                """, arguments: ["id": accountID])
        try db.execute(
            sql: """
                UPDATE recipe SET
                  ups = ups - (SELECT COUNT(*) FROM recipeVote WHERE recipeId = recipe.id AND accountId = :id
                    AND value > 0),
                  downs = downs - (SELECT COUNT(*) FROM recipeVote WHERE recipeId = recipe.id AND accountId =
                    :id AND value < 0),
                  comments = comments - (SELECT COUNT(*) FROM comment WHERE kind = 'recipe' AND targetId =
                    recipe.id AND accountId = :id)
                WHERE id IN (SELECT recipeId FROM recipeVote WHERE accountId = :id UNION SELECT targetId FROM
                  comment WHERE kind = 'recipe' AND accountId = :id)
                """, arguments: ["id": accountID])
        try db.execute(
            sql: """
                UPDATE familyPost SET
                  likes = likes - (SELECT COUNT(*) FROM postLike WHERE postId = familyPost.id AND accountId = :id),
                  comments = comments - (SELECT COUNT(*) FROM comment
                    WHERE kind = 'post' AND targetId = familyPost.id AND accountId = :id)
                WHERE id IN (SELECT postId FROM postLike WHERE accountId = :id
                  UNION SELECT targetId FROM comment WHERE kind = 'post' AND accountId = :id)
                """, arguments: ["id": accountID])
        // Memes keep their pictures when the account that first rendered them goes.
        try db.execute(
            sql: "UPDATE image SET ownerId = NULL WHERE ownerId = ? AND kind = 'meme'", arguments: [accountID])
    }

    /// Others' comments on the account's memes, recipes and posts, and their feed lines about
    /// following it, go with it (no key ties them to it); the same as deleting each thing.
    public static func forgetThreads(_ db: Database, accountID: Int64) throws {
        try db.execute(
            sql: """
                DELETE FROM comment WHERE (kind = 'meme' AND targetId IN (SELECT id FROM meme WHERE accountId = :id))
                  OR (kind = 'recipe' AND targetId IN (SELECT id FROM recipe WHERE accountId = :id))
                  OR (kind = 'post' AND targetId IN (SELECT id FROM familyPost WHERE accountId = :id))
                """, arguments: ["id": accountID])
        try db.execute(
            sql: "DELETE FROM activity WHERE kind = 'follow' AND subjectId = ?", arguments: [accountID])
    }

    /// Deletes a comment written by `accountID`; returns its kind and target, or nil.
    public func deleteComment(id: Int64, by accountID: Int64) async throws -> (kind: String, targetID: Int64)? {
        try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT kind, targetId FROM comment WHERE id = ? AND accountId = ?",
                    arguments: [id, accountID])
            else { return nil }
            let kind: String = row[0]
            let target: Int64 = row[1]
            try db.execute(sql: "DELETE FROM comment WHERE id = ?", arguments: [id])
            if let table = CommentKinds.tables[kind] {
                try db.execute(
                    sql: "UPDATE \(table) SET comments = MAX(0, comments - 1) WHERE id = ?", arguments: [target])
            }
            return (kind, target)
        }
    }
}
