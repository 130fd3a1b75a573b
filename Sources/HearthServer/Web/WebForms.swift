import Foundation
import HTTPTypes
import HearthCrypto
import Hummingbird

/// Limits of the web side; each has a test that crosses it.
enum WebLimits {
    /// Bytes of a posted form (a comment is at most 400 characters; sign-in far less).
    static let maxFormBytes = 8 * 1024
    /// Bytes of a form that carries a whole text (`WebAction.isLong`: a recipe of
    /// `RecipeCommands.maxIngredients` and `maxSteps` lines of `maxLine` characters, percent-encoded).
    static let maxLongFormBytes = 96 * 1024
    /// Bytes of the one-time message a form leaves for the next page.
    static let maxFlashBytes = 300
    /// Characters of a sign-in name and secret.
    static let maxNameLength = 64
    static let maxSecretLength = 256
    /// Characters of any other field of an account form (an email address, a recovery code, a setting).
    static let maxFieldLength = 256
}

/// Cookies, forms and the CSRF token every form carries.
enum WebForms {
    static let sessionCookie = "hearth_session"
    static let csrfCookie = "hearth_csrf"
    static let flashCookie = "hearth_flash"

    static func cookies(_ request: Request) -> [String: String] {
        var jar: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                jar[parts[0].trimmingCharacters(in: .whitespaces)] = String(parts[1])
            }
        }
        return jar
    }

    /// A `Set-Cookie` value; `secure` when the site is reached over TLS.
    static func setCookie(
        _ name: String, _ value: String, maxAge: Int, httpOnly: Bool = true, secure: Bool, path: String = "/"
    ) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); SameSite=Lax" + (httpOnly ? "; HttpOnly" : "")
            + (secure ? "; Secure" : "")
    }

    /// A form's fields, or the answer that refuses it (too large, or not a form).
    static func fields(_ request: Request, limit: Int = WebLimits.maxFormBytes) async
        -> Result<[String: String], Refused>
    {
        guard let body = try? await request.body.collect(upTo: limit) else {
            return .failure(
                Refused(MediaRoutes.text(.contentTooLarge, "The form is too large (at most \(limit) bytes).")))
        }
        guard let fields = decode(String(buffer: body)) else {
            return .failure(Refused(MediaRoutes.text(.badRequest, "The form could not be read (a broken % escape).")))
        }
        return .success(fields)
    }

    /// A form sent with a chosen text file (`WebAction.fileLimit`): its fields, and the file's
    /// UTF-8 text as the field `name`; refused past `limit` bytes of file (and a short form's
    /// bytes of fields and part headers beside it), or when the file is not UTF-8 text.
    static func fileFields(_ request: Request, boundary: String, limit: Int, as name: String) async
        -> Result<[String: String], Refused>
    {
        guard let body = try? await request.body.collect(upTo: limit + WebLimits.maxFormBytes) else {
            return .failure(
                Refused(MediaRoutes.text(.contentTooLarge, "The file is too large (at most \(limit / 1024) KiB).")))
        }
        let multipart = Multipart(body, boundary: boundary)
        var fields: [String: String] = [:]
        for part in multipart.parts where !part.headers.contains("filename=") {
            guard let field = part.headers.firstMatch(of: /name="([^"]*)"/)?.1 else { continue }
            fields[String(field)] = String(decoding: multipart.bytes(part), as: UTF8.self)
        }
        if let file = multipart.firstFile, !file.isEmpty {
            guard let text = String(validating: file, as: UTF8.self) else {
                return .failure(
                    Refused(
                        MediaRoutes.text(.badRequest, "The file is not UTF-8 text; save it as UTF-8 and try again.")))
            }
            fields[name] = text
        }
        return .success(fields)
    }

    /// The answer to a form whose CSRF token does not match the cookie's.
    static var expired: Refused {
        Refused(MediaRoutes.text(.forbidden, "The form has expired; reload the page and try again."))
    }

    struct Refused: Error {
        let response: Response
        init(_ response: Response) { self.response = response }
    }

    /// `a=1&b=x+y` (a form body or a query string; `+` is a space), the first value of each
    /// name; nil when an escape is broken. By hand: URLComponents traps on some bytes.
    static func decode(_ encoded: String) -> [String: String]? {
        var fields: [String: String] = [:]
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String? {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = unescape(parts[0]), let value = parts.count > 1 ? unescape(parts[1]) : "" else {
                return nil
            }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    /// A fresh CSRF token (the cookie and every form's hidden field must match).
    static func newToken() -> String { Sodium.hex(Sodium.randomBytes(16)) }

    static func isToken(_ text: String) -> Bool { text.utf8.count == 32 && text.allSatisfy(\.isHexDigit) }
}
