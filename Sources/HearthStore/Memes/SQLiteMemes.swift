import Foundation
import GRDB

extension SQLiteStore {
    private static let memeSelect = """
        SELECT meme.*, account.name AS author, image.format AS format FROM meme
        JOIN account ON account.id = meme.accountId JOIN image ON image.id = meme.imageId
        """

    private static func memeRow(_ row: Row) throws -> MemeRow {
        MemeRow(meme: try Stored<MemeRecord>(row: row), author: row["author"], format: row["format"])
    }

    /// Saves a meme and tells the author's followers (their `!feed`).
    public func addMeme(_ meme: MemeRecord, feedText: String) async throws -> Stored<MemeRecord> {
        try await pool.write { db in
            let record = try meme.insertStored(db)
            try Self.addActivity(
                db, accountID: meme.accountId, kind: "meme", subjectID: record.id,
                text: FeedText.filled(feedText, id: record.id))
            return record
        }
    }

    public func meme(id: Int64) async throws -> MemeRow? {
        try await pool.read { db in try Self.meme(db, id: id) }
    }

    static func meme(_ db: Database, id: Int64) throws -> MemeRow? {
        // Cached: a meme's page reads it on every view (compiling it again cost more than running it).
        try Row.fetchOne(db.cachedStatement(sql: Self.memeSelect + " WHERE meme.id = ?"), arguments: [id])
            .map(Self.memeRow)
    }

    public func memes(of accountID: Int64, page: Int, pageSize: Int = StoreLimits.memePageSize) async throws -> (
        memes: [MemeRow], total: Int
    ) {
        try await pool.read { db in
            let total =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM meme WHERE accountId = ?", arguments: [accountID]) ?? 0
            let rows = try Row.fetchAll(
                db, sql: Self.memeSelect + " WHERE meme.accountId = ? ORDER BY meme.id DESC LIMIT ? OFFSET ?",
                arguments: [accountID, pageSize, (page - 1) * pageSize])
            return (try rows.map(Self.memeRow), total)
        }
    }

    /// Deletes a meme if `accountID` made it; its likes, favourites and comments go with it.
    public func deleteMeme(id: Int64, by accountID: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM meme WHERE id = ? AND accountId = ?", arguments: [id, accountID])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM comment WHERE kind = 'meme' AND targetId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM activity WHERE kind = 'meme' AND subjectId = ?", arguments: [id])
            return true
        }
    }

    /// Likes or favourites a meme (or takes it back). Idempotent; the count is recomputed in
    /// the same transaction, so it stays exact however many people click at once.
    /// Returns whether anything changed and the new count; nil when there is no such meme.
    public func react(_ reaction: Reaction, memeID: Int64, accountID: Int64, on: Bool, now: Date = Date()) async throws
        -> (changed: Bool, count: Int)?
    {
        let table = reaction == .like ? "memeLike" : "memeFav"
        let column = reaction == .like ? "likes" : "favs"
        return try await pool.write { db in
            try Self.requireAccount(db, accountID)
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM meme WHERE id = ?", arguments: [memeID]) != nil else {
                return nil
            }
            if on {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO \(table) (memeId, accountId, createdAt) VALUES (?, ?, ?)",
                    arguments: [memeID, accountID, now])
            } else {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE memeId = ? AND accountId = ?", arguments: [memeID, accountID])
            }
            let changed = db.changesCount == 1
            try db.execute(
                sql: "UPDATE meme SET \(column) = (SELECT COUNT(*) FROM \(table) WHERE memeId = ?) WHERE id = ?",
                arguments: [memeID, memeID])
            let count = try Int.fetchOne(db, sql: "SELECT \(column) FROM meme WHERE id = ?", arguments: [memeID]) ?? 0
            return (changed, count)
        }
    }

    public func hasReacted(_ reaction: Reaction, memeID: Int64, accountID: Int64) async throws -> Bool {
        let table = reaction == .like ? "memeLike" : "memeFav"
        return try await pool.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM \(table) WHERE memeId = ? AND accountId = ?", arguments: [memeID, accountID])
                != nil
        }
    }

    /// The memes `accountID` favourited, newest favourite first.
    public func favourites(of accountID: Int64, page: Int) async throws -> (memes: [MemeRow], total: Int) {
        try await pool.read { db in
            let total =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memeFav WHERE accountId = ?", arguments: [accountID])
                ?? 0
            let rows = try Row.fetchAll(
                db,
                sql: Self.memeSelect + """
                     JOIN memeFav ON memeFav.memeId = meme.id AND memeFav.accountId = ?
                    WHERE meme.accountId NOT IN (SELECT blockerId FROM block WHERE blockedId = ?)
                    ORDER BY memeFav.createdAt DESC LIMIT ? OFFSET ?
                    """,
                arguments: [accountID, accountID, StoreLimits.memePageSize, (page - 1) * StoreLimits.memePageSize])
            return (try rows.map(Self.memeRow), total)
        }
    }

    /// Recent memes for trending, without those of people who block `viewer` or whom it
    /// blocks, and only from authors whose lists are public or who are the viewer's friends.
    public func recentMemes(for viewer: Int64?, since: Date) async throws -> [MemeRow] {
        try await pool.read { db in
            // Cached: a signed-in reader's home and /hot read it each time (preparing it was most of its cost).
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: Self.memeSelect + """
                         WHERE meme.createdAt >= :since
                          AND (:viewer IS NULL OR meme.accountId NOT IN (
                            SELECT blockerId FROM block WHERE blockedId = :viewer
                            UNION SELECT blockedId FROM block WHERE blockerId = :viewer))
                          AND (meme.accountId = :viewer
                            OR EXISTS (SELECT 1 FROM setting WHERE setting.accountId = meme.accountId AND key =
                              'privacy' AND value = 'public')
                            OR (EXISTS (SELECT 1 FROM follow WHERE followerId = :viewer
                                AND followeeId = meme.accountId)
                              AND EXISTS (SELECT 1 FROM follow WHERE followerId = meme.accountId
                                AND followeeId = :viewer)))
                        ORDER BY meme.id DESC LIMIT :limit
                        """),
                arguments: ["since": since, "viewer": viewer, "limit": StoreLimits.hotCandidates])
            return try rows.map(Self.memeRow)
        }
    }

    /// Whether `viewer` may see `owner`'s lists: themselves, public accounts, or mutual
    /// friends — never when either blocks the other.
    public func mayViewLists(of owner: Int64, viewer: Int64?) async throws -> Bool {
        let facts = try await pool.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM block WHERE (blockerId = :owner AND blockedId = :viewer)
                        OR (blockerId = :viewer AND blockedId = :owner)),
                      EXISTS (SELECT 1 FROM setting WHERE accountId = :owner AND key = 'privacy' AND value = 'public'),
                      (SELECT COUNT(*) FROM follow WHERE (followerId = :owner AND followeeId = :viewer)
                        OR (followerId = :viewer AND followeeId = :owner)) = 2
                    """, arguments: ["owner": owner, "viewer": viewer])!
            return ListViewFacts(eitherBlocks: row[0], ownerIsPublic: row[1], mutualFollow: row[2])
        }
        return ListViewRules.mayView(owner: owner, viewer: viewer, facts)
    }

    /// Whether either account blocks the other.
    public func eitherBlocks(_ a: Int64, _ b: Int64) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db,
                sql: "SELECT 1 FROM block WHERE (blockerId = ? AND blockedId = ?) OR (blockerId = ? AND blockedId = ?)",
                arguments: [a, b, b, a]) != nil
        }
    }
}
