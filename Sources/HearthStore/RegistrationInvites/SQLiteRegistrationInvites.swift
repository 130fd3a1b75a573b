import Foundation
import GRDB

extension SQLiteStore: RegistrationInviteStore {
    public func addRegistrationInvite(codeHash: String, uses: Int, expiresAt: Date, now: Date) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM registrationInvite WHERE expiresAt <= ?", arguments: [now])
            try db.execute(
                sql: "INSERT INTO registrationInvite (codeHash, usesLeft, expiresAt, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [codeHash, uses, expiresAt, now])
        }
    }

    public func claimRegistrationInvite(codeHashes: [String], now: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE registrationInvite SET usesLeft = usesLeft - 1 WHERE id = (SELECT id FROM registrationInvite
                      WHERE codeHash IN \(Self.placeholders(codeHashes.count)) AND usesLeft > 0 AND expiresAt > ?
                      LIMIT 1)
                    """,
                arguments: StatementArguments(codeHashes + [now] as [any DatabaseValueConvertible]))
            return db.changesCount == 1
        }
    }

    public func returnRegistrationInvite(codeHashes: [String]) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE registrationInvite SET usesLeft = usesLeft + 1
                    WHERE codeHash IN \(Self.placeholders(codeHashes.count))
                    """,
                arguments: StatementArguments(codeHashes))
        }
    }
}
