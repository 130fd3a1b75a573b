import Foundation
import GRDB

extension SQLiteStore {
    public func addImage(_ image: ImageRecord) async throws {
        try await pool.write { db in try image.insert(db) }
    }

    public func image(id: String) async throws -> ImageRecord? {
        try await pool.read { db in try ImageRecord.fetchOne(db, key: id) }
    }

    /// The caller's uploads whose id starts with `prefix` (people type short ids).
    public func uploads(of ownerID: Int64, idPrefix prefix: String) async throws -> [ImageRecord] {
        try await pool.read { db in
            try ImageRecord.fetchAll(
                db,
                sql:
                    "SELECT * FROM image WHERE ownerId = ? AND kind = 'upload' AND id >= ? AND id < ? ORDER BY "
                    + "createdAt DESC LIMIT 2",
                arguments: [ownerID, prefix, prefix + "g"])
        }
    }

    /// Uploads of `ownerID`, newest first, `imagePageSize` a page (page 1 first).
    public func uploads(of ownerID: Int64, page: Int) async throws -> (images: [ImageRecord], total: Int) {
        try await pool.read { db in
            let total =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM image WHERE ownerId = ? AND kind = 'upload'", arguments: [ownerID])
                ?? 0
            let images = try ImageRecord.fetchAll(
                db,
                sql:
                    "SELECT * FROM image WHERE ownerId = ? AND kind = 'upload' ORDER BY createdAt DESC, id "
                    + "LIMIT ? OFFSET ?",
                arguments: [ownerID, StoreLimits.imagePageSize, (page - 1) * StoreLimits.imagePageSize])
            return (images, total)
        }
    }

    /// Ids of every image an account owns (their files go when the account does).
    public func imageIDs(ownerID: Int64) async throws -> [String] {
        try await pool.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM image WHERE ownerId = ?", arguments: [ownerID])
        }
    }

    public func setAvatar(_ accountID: Int64, imageID: String?) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE account SET avatarImageId = ? WHERE id = ?", arguments: [imageID, accountID])
        }
    }

    // MARK: upload tickets

    public func addUploadTicket(tokenHash: String, accountID: Int64, expiresAt: Date, now: Date = Date()) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM uploadTicket WHERE expiresAt < ?", arguments: [now])
            try db.execute(
                sql: "INSERT INTO uploadTicket (tokenHash, accountId, expiresAt) VALUES (?, ?, ?)",
                arguments: [tokenHash, accountID, expiresAt])
        }
    }

    /// The account a live ticket belongs to (the ticket stays until used or expired).
    public func uploadTicket(tokenHash: String, now: Date = Date()) async throws -> Int64? {
        try await pool.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT accountId FROM uploadTicket WHERE tokenHash = ? AND expiresAt > ?",
                arguments: [tokenHash, now])
        }
    }

    /// Stores an upload and uses up its ticket in one transaction: false when the ticket
    /// was gone (used by a concurrent upload, or expired), and then nothing is stored.
    public func addUpload(_ image: ImageRecord, tokenHash: String?, now: Date = Date()) async throws -> Bool {
        try await pool.write { db in
            if let tokenHash {
                try db.execute(
                    sql: "DELETE FROM uploadTicket WHERE tokenHash = ? AND expiresAt > ?", arguments: [tokenHash, now])
                guard db.changesCount == 1 else { return false }
            }
            try image.insert(db)
            return true
        }
    }

    // MARK: templates

    public func addTemplate(_ template: TemplateRecord) async throws -> Stored<TemplateRecord> {
        try await pool.write { db in
            do {
                return try template.insertStored(db)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw StoreError.nameTaken
            }
        }
    }

    /// Templates a user may use: their own first, then the global ones.
    public func templates(for accountID: Int64?) async throws -> [Stored<TemplateRecord>] {
        try await pool.read { db in
            try Stored<TemplateRecord>.fetchAll(
                db,
                sql: "SELECT * FROM template WHERE ownerId IS NULL OR ownerId = ? ORDER BY ownerId IS NULL, nameKey",
                arguments: [accountID])
        }
    }

    // MARK: render cache

    public func cachedRender(key: String) async throws -> ImageRecord? {
        try await pool.read { db in
            try ImageRecord.fetchOne(
                db,
                sql: "SELECT image.* FROM renderCache JOIN image ON image.id = renderCache.imageId WHERE renderKey = ?",
                arguments: [key])
        }
    }

    /// Stores a rendered picture under its render key (a concurrent render of the same
    /// key keeps the first one's image).
    public func addRender(_ image: ImageRecord, key: String) async throws -> ImageRecord {
        try await pool.write { db in
            if let existing = try ImageRecord.fetchOne(
                db,
                sql: "SELECT image.* FROM renderCache JOIN image ON image.id = renderCache.imageId WHERE renderKey = ?",
                arguments: [key])
            {
                return existing
            }
            try image.insert(db)
            try db.execute(
                sql: "INSERT INTO renderCache (renderKey, imageId) VALUES (?, ?)", arguments: [key, image.id])
            return image
        }
    }
}
