/// A picture an app draws on request for its pages (the meme maker's live preview): bytes, not
/// a page. The server asks for a signed-in viewer, bounds how often one may ask and keeps recent
/// answers (`WebLimits` in HearthServer), so the app only draws.
public struct WebPicture: Sendable {
    /// The route of the GET: `/make/preview`.
    public var path: String
    public var draw: @Sendable (WebRequest) async throws -> Drawn

    /// A drawn picture and its type (`image/jpeg`).
    public struct Drawn: Sendable {
        public var bytes: [UInt8]
        public var contentType: String

        public init(bytes: [UInt8], contentType: String) { (self.bytes, self.contentType) = (bytes, contentType) }
    }

    public init(_ path: String, draw: @escaping @Sendable (WebRequest) async throws -> Drawn) {
        (self.path, self.draw) = (path, draw)
    }
}
