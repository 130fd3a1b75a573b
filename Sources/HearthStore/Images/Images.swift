import Foundation

/// A stored picture. The bytes live in media/<id>.<format>; this row says whose it is.
public struct ImageRecord: Codable, Sendable, Equatable {
    public var id: String
    public var ownerId: Int64?
    public var kind: String
    public var format: String
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var createdAt: Date

    public init(
        id: String, ownerId: Int64?, kind: String, format: String, width: Int, height: Int, bytes: Int,
        createdAt: Date = Date()
    ) {
        (self.id, self.ownerId, self.kind, self.format) = (id, ownerId, kind, format)
        (self.width, self.height, self.bytes, self.createdAt) = (width, height, bytes, createdAt)
    }
}

/// A user's (or, with no owner, a global) template: a picture and its caption boxes as JSON.
/// Imported ones (`hearth templates import`) also keep their pack's title, keywords, example
/// captions and where the picture came from.
public struct TemplateRecord: Codable, Sendable {
    public var ownerId: Int64?
    public var name: String
    public var nameKey: String
    public var imageId: String
    public var boxes: String
    public var createdAt: Date
    public var title: String?
    public var keywords: [String]
    public var source: String?
    public var example: [String]

    public init(
        ownerId: Int64?, name: String, imageId: String, boxes: String, createdAt: Date = Date(), title: String? = nil,
        keywords: [String] = [], source: String? = nil, example: [String] = []
    ) {
        (self.ownerId, self.name, self.nameKey, self.imageId, self.boxes, self.createdAt) = (
            ownerId, name, name.lowercased(), imageId, boxes, createdAt
        )
        (self.title, self.keywords, self.source, self.example) = (title, keywords, source, example)
    }
}

/// The images part of the store, the same on every engine.
public protocol ImageStore: Sendable {
    func addImage(_ image: ImageRecord) async throws

    func image(id: String) async throws -> ImageRecord?

    /// The caller's uploads whose id starts with `prefix` (people type short ids).
    func uploads(of ownerID: Int64, idPrefix prefix: String) async throws -> [ImageRecord]

    /// Uploads of `ownerID`, newest first, `imagePageSize` a page (page 1 first).
    func uploads(of ownerID: Int64, page: Int) async throws -> (images: [ImageRecord], total: Int)

    /// Ids of every image an account owns (their files go when the account does).
    func imageIDs(ownerID: Int64) async throws -> [String]

    func setAvatar(_ accountID: Int64, imageID: String?) async throws

    func addUploadTicket(tokenHash: String, accountID: Int64, expiresAt: Date, now: Date) async throws

    /// The account a live ticket belongs to (the ticket stays until used or expired).
    func uploadTicket(tokenHash: String, now: Date) async throws -> Int64?

    /// Stores an upload and uses up its ticket in one transaction: false when the ticket
    /// was gone (used by a concurrent upload, or expired), and then nothing is stored.
    func addUpload(_ image: ImageRecord, tokenHash: String?, now: Date) async throws -> Bool

    func addTemplate(_ template: TemplateRecord) async throws -> Stored<TemplateRecord>

    /// Templates a user may use: their own first, then the global ones.
    func templates(for accountID: Int64?) async throws -> [Stored<TemplateRecord>]

    func cachedRender(key: String) async throws -> ImageRecord?

    /// Stores a rendered picture under its render key (a concurrent render of the same
    /// key keeps the first one's image).
    func addRender(_ image: ImageRecord, key: String) async throws -> ImageRecord
}

extension ImageStore {
    public func addUploadTicket(tokenHash: String, accountID: Int64, expiresAt: Date) async throws {
        try await addUploadTicket(tokenHash: tokenHash, accountID: accountID, expiresAt: expiresAt, now: Date())
    }

    public func uploadTicket(tokenHash: String) async throws -> Int64? {
        try await uploadTicket(tokenHash: tokenHash, now: Date())
    }

    public func addUpload(_ image: ImageRecord, tokenHash: String?) async throws -> Bool {
        try await addUpload(image, tokenHash: tokenHash, now: Date())
    }
}
