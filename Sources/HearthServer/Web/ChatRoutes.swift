import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web chat: the page at `/chat`, its script and its stylesheet. The page is revalidated on
/// each visit (a 304 thanks to its ETag); it links its files with their content hash (`?v=`),
/// so a request for the current version may be cached for good.
struct ChatRoutes {
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        let version: String
        /// Linked with `?v=VERSION`, so it may be cached for a year when that matches.
        let versioned: Bool

        init(_ text: String, _ contentType: String, versioned: Bool) {
            (body, self.contentType) = (ByteBuffer(string: text), contentType)
            (version, self.versioned) = (ChatPage.version(text), versioned)
        }
    }

    static let assets: [(String, Asset)] = [
        ("/chat", Asset(ChatPage.html, "text/html; charset=utf-8", versioned: false)),
        ("/static/chat.js", Asset(ChatPage.script, "text/javascript; charset=utf-8", versioned: true)),
        ("/static/chat.css", Asset(ChatPage.css, "text/css; charset=utf-8", versioned: true)),
    ]

    func add(to router: Router<HearthRequestContext>) {
        for (path, asset) in Self.assets {
            router.get(RouterPath(path)) { request, _ in Self.response(asset, request) }
            router.head(RouterPath(path)) { request, _ in
                let response = Self.response(asset, request)
                return Response(status: response.status, headers: response.headers)
            }
        }
    }

    static func response(_ asset: Asset, _ request: Request) -> Response {
        let etag = "\"\(asset.version)\""
        let forever = asset.versioned && request.uri.queryParameters.get("v") == asset.version
        let headers: HTTPFields = [
            .contentType: asset.contentType, .eTag: etag,
            .cacheControl: forever ? "public, max-age=31536000, immutable" : "no-cache",
        ]
        if request.headers[.ifNoneMatch]?.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == etag
        }) == true {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }
}
