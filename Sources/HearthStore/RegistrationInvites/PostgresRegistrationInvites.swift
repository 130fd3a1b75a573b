import Foundation
import PostgresNIO

extension PostgresStore: RegistrationInviteStore {
    public func addRegistrationInvite(codeHash: String, uses: Int, expiresAt: Date, now: Date) async throws {
        try await transaction { db in
            try await db.query("DELETE FROM registrationInvite WHERE expiresAt <= \(now)", logger: self.logger)
            try await db.query(
                """
                INSERT INTO registrationInvite (codeHash, usesLeft, expiresAt, createdAt)
                VALUES (\(codeHash), \(Int64(uses)), \(expiresAt), \(now))
                """, logger: self.logger)
        }
    }

    public func claimRegistrationInvite(codeHashes: [String], now: Date) async throws -> Bool {
        // One statement: the row lock makes a second claim of the last use see none left.
        !(try await rows(
            """
            UPDATE registrationInvite SET usesLeft = usesLeft - 1
            WHERE codeHash = ANY(\(codeHashes)) AND usesLeft > 0 AND expiresAt > \(now)
            RETURNING 1
            """)).isEmpty
    }

    public func returnRegistrationInvite(codeHashes: [String]) async throws {
        try await run("UPDATE registrationInvite SET usesLeft = usesLeft + 1 WHERE codeHash = ANY(\(codeHashes))")
    }
}
