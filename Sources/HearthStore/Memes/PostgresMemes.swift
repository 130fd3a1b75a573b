import Foundation
import PostgresNIO

/// Memes, likes and favourites on PostgreSQL. A reaction locks its meme's row, so the count
/// moved in the same statement stays exact however many people click at once.
extension PostgresStore: MemeStore {
    static let memeColumns = "id, accountId, imageId, source, caption, likes, favs, comments, createdAt"
    static let memeSelect = """
        SELECT \(qualified(memeColumns, "meme")), account.name, image.format FROM meme
        JOIN account ON account.id = meme.accountId JOIN image ON image.id = meme.imageId
        """

    static func memeRecord(_ row: PostgresRow) throws -> Stored<MemeRecord> {
        let (id, accountId, imageId, source, caption, likes, favs, comments, createdAt) = try row.decode(
            (Int64, Int64, String, String, String, Int64, Int64, Int64, Date).self)
        var meme = MemeRecord(
            accountId: accountId, imageId: imageId, source: source, caption: caption, createdAt: createdAt)
        (meme.likes, meme.favs, meme.comments) = (Int(likes), Int(favs), Int(comments))
        return Stored(id: id, meme)
    }

    static func memeRow(_ row: PostgresRow) throws -> MemeRow {
        let columns = row.makeRandomAccess()
        return MemeRow(
            meme: try memeRecord(row), author: try columns[9].decode(String.self),
            format: try columns[10].decode(String.self))
    }

    public func addMeme(_ meme: MemeRecord, feedText: String) async throws -> Stored<MemeRecord> {
        // The meme and its feed line in one statement: atomic by itself, and one round trip.
        try Self.memeRecord(
            try await rows(
                """
                WITH made AS (
                  INSERT INTO meme (accountId, imageId, source, caption, likes, favs, comments, createdAt)
                  VALUES (
                    \(meme.accountId), \(meme.imageId), \(meme.source), \(meme.caption), 0, 0, 0, \(meme.createdAt))
                  RETURNING \(unescaped: Self.memeColumns)
                ), told AS (
                  INSERT INTO activity (accountId, kind, subjectId, text, createdAt)
                  SELECT accountId, 'meme', id, replace(\(feedText), \(FeedText.idMark), '#' || id), \(Date()) FROM made
                )
                SELECT \(unescaped: Self.memeColumns) FROM made
                """)[0])
    }

    public func meme(id: Int64) async throws -> MemeRow? {
        try await rows("\(unescaped: Self.memeSelect) WHERE meme.id = \(id)").first.map(Self.memeRow)
    }

    public func memes(of accountID: Int64, page: Int, pageSize: Int) async throws -> (memes: [MemeRow], total: Int) {
        let total = try await rows("SELECT COUNT(*) FROM meme WHERE accountId = \(accountID)")[0].decode(Int64.self)
        let memes = try await rows(
            """
            \(unescaped: Self.memeSelect) WHERE meme.accountId = \(accountID) ORDER BY meme.id DESC
            LIMIT \(Int64(pageSize)) OFFSET \(Int64((page - 1) * pageSize))
            """
        ).map(Self.memeRow)
        return (memes, Int(total))
    }

    public func deleteMeme(id: Int64, by accountID: Int64) async throws -> Bool {
        try await transaction { db in
            let deleted = try await db.rows(
                "DELETE FROM meme WHERE id = \(id) AND accountId = \(accountID) RETURNING 1", self.logger)
            guard !deleted.isEmpty else { return false }
            try await db.query("DELETE FROM comment WHERE kind = 'meme' AND targetId = \(id)", logger: self.logger)
            try await db.query("DELETE FROM activity WHERE kind = 'meme' AND subjectId = \(id)", logger: self.logger)
            return true
        }
    }

