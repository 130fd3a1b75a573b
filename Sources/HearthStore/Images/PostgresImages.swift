import Foundation
import PostgresNIO

/// Picture rows, upload tickets, templates and the render cache on PostgreSQL.
extension PostgresStore: ImageStore {
    static let imageColumns = "id, ownerId, kind, format, width, height, bytes, createdAt"
    static let imageColumnsQualified = qualified(imageColumns, "image")
    static let templateColumns =
        "id, ownerId, name, nameKey, imageId, boxes, createdAt, title, keywords, source, example"

    /// "a, b" → "table.a, table.b", for joins.
    static func qualified(_ columns: String, _ table: String) -> String {
        columns.split(separator: ",").map { "\(table)." + $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: ", ")
    }

    static func image(_ row: PostgresRow) throws -> ImageRecord {
        let (id, owner, kind, format, width, height, bytes, createdAt) = try row.decode(
            (String, Int64?, String, String, Int64, Int64, Int64, Date).self)
        return ImageRecord(
            id: id, ownerId: owner, kind: kind, format: format, width: Int(width), height: Int(height),
            bytes: Int(bytes), createdAt: createdAt)
    }

    static func insert(_ db: PostgresConnection, _ image: ImageRecord, _ logger: Logger) async throws {
        try await db.query(
            """
            INSERT INTO image (\(unescaped: imageColumns)) VALUES (\(image.id), \(image.ownerId), \(image.kind),
              \(image.format), \(Int64(image.width)), \(Int64(image.height)), \(Int64(image.bytes)), \(image.createdAt))
            """, logger: logger)
    }

    public func addImage(_ image: ImageRecord) async throws {
        let logger = self.logger
        try await connection { db in try await Self.insert(db, image, logger) }
    }

    public func image(id: String) async throws -> ImageRecord? {
        try await rows("SELECT \(unescaped: Self.imageColumns) FROM image WHERE id = \(id)").first.map(Self.image)
    }

    public func uploads(of ownerID: Int64, idPrefix prefix: String) async throws -> [ImageRecord] {
        try await rows(
            """
            SELECT \(unescaped: Self.imageColumns) FROM image
            WHERE ownerId = \(ownerID) AND kind = 'upload' AND starts_with(id, \(prefix))
            ORDER BY createdAt DESC LIMIT 2
            """
        ).map(Self.image)
    }

    public func uploads(of ownerID: Int64, page: Int) async throws -> (images: [ImageRecord], total: Int) {
        let size = Int64(StoreLimits.imagePageSize)
        let total = try await rows("SELECT COUNT(*) FROM image WHERE ownerId = \(ownerID) AND kind = 'upload'")[0]
            .decode(Int64.self)
        let images = try await rows(
            """
            SELECT \(unescaped: Self.imageColumns) FROM image WHERE ownerId = \(ownerID) AND kind = 'upload'
            ORDER BY createdAt DESC, id COLLATE "C" LIMIT \(size) OFFSET \(Int64(page - 1) * size)
            """
        ).map(Self.image)
        return (images, Int(total))
    }

    public func imageIDs(ownerID: Int64) async throws -> [String] {
        try await rows("SELECT id FROM image WHERE ownerId = \(ownerID)").map { try $0.decode(String.self) }
    }

    public func setAvatar(_ accountID: Int64, imageID: String?) async throws {
        try await run("UPDATE account SET avatarImageId = \(imageID) WHERE id = \(accountID)")
    }

    public func addUploadTicket(tokenHash: String, accountID: Int64, expiresAt: Date, now: Date) async throws {
        try await transaction { db in
            try await db.query("DELETE FROM uploadTicket WHERE expiresAt < \(now)", logger: self.logger)
            try await db.query(
                """
                INSERT INTO uploadTicket (tokenHash, accountId, expiresAt)
                VALUES (\(tokenHash), \(accountID), \(expiresAt))
                """, logger: self.logger)
        }
    }

