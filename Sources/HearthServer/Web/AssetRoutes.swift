import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The site's static files (`WebAssets`): the stylesheets, the chat's script and its page at
/// `/chat`. Each answers with its ETag and a 304 when the browser has it. A file linked with its
/// current `?v=` may be cached for good; anything else is revalidated on each use.
struct AssetRoutes {
    let assets: WebAssets

    func add(to router: Router<HearthRequestContext>) {
        for (path, asset) in assets.byPath {
            router.get(RouterPath(path)) { request, _ in Self.response(asset, request) }
            router.head(RouterPath(path)) { request, _ in
                let response = Self.response(asset, request)
                return Response(status: response.status, headers: response.headers)
            }
        }
    }

    static func response(_ asset: WebAssets.Asset, _ request: Request) -> Response {
        let etag = "\"\(asset.version)\""
        let forever = asset.versioned && request.uri.queryParameters.get("v") == asset.version
        let headers: HTTPFields = [
            .contentType: asset.contentType, .eTag: etag,
            .cacheControl: forever ? "public, max-age=31536000, immutable" : "no-cache",
        ]
        if hasCopy(request, etag: etag) { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    /// The browser holds this version: `If-None-Match` names `etag` (compared weakly, as RFC 9110
    /// 13.1.2 asks: `W/"x"` matches `"x"`) or is `*`.
    static func hasCopy(_ request: Request, etag: String) -> Bool {
        request.headers[.ifNoneMatch]?.split(separator: ",").contains {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == etag || tag == "W/" + etag || tag == "*"
        } ?? false
    }
}
