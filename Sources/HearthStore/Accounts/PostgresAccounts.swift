import Foundation
import HearthCrypto
import PostgresNIO

/// Account rows, resume tokens and recovery codes on PostgreSQL. Secrets arrive hashed.
extension PostgresStore: AccountStore {
    static let accountColumns = "id, name, nameKey, passwordHash, email, phone, createdAt, bio, avatarImageId"
    static let accountColumnsQualified = accountColumns.split(separator: ",")
        .map { "account." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    static func account(_ row: PostgresRow) throws -> Stored<Account> {
        let (id, name, nameKey, passwordHash, email, phone, createdAt, bio, avatar) = try row.decode(
            (Int64, String, String, String, String?, String?, Date, String, String?).self)
        var account = Account(
            name: name, nameKey: nameKey, passwordHash: passwordHash, email: email, phone: phone,
            createdAt: createdAt)
        account.bio = bio
        account.avatarImageId = avatar
        return Stored(id: id, account)
    }

    public func createAccount(
        name: String, nameKey: String, passwordHash: String, email: String?, phone: String?, recoveryHashes: [String],
        now: Date
    ) async throws -> Stored<Account> {
        do {
            return try await transaction { db in
                let row = try await db.rows(
                    """
                    INSERT INTO account (name, nameKey, passwordHash, email, phone, createdAt)
                    VALUES (\(name), \(nameKey), \(passwordHash), \(email), \(phone), \(now))
                    RETURNING \(unescaped: Self.accountColumns)
                    """, self.logger)
                let account = try Self.account(row[0])
                // The name is taken: it no longer leads to whoever had it before.
                try await db.query("DELETE FROM formerName WHERE nameKey = \(nameKey)", logger: self.logger)
                for hash in recoveryHashes {
                    try await db.query(
                        "INSERT INTO recoveryCode (accountId, codeHash) VALUES (\(account.id), \(hash))",
                        logger: self.logger)
                }
                return account
            }
        } catch  where Self.isUniqueViolation(error) {
            throw StoreError.nameTaken
        }
    }

    public func account(nameKey: String) async throws -> Stored<Account>? {
        try await rows("SELECT \(unescaped: Self.accountColumns) FROM account WHERE nameKey = \(nameKey)")
            .first.map(Self.account)
    }

    public func account(id: Int64) async throws -> Stored<Account>? {
        try await rows("SELECT \(unescaped: Self.accountColumns) FROM account WHERE id = \(id)").first.map(Self.account)
    }

    public func setPassword(accountID: Int64, hash: String, scram: ScramCredentials?) async throws {
        try await transaction { db in
            try await db.query(
                "UPDATE account SET passwordHash = \(hash) WHERE id = \(accountID)", logger: self.logger)
            try await db.query("DELETE FROM scramCredential WHERE accountId = \(accountID)", logger: self.logger)
            if let scram { try await db.query(Self.upsertScram(accountID: accountID, scram), logger: self.logger) }
        }
    }

    public func scramCredentials(accountID: Int64) async throws -> ScramCredentials? {
        try await rows(
            "SELECT salt, iterations, storedKey, serverKey FROM scramCredential WHERE accountId = \(accountID)"
        ).first.map { row in
            ScramCredentials(stored: try row.decode((String, Int64, String, String).self))
        }
    }

    public func setScramCredentials(accountID: Int64, _ credentials: ScramCredentials) async throws {
        try await run(Self.upsertScram(accountID: accountID, credentials))
    }

    /// Keys are kept as base64 text, as on SQLite, so `hearth migrate` copies them as they are.
    static func upsertScram(accountID: Int64, _ scram: ScramCredentials) -> PostgresQuery {
        let columns = scram.storedColumns
        return """
            INSERT INTO scramCredential (accountId, salt, iterations, storedKey, serverKey)
            VALUES (\(accountID), \(columns.salt), \(columns.iterations), \(columns.storedKey), \(columns.serverKey))
            ON CONFLICT (accountId) DO UPDATE SET salt = excluded.salt, iterations = excluded.iterations,
              storedKey = excluded.storedKey, serverKey = excluded.serverKey
            """
    }

    public func rename(accountID: Int64, to name: String, nameKey: String) async throws {
        do {
            try await transaction { db in
                guard
                    let old = try await db.rows(
                        "SELECT nameKey FROM account WHERE id = \(accountID) FOR UPDATE", self.logger
                    ).first?.decode(String.self)
                else { throw StoreError.notFound }
                // Ticks name who made them: the new name, so a deletion later finds them.
                try await db.query(
                    """
                    UPDATE shopItem SET tickedBy = \(name)
                    WHERE tickedBy = (SELECT name FROM account WHERE id = \(accountID))
                    """, logger: self.logger)
                try await db.query(
                    "UPDATE account SET name = \(name), nameKey = \(nameKey) WHERE id = \(accountID)",
                    logger: self.logger)
                try await db.query("DELETE FROM formerName WHERE nameKey = \(nameKey)", logger: self.logger)
                if old != nameKey {
                    try await db.query(
                        """
                        INSERT INTO formerName (nameKey, accountId) VALUES (\(old), \(accountID))
                        ON CONFLICT (nameKey) DO UPDATE SET accountId = excluded.accountId
                        """, logger: self.logger)
                }
            }
        } catch  where Self.isUniqueViolation(error) {
            throw StoreError.nameTaken
        }
    }

    public func account(formerNameKey: String) async throws -> Stored<Account>? {
        try await rows(
            """
            SELECT \(unescaped: Self.accountColumns) FROM account
            WHERE id = (SELECT accountId FROM formerName WHERE nameKey = \(formerNameKey))
            """
        ).first.map(Self.account)
    }

    @discardableResult
    public func deleteAccount(id: Int64) async throws -> AccountDeletion {
        try await transaction { db in
            guard try await Self.lockForDeletion(db, accountID: id, self.logger) else { return AccountDeletion() }
            var rendered: [String] = []
            for try await imageID in try await db.query(
                "SELECT DISTINCT imageId FROM meme WHERE accountId = \(id)", logger: self.logger
            ).decode(String.self) {
                rendered.append(imageID)
            }
            try await Self.forgetReactions(db, accountID: id, self.logger)
            try await Self.forgetThreads(db, accountID: id, self.logger)
            // A family's ticked lines stay ticked, without the name of who ticked them.
            try await db.query(
                "UPDATE shopItem SET tickedBy = NULL WHERE tickedBy = (SELECT name FROM account WHERE id = \(id))",
                logger: self.logger)
            let families = try await Self.departFamilies(db, accountID: id, self.logger)
            try await db.query("DELETE FROM account WHERE id = \(id)", logger: self.logger)
            var orphans: [String] = []
            for imageID in rendered {
                let deleted = try await db.rows(
                    """
                    DELETE FROM image WHERE id = \(imageID) AND kind = 'meme'
                      AND NOT EXISTS (SELECT 1 FROM meme WHERE imageId = \(imageID))
                      AND NOT EXISTS (SELECT 1 FROM account WHERE avatarImageId = \(imageID))
                      AND NOT EXISTS (SELECT 1 FROM familyPost WHERE imageId = \(imageID))
                    RETURNING 1
                    """, self.logger)
                if !deleted.isEmpty { orphans.append(imageID) }
            }
            return AccountDeletion(renders: orphans, families: families)
        }
    }

    /// Locks the account's row, then every meme, recipe and post it made or marked, in one order
    /// (kind, then id): the order marks take them in (`MarkStatement`), so neither waits for the
    /// other in a circle. Marks of the account under way finish first, and are taken off with the
    /// rest; later ones find it gone. False when there is no such account.
    static func lockForDeletion(_ db: PostgresConnection, accountID id: Int64, _ logger: Logger) async throws -> Bool {
        guard !(try await db.rows("SELECT 1 FROM account WHERE id = \(id) FOR UPDATE", logger)).isEmpty else {
            return false
        }
        for query: PostgresQuery in [
            """
            SELECT 1 FROM meme WHERE accountId = \(id)
              OR id IN (SELECT memeId FROM memeLike WHERE accountId = \(id)
              UNION SELECT memeId FROM memeFav WHERE accountId = \(id)
              UNION SELECT targetId FROM comment WHERE kind = 'meme' AND accountId = \(id))
            ORDER BY id FOR UPDATE
            """,
            """
            SELECT 1 FROM recipe WHERE accountId = \(id)
              OR id IN (SELECT recipeId FROM recipeVote WHERE accountId = \(id)
              UNION SELECT targetId FROM comment WHERE kind = 'recipe' AND accountId = \(id))
            ORDER BY id FOR UPDATE
            """,
            """
            SELECT 1 FROM familyPost WHERE accountId = \(id)
              OR id IN (SELECT postId FROM postLike WHERE accountId = \(id)
              UNION SELECT targetId FROM comment WHERE kind = 'post' AND accountId = \(id))
            ORDER BY id FOR UPDATE
            """,
        ] {
            _ = try await db.rows(query, logger)
        }
        return true
    }

    /// Takes back what the account gave to others' counts (likes, favourites, votes,
    /// comments) before its rows go; memes keep their pictures.
    static func forgetReactions(_ db: PostgresConnection, accountID id: Int64, _ logger: Logger) async throws {
        try await db.query(
            """
            UPDATE meme SET
              likes = likes - (SELECT COUNT(*) FROM memeLike WHERE memeId = meme.id AND accountId = \(id)),
              favs = favs - (SELECT COUNT(*) FROM memeFav WHERE memeId = meme.id AND accountId = \(id)),
              comments = comments - (SELECT COUNT(*) FROM comment
                WHERE kind = 'meme' AND targetId = meme.id AND accountId = \(id))
            WHERE id IN (SELECT memeId FROM memeLike WHERE accountId = \(id)
              UNION SELECT memeId FROM memeFav WHERE accountId = \(id)
              UNION SELECT targetId FROM comment WHERE kind = 'meme' AND accountId = \(id))
            """, logger: logger)
        try await db.query(
            """
            UPDATE recipe SET
              ups = ups - (SELECT COUNT(*) FROM recipeVote
                WHERE recipeId = recipe.id AND accountId = \(id) AND value > 0),
              downs = downs - (SELECT COUNT(*) FROM recipeVote
                WHERE recipeId = recipe.id AND accountId = \(id) AND value < 0),
              comments = comments - (SELECT COUNT(*) FROM comment
                WHERE kind = 'recipe' AND targetId = recipe.id AND accountId = \(id))
            WHERE id IN (SELECT recipeId FROM recipeVote WHERE accountId = \(id)
              UNION SELECT targetId FROM comment WHERE kind = 'recipe' AND accountId = \(id))
            """, logger: logger)
        try await db.query(
            """
            UPDATE familyPost SET
              likes = likes - (SELECT COUNT(*) FROM postLike WHERE postId = familyPost.id AND accountId = \(id)),
              comments = comments - (SELECT COUNT(*) FROM comment
                WHERE kind = 'post' AND targetId = familyPost.id AND accountId = \(id))
            WHERE id IN (SELECT postId FROM postLike WHERE accountId = \(id)
              UNION SELECT targetId FROM comment WHERE kind = 'post' AND accountId = \(id))
            """, logger: logger)
        try await db.query("UPDATE image SET ownerId = NULL WHERE ownerId = \(id) AND kind = 'meme'", logger: logger)
    }

    /// Others' comments on the account's memes, recipes and posts, and their feed lines about
    /// following it, go with it (no key ties them to it); the same as deleting each thing.
    static func forgetThreads(_ db: PostgresConnection, accountID id: Int64, _ logger: Logger) async throws {
        try await db.query(
            """
            DELETE FROM comment WHERE (kind = 'meme' AND targetId IN (SELECT id FROM meme WHERE accountId = \(id)))
              OR (kind = 'recipe' AND targetId IN (SELECT id FROM recipe WHERE accountId = \(id)))
              OR (kind = 'post' AND targetId IN (SELECT id FROM familyPost WHERE accountId = \(id)))
            """, logger: logger)
        try await db.query("DELETE FROM activity WHERE kind = 'follow' AND subjectId = \(id)", logger: logger)
    }

    public func addResumeToken(accountID: Int64, tokenHash: String, expiresAt: Date, now: Date) async throws {
        try await transaction { db in
            try await db.query(
                """
                INSERT INTO resumeToken (accountId, tokenHash, createdAt, expiresAt)
                VALUES (\(accountID), \(tokenHash), \(now), \(expiresAt))
                """, logger: self.logger)
            try await db.query("DELETE FROM resumeToken WHERE expiresAt < \(now)", logger: self.logger)
        }
    }

    public func account(tokenHash: String, now: Date) async throws -> Stored<Account>? {
        try await rows(
            """
            SELECT \(unescaped: Self.accountColumnsQualified)
            FROM account JOIN resumeToken ON resumeToken.accountId = account.id
            WHERE resumeToken.tokenHash = \(tokenHash) AND resumeToken.expiresAt > \(now)
            """
        ).first.map(Self.account)
    }

    public func revokeToken(tokenHash: String) async throws {
        try await run("DELETE FROM resumeToken WHERE tokenHash = \(tokenHash)")
    }

    public func revokeAllTokens(accountID: Int64) async throws {
        try await run("DELETE FROM resumeToken WHERE accountId = \(accountID)")
    }

    /// Marks one unused code used, atomically: the row is locked (others skip it) and checked
    /// unused again, so a code works once however many connections race for it.
    public func consumeRecoveryCode(nameKey: String, codeHashes: [String], now: Date) async throws -> Stored<Account>? {
        try await transaction { db in
            guard
                let account = try await db.rows(
                    "SELECT \(unescaped: Self.accountColumns) FROM account WHERE nameKey = \(nameKey)", self.logger
                ).first.map(Self.account)
            else { return nil }
            let used = try await db.rows(
                """
                UPDATE recoveryCode SET usedAt = \(now)
                WHERE usedAt IS NULL AND id = (SELECT id FROM recoveryCode
                  WHERE accountId = \(account.id) AND codeHash = ANY(\(codeHashes)) AND usedAt IS NULL
                  LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING 1
                """, self.logger)
            return used.isEmpty ? nil : account
        }
    }

    public func unusedRecoveryCodes(accountID: Int64) async throws -> Int {
        let count =
            try await rows(
                "SELECT COUNT(*) FROM recoveryCode WHERE accountId = \(accountID) AND usedAt IS NULL"
            ).first?.decode(Int64.self) ?? 0
        return Int(count)
    }
}