    public func uploadTicket(tokenHash: String, now: Date) async throws -> Int64? {
        try await rows("SELECT accountId FROM uploadTicket WHERE tokenHash = \(tokenHash) AND expiresAt > \(now)")
            .first?.decode(Int64.self)
    }

    /// The ticket is deleted first: of two uploads racing with one ticket, the second finds
    /// nothing to delete (it waits for the first's row lock, then sees the row gone).
    public func addUpload(_ image: ImageRecord, tokenHash: String?, now: Date) async throws -> Bool {
        try await transaction { db in
            if let tokenHash {
                let used = try await db.rows(
                    "DELETE FROM uploadTicket WHERE tokenHash = \(tokenHash) AND expiresAt > \(now) RETURNING 1",
                    self.logger
                )
                guard !used.isEmpty else { return false }
            }
            try await Self.insert(db, image, self.logger)
            return true
        }
    }

    static func template(_ row: PostgresRow) throws -> Stored<TemplateRecord> {
        let (id, owner, name, nameKey, imageId, boxes, createdAt, title, keywords, source, example) =
            try row.decode((Int64, Int64?, String, String, String, String, Date, String?, String, String?, String).self)
        var record = TemplateRecord(
            ownerId: owner, name: name, imageId: imageId, boxes: boxes, createdAt: createdAt, title: title,
            keywords: Self.decodeWords(keywords), source: source, example: Self.decodeWords(example))
        record.nameKey = nameKey
        return Stored(id: id, record)
    }

    public func addTemplate(_ template: TemplateRecord) async throws -> Stored<TemplateRecord> {
        do {
            return try await rows(
                """
                INSERT INTO template
                  (ownerId, name, nameKey, imageId, boxes, createdAt, title, keywords, source, example)
                VALUES (\(template.ownerId), \(template.name), \(template.nameKey), \(template.imageId),
                  \(template.boxes), \(template.createdAt), \(template.title), \(Self.encodeWords(template.keywords)),
                  \(template.source), \(Self.encodeWords(template.example)))
                RETURNING \(unescaped: Self.templateColumns)
                """
            ).map(Self.template)[0]
        } catch  where Self.isUniqueViolation(error) {
            throw StoreError.nameTaken
        }
    }

    /// Keywords and examples as JSON arrays, as GRDB keeps them on SQLite (`hearth migrate` copies the text).
    static func encodeWords(_ words: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(words)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func decodeWords(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }

    public func templates(for accountID: Int64?) async throws -> [Stored<TemplateRecord>] {
        try await rows(
            """
            SELECT \(unescaped: Self.templateColumns) FROM template WHERE ownerId IS NULL OR ownerId = \(accountID)
            ORDER BY ownerId IS NULL, nameKey COLLATE "C"
            """
        ).map(Self.template)
    }

    public func cachedRender(key: String) async throws -> ImageRecord? {
        try await rows(
            """
            SELECT \(unescaped: Self.imageColumnsQualified) FROM renderCache
            JOIN image ON image.id = renderCache.imageId WHERE renderKey = \(key)
            """
        ).first.map(Self.image)
    }

    /// A concurrent render of the same key keeps the first one's picture.
    public func addRender(_ image: ImageRecord, key: String) async throws -> ImageRecord {
        try await transaction { db in
            try await db.query("SELECT pg_advisory_xact_lock(hashtext(\(key)))", logger: self.logger)
            if let existing = try await db.rows(
                """
                SELECT \(unescaped: Self.imageColumnsQualified) FROM renderCache
                JOIN image ON image.id = renderCache.imageId WHERE renderKey = \(key)
                """, self.logger
            ).first.map(Self.image) {
                return existing
            }
            try await Self.insert(db, image, self.logger)
            try await db.query(
                "INSERT INTO renderCache (renderKey, imageId) VALUES (\(key), \(image.id))", logger: self.logger)
            return image
        }
    }
}
