import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The JSON the site's scripts are answered with (the chat's calls, the push settings'): one
/// object of strings, a nil one as null, keys sorted, never cached.
enum WebJSON {
    static func response(_ status: HTTPResponse.Status, _ fields: [String: String?]) -> Response {
        let object = fields.mapValues { $0.map { $0 as Any } ?? NSNull() }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `{"error": text}`.
    static func error(_ status: HTTPResponse.Status, _ text: String) -> Response { response(status, ["error": text]) }
}
