import Foundation
import GRDB

extension SQLiteStore: CertificateStore {
    public func addCertificate(accountID: Int64, fingerprint: String, now: Date) async throws -> CertificateAdd {
        try await pool.write { db in
            let owner = try Int64.fetchOne(
                db, sql: "SELECT accountId FROM clientCertificate WHERE fingerprint = ?", arguments: [fingerprint])
            if let owner { return owner == accountID ? .alreadyYours : .taken }
            let held =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM clientCertificate WHERE accountId = ?", arguments: [accountID]) ?? 0
            guard CertificateRules.mayAdd(held: held) else { return .tooMany }
            try db.execute(
                sql: "INSERT INTO clientCertificate (fingerprint, accountId, createdAt) VALUES (?, ?, ?)",
                arguments: [fingerprint, accountID, now])
            return .added
        }
    }

    public func certificates(accountID: Int64) async throws -> [String] {
        try await pool.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT fingerprint FROM clientCertificate WHERE accountId = ? ORDER BY createdAt, fingerprint",
                arguments: [accountID])
        }
    }

    public func removeCertificate(accountID: Int64, fingerprint: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM clientCertificate WHERE accountId = ? AND fingerprint = ?",
                arguments: [accountID, fingerprint])
            return db.changesCount > 0
        }
    }

    public func account(certificateFingerprint: String) async throws -> Stored<Account>? {
        try await pool.read { db in
            try Stored<Account>.fetchOne(
                db,
                sql: """
                    SELECT account.* FROM account JOIN clientCertificate ON clientCertificate.accountId = account.id
                    WHERE clientCertificate.fingerprint = ?
                    """, arguments: [certificateFingerprint])
        }
    }
}
