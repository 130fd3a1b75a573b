import Foundation
import GRDB
import HearthCrypto

/// Account rows, resume tokens and recovery codes. Secrets arrive here already hashed.
extension SQLiteStore {
    /// Creates an account with its recovery-code hashes in one transaction.
    public func createAccount(
        name: String, nameKey: String, passwordHash: String, email: String?, phone: String?,
        recoveryHashes: [String], now: Date = Date()
    ) async throws -> Stored<Account> {
        try await pool.write { db in
            self.nameKeys.taking(nameKey)
            if try Stored<Account>.filter(Column("nameKey") == nameKey).fetchCount(db) > 0 {
                throw StoreError.nameTaken
            }
            let account = try Account(
                name: name, nameKey: nameKey, passwordHash: passwordHash, email: email, phone: phone, createdAt: now
            ).insertStored(db)
            // The name is taken: it no longer leads to whoever had it before.
            try db.execute(sql: "DELETE FROM formerName WHERE nameKey = ?", arguments: [nameKey])
            for hash in recoveryHashes {
                try db.execute(
                    sql: "INSERT INTO recoveryCode (accountId, codeHash) VALUES (?, ?)", arguments: [account.id, hash])
            }
            return account
        }
    }

    public func account(nameKey: String) async throws -> Stored<Account>? {
        // Every connection's registration asks this: a cached statement, not SQL built each time.
        try await pool.read { db in
            try Stored<Account>.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM account WHERE nameKey = ?"), arguments: [nameKey])
        }
    }

    public func account(id: Int64) async throws -> Stored<Account>? {
        try await pool.read { db in try Stored<Account>.fetchOne(db, key: id) }
    }