    /// One statement, so the meme's row is locked only while it runs: a transaction that took the
    /// row first and let go at its commit, three round trips later, kept a dozen people liking one
    /// meme at once waiting in line on a loaded database, the last past the statement timeout.
    /// The count moves by what changed (account deletion takes its marks off the same way); the
    /// locks come in the order every mark takes them (`MarkStatement`).
    public func react(_ reaction: Reaction, memeID: Int64, accountID: Int64, on: Bool, now: Date) async throws
        -> (changed: Bool, count: Int)?
    {
        let table = reaction == .like ? "memeLike" : "memeFav"
        let column = reaction == .like ? "likes" : "favs"
        var binds = Self.markBinds(account: accountID, target: memeID)
        if on { binds.append(now) }
        let changes =
            on
            ? """
            changed AS (
              INSERT INTO \(table) (memeId, accountId, createdAt) SELECT id, $1, $3 FROM target
              ON CONFLICT DO NOTHING RETURNING 1)
            """
            : """
            changed AS (
              DELETE FROM \(table) WHERE memeId = $2 AND accountId = $1 AND EXISTS (SELECT 1 FROM target) RETURNING 1)
            """
        let row = try await mark(
            MarkStatement(
                table: "meme", changes: changes,
                counts: "\(column) = \(column) \(on ? "+" : "-") (SELECT COUNT(*) FROM changed)",
                answer: "(SELECT \(column) FROM counted), (SELECT COUNT(*) FROM changed)"), binds)
        guard let count = try row[1].decode(Int64?.self) else { return nil }
        return (try row[2].decode(Int64.self) > 0, Int(count))
    }

    public func hasReacted(_ reaction: Reaction, memeID: Int64, accountID: Int64) async throws -> Bool {
        let table = reaction == .like ? "memeLike" : "memeFav"
        return
            !(try await rows(
                "SELECT 1 FROM \(unescaped: table) WHERE memeId = \(memeID) AND accountId = \(accountID)")).isEmpty
    }

    public func favourites(of accountID: Int64, page: Int) async throws -> (memes: [MemeRow], total: Int) {
        let size = Int64(StoreLimits.memePageSize)
        let total = try await rows("SELECT COUNT(*) FROM memeFav WHERE accountId = \(accountID)")[0].decode(Int64.self)
        let memes = try await rows(
            """
            \(unescaped: Self.memeSelect)
            JOIN memeFav ON memeFav.memeId = meme.id AND memeFav.accountId = \(accountID)
            WHERE meme.accountId NOT IN (SELECT blockerId FROM block WHERE blockedId = \(accountID))
            ORDER BY memeFav.createdAt DESC LIMIT \(size) OFFSET \(Int64(page - 1) * size)
            """
        ).map(Self.memeRow)
        return (memes, Int(total))
    }

    public func recentMemes(for viewer: Int64?, since: Date) async throws -> [MemeRow] {
        // -1 is nobody: no account has it, so the viewer's own and friends' clauses never match.
        let me = viewer ?? -1
        return try await rows(
            """
            \(unescaped: Self.memeSelect)
            WHERE meme.createdAt >= \(since)
              AND meme.accountId NOT IN (SELECT blockerId FROM block WHERE blockedId = \(me)
                UNION SELECT blockedId FROM block WHERE blockerId = \(me))
              AND (meme.accountId = \(me)
                OR EXISTS (SELECT 1 FROM setting WHERE setting.accountId = meme.accountId AND key = 'privacy'
                  AND value = 'public')
                OR (EXISTS (SELECT 1 FROM follow WHERE followerId = \(me) AND followeeId = meme.accountId)
                  AND EXISTS (SELECT 1 FROM follow WHERE followerId = meme.accountId AND followeeId = \(me))))
            ORDER BY meme.id DESC LIMIT \(Int64(StoreLimits.hotCandidates))
            """
        ).map(Self.memeRow)
    }

    public func mayViewLists(of owner: Int64, viewer: Int64?) async throws -> Bool {
        let (blocks, isPublic, mutual) = try await rows(
            """
            SELECT EXISTS (SELECT 1 FROM block WHERE (blockerId = \(owner) AND blockedId = \(viewer))
                OR (blockerId = \(viewer) AND blockedId = \(owner))),
              EXISTS (SELECT 1 FROM setting WHERE accountId = \(owner) AND key = 'privacy' AND value = 'public'),
              (SELECT COUNT(*) FROM follow WHERE (followerId = \(owner) AND followeeId = \(viewer))
                OR (followerId = \(viewer) AND followeeId = \(owner))) = 2
            """)[0].decode((Bool, Bool, Bool).self)
        let facts = ListViewFacts(eitherBlocks: blocks, ownerIsPublic: isPublic, mutualFollow: mutual)
        return ListViewRules.mayView(owner: owner, viewer: viewer, facts)
    }

    public func eitherBlocks(_ a: Int64, _ b: Int64) async throws -> Bool {
        !(try await rows(
            """
            SELECT 1 FROM block
            WHERE (blockerId = \(a) AND blockedId = \(b)) OR (blockerId = \(b) AND blockedId = \(a))
            """)).isEmpty
    }
}
