/// Picture bytes kept in the database, for engines several processes share: any process can
/// then serve any link. Content-addressed: bytes are stored once under their hash, however many
/// pictures have them. (On SQLite the files in media/ are the pictures; `Store.sharedPictures`
/// is nil there.)
public protocol PictureStore: Sendable {
    /// Keeps the bytes of picture `id` (a new id, never rewritten).
    func putPicture(id: String, bytes: [UInt8]) async throws
    /// The bytes of picture `id`, if any process stored them.
    func picture(id: String) async throws -> [UInt8]?
    /// Forgets pictures; bytes no other picture has go too.
    func deletePictures(ids: [String]) async throws
}
