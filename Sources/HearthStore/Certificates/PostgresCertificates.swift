import Foundation
import PostgresNIO

extension PostgresStore: CertificateStore {
    public func addCertificate(accountID: Int64, fingerprint: String, now: Date) async throws -> CertificateAdd {
        try await transaction { db in
            // The account's row lock: two certificates added at once cannot both take the last place.
            try await db.query("SELECT 1 FROM account WHERE id = \(accountID) FOR UPDATE", logger: self.logger)
            let owner = try await db.query(
                "SELECT accountId FROM clientCertificate WHERE fingerprint = \(fingerprint)", logger: self.logger
            ).collect().first?.decode(Int64.self)
            if let owner { return owner == accountID ? .alreadyYours : .taken }
            let held = try await db.query(
                "SELECT COUNT(*) FROM clientCertificate WHERE accountId = \(accountID)", logger: self.logger
            ).collect()[0].decode(Int64.self)
            guard CertificateRules.mayAdd(held: Int(held)) else { return .tooMany }
            // Another account adding the same certificate at this moment: the key decides, it is taken.
            let inserted = try await db.query(
                """
                INSERT INTO clientCertificate (fingerprint, accountId, createdAt)
                VALUES (\(fingerprint), \(accountID), \(now)) ON CONFLICT (fingerprint) DO NOTHING RETURNING 1
                """, logger: self.logger
            ).collect()
            return inserted.isEmpty ? .taken : .added
        }
    }

    public func certificates(accountID: Int64) async throws -> [String] {
        try await rows(
            """
            SELECT fingerprint FROM clientCertificate WHERE accountId = \(accountID) ORDER BY createdAt, fingerprint
            """
        ).map { try $0.decode(String.self) }
    }

    public func removeCertificate(accountID: Int64, fingerprint: String) async throws -> Bool {
        !(try await rows(
            """
            DELETE FROM clientCertificate WHERE accountId = \(accountID) AND fingerprint = \(fingerprint) RETURNING 1
            """
        )).isEmpty
    }

    public func account(certificateFingerprint: String) async throws -> Stored<Account>? {
        try await rows(
            """
            SELECT \(unescaped: Self.accountColumnsQualified)
            FROM account JOIN clientCertificate ON clientCertificate.accountId = account.id
            WHERE clientCertificate.fingerprint = \(certificateFingerprint)
            """
        ).first.map(Self.account)
    }
}
