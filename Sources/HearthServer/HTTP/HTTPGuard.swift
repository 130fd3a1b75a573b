import HTTPTypes
import Hummingbird
import NIOCore

/// Limits on what an HTTP request may carry; each has a test that crosses it. Past these,
/// NIO's parser refuses a request head over 80 KiB outright (400, connection closed).
enum HTTPLimits {
    /// Bytes of the request target (path and query). Hearth's longest is an upload link (~50).
    static let maxTargetBytes = 2048
    /// Bytes of all header names and values together.
    static let maxHeaderBytes = 8192
}

/// Runs before every route (and for unknown paths): refuses over-long targets (414) and
/// header sections (431) before any handler sees them, and marks every response
/// `nosniff` with a content policy that lets only Hearth's own pictures, styles, scripts (its
/// service worker among them) and app manifest load.
struct HTTPGuard<Context: RequestContext>: RouterMiddleware {
    static var securityHeaders: HTTPFields {
        var fields = HTTPFields()
        fields[.xContentTypeOptions] = "nosniff"
        fields[.contentSecurityPolicy] =
            "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        return fields
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        if request.uri.description.utf8.count > HTTPLimits.maxTargetBytes {
            response = MediaRoutes.text(
                .uriTooLong, "The address is too long (the limit is \(HTTPLimits.maxTargetBytes) bytes).")
        } else if request.headers.reduce(0, { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count })
            > HTTPLimits.maxHeaderBytes
        {
            response = MediaRoutes.text(
                .requestHeaderFieldsTooLarge,
                "The request headers are too large (the limit is \(HTTPLimits.maxHeaderBytes) bytes).")
        } else {
            do { response = try await next(request, context) } catch let error as HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
        }
        for field in Self.securityHeaders { response.headers[field.name] = field.value }
        return response
    }
}
