import Foundation
import HearthCrypto
import PostgresNIO

/// Picture bytes in PostgreSQL, stored once per content (`pictureBlob`, keyed by BLAKE2b-256).
extension PostgresStore: PictureStore {
    public var sharedPictures: (any PictureStore)? { self }

    public func putPicture(id: String, bytes: [UInt8]) async throws {
        let hash = Sodium.contentHash(bytes)
        try await transaction { db in
            try await db.query(
                """
                INSERT INTO pictureBlob (hash, bytes) VALUES (\(hash), \(ByteBuffer(bytes: bytes)))
                ON CONFLICT DO NOTHING
                """, logger: self.logger)
            try await db.query(
                "INSERT INTO pictureRef (imageId, hash) VALUES (\(id), \(hash)) ON CONFLICT DO NOTHING",
                logger: self.logger)
        }
    }

    public func picture(id: String) async throws -> [UInt8]? {
        try await rows(
            "SELECT b.bytes FROM pictureRef r JOIN pictureBlob b ON b.hash = r.hash WHERE r.imageId = \(id)"
        ).first.map { row in
            var buffer = try row.decode(ByteBuffer.self)
            return buffer.readBytes(length: buffer.readableBytes) ?? []
        }
    }

    public func deletePictures(ids: [String]) async throws {
        guard !ids.isEmpty else { return }
        try await transaction { db in
            let hashes = try await db.rows(
                "DELETE FROM pictureRef WHERE imageId = ANY(\(ids)) RETURNING hash", self.logger
            ).map { try $0.decode(String.self) }
            try await db.query(
                """
                DELETE FROM pictureBlob b WHERE b.hash = ANY(\(hashes))
                  AND NOT EXISTS (SELECT 1 FROM pictureRef r WHERE r.hash = b.hash)
                """, logger: self.logger)
        }
    }
}