    public func setPassword(accountID: Int64, hash: String, scram: ScramCredentials?) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE account SET passwordHash = ? WHERE id = ?", arguments: [hash, accountID])
            try db.execute(sql: "DELETE FROM scramCredential WHERE accountId = ?", arguments: [accountID])
            if let scram { try Self.insertScram(db, accountID: accountID, scram) }
        }
    }

    public func scramCredentials(accountID: Int64) async throws -> ScramCredentials? {
        try await pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT salt, iterations, storedKey, serverKey FROM scramCredential WHERE accountId = ?",
                    arguments: [accountID])
            else { return nil }
            return ScramCredentials(
                stored: (row["salt"], row["iterations"], row["storedKey"], row["serverKey"]))
        }
    }

    public func setScramCredentials(accountID: Int64, _ credentials: ScramCredentials) async throws {
        try await pool.write { db in try Self.insertScram(db, accountID: accountID, credentials) }
    }

    /// Keys are kept as base64 text, as on PostgreSQL, so `hearth migrate` copies them as they are.
    static func insertScram(_ db: Database, accountID: Int64, _ scram: ScramCredentials) throws {
        let columns = scram.storedColumns
        try db.execute(
            sql: """
                INSERT INTO scramCredential (accountId, salt, iterations, storedKey, serverKey) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (accountId) DO UPDATE SET salt = excluded.salt, iterations = excluded.iterations,
                  storedKey = excluded.storedKey, serverKey = excluded.serverKey
                """,
            arguments: [accountID, columns.salt, columns.iterations, columns.storedKey, columns.serverKey])
    }

    public func rename(accountID: Int64, to name: String, nameKey: String) async throws {
        do {
            try await pool.write { db in try self.rename(db, accountID: accountID, to: name, nameKey: nameKey) }
        } catch let error as StoreError {
            throw error
        } catch {
            // The commit may have failed after the old name left the keys.
            forgetReservedNames()
            throw error
        }
    }

    private func rename(_ db: Database, accountID: Int64, to name: String, nameKey: String) throws {
        nameKeys.taking(nameKey)
        let holder = try Stored<Account>.filter(Column("nameKey") == nameKey).fetchOne(db)
        if let holder, holder.id != accountID { throw StoreError.nameTaken }
        guard
            let old = try String.fetchOne(
                db, sql: "SELECT nameKey FROM account WHERE id = ?", arguments: [accountID])
        else { throw StoreError.notFound }
        // Ticks name who made them: the new name, so a deletion later finds them.
        try db.execute(
            sql: "UPDATE shopItem SET tickedBy = ? WHERE tickedBy = (SELECT name FROM account WHERE id = ?)",
            arguments: [name, accountID])
        try db.execute(
            sql: "UPDATE account SET name = ?, nameKey = ? WHERE id = ?", arguments: [name, nameKey, accountID])
        try db.execute(sql: "DELETE FROM formerName WHERE nameKey = ?", arguments: [nameKey])
        if old != nameKey {
            try db.execute(
                sql: "INSERT OR REPLACE INTO formerName (nameKey, accountId) VALUES (?, ?)",
                arguments: [old, accountID])
            // Last before the commit: a failed write is caught in `rename` above.
            nameKeys.freeing(old)
        }
    }

    public func account(formerNameKey: String) async throws -> Stored<Account>? {
        try await pool.read { db in
            try Stored<Account>.fetchOne(
                db, sql: "SELECT * FROM account WHERE id = (SELECT accountId FROM formerName WHERE nameKey = ?)",
                arguments: [formerNameKey])
        }
    }

    /// Deletes the account and everything only it owned; its families pass on (see
    /// `FamilyDeparture`). Reports the rendered memes that no remaining meme, avatar or family
    /// post shows (their rows are gone; the caller deletes the files). A render is shared when
    /// two people made the same meme, so it stays while someone else's meme still shows it.
    @discardableResult
    public func deleteAccount(id: Int64) async throws -> AccountDeletion {
        do {
            return try await pool.write { db in try self.deleteAccount(db, id: id) }
        } catch let error as StoreError {
            throw error
        } catch {
            // The commit may have failed after the old name left the keys.
            forgetReservedNames()
            throw error
        }
    }

    private func deleteAccount(_ db: Database, id: Int64) throws -> AccountDeletion {
        let nameKey = try String.fetchOne(db, sql: "SELECT nameKey FROM account WHERE id = ?", arguments: [id])
        let rendered = try String.fetchAll(
            db, sql: "SELECT DISTINCT imageId FROM meme WHERE accountId = ?", arguments: [id])
        // Counts kept on other rows (likes, favourites) lose what this account gave.
        try Self.forgetReactions(db, accountID: id)
        try Self.forgetThreads(db, accountID: id)
        // A family's ticked lines stay ticked, without the name of who ticked them.
        try db.execute(
            sql: "UPDATE shopItem SET tickedBy = NULL WHERE tickedBy = (SELECT name FROM account WHERE id = ?)",
            arguments: [id])
        let families = try Self.departFamilies(db, accountID: id)
        _ = try Stored<Account>.deleteOne(db, key: id)
        var orphans: [String] = []
        for imageID in rendered {
            let used =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM meme WHERE imageId = :id)
                            OR EXISTS (SELECT 1 FROM account WHERE avatarImageId = :id)
                            OR EXISTS (SELECT 1 FROM familyPost WHERE imageId = :id)
                        """, arguments: ["id": imageID]) ?? true
            if !used {
                try db.execute(sql: "DELETE FROM image WHERE id = ? AND kind = 'meme'", arguments: [imageID])
                if db.changesCount > 0 { orphans.append(imageID) }
            }
        }
        // Last before the commit: a failed write is caught in `deleteAccount` above.
        if let nameKey { nameKeys.freeing(nameKey) }
        return AccountDeletion(renders: orphans, families: families)
    }

    /// A mark (a like, a vote, a comment) of an account that is gone is refused as on PostgreSQL,
    /// not by its foreign key's error. Writes here come one at a time, so an account deleted
    /// meanwhile has taken its marks off whole before, or is deleted after with this one.
    static func requireAccount(_ db: Database, _ id: Int64) throws {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE id = ?", arguments: [id]) != nil else {
            throw StoreError.notFound
        }
    }

    public func addResumeToken(accountID: Int64, tokenHash: String, expiresAt: Date, now: Date = Date()) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO resumeToken (accountId, tokenHash, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [accountID, tokenHash, now, expiresAt])
            try db.execute(sql: "DELETE FROM resumeToken WHERE expiresAt < ?", arguments: [now])
        }
    }

    /// The account a live (unexpired) token belongs to.
    public func account(tokenHash: String, now: Date = Date()) async throws -> Stored<Account>? {
        try await pool.read { db in
            try Stored<Account>.fetchOne(
                db,
                sql: """
                    SELECT account.* FROM account JOIN resumeToken ON resumeToken.accountId = account.id
                    WHERE resumeToken.tokenHash = ? AND resumeToken.expiresAt > ?
                    """, arguments: [tokenHash, now])
        }
    }

    public func revokeToken(tokenHash: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM resumeToken WHERE tokenHash = ?", arguments: [tokenHash])
        }
    }

    public func revokeAllTokens(accountID: Int64) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM resumeToken WHERE accountId = ?", arguments: [accountID])
        }
    }

    /// Marks an unused recovery code as used and returns the account, atomically:
    /// a code works once even when two connections race. `codeHashes` are the forms the
    /// code may be stored under (keyed, or plain from before keying).
    public func consumeRecoveryCode(nameKey: String, codeHashes: [String], now: Date = Date()) async throws -> Stored<
        Account
    >? {
        try await pool.write { db in
            guard let account = try Stored<Account>.filter(Column("nameKey") == nameKey).fetchOne(db) else {
                return nil
            }
            var arguments: [(any DatabaseValueConvertible)?] = [now, account.id]
            arguments += codeHashes
            try db.execute(
                sql: """
                    UPDATE recoveryCode SET usedAt = ? WHERE id = (SELECT id FROM recoveryCode
                    WHERE accountId = ? AND codeHash IN \(Self.placeholders(codeHashes.count))
                      AND usedAt IS NULL LIMIT 1)
                    """,
                arguments: StatementArguments(arguments))
            return db.changesCount == 1 ? account : nil
        }
    }

    public func unusedRecoveryCodes(accountID: Int64) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM recoveryCode WHERE accountId = ? AND usedAt IS NULL",
                arguments: [accountID]) ?? 0
        }
    }
}
