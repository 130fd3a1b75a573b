import Foundation
import Testing

/// A visitor's browser, as far as the tests need one: keeps cookies, sends forms, never
/// follows redirects (tests look at them), signs in through the sign-in form.
public final class WebBrowser: @unchecked Sendable {  // used by one test task at a time
    public let port: Int
    public private(set) var cookies: [String: String] = [:]
    /// Sent with every request (a reverse proxy's `X-Forwarded-For`, say).
    public var headers: [String: String] = [:]

    public struct Page {
        public let status: Int
        public let headers: [String: String]
        public let body: String
        public var location: String? { headers["location"] }
    }

    public init(port: Int) { self.port = port }
    public convenience init(_ server: TestServer) { self.init(port: server.httpPort) }

    public func get(_ path: String) async throws -> Page { try await send("GET", path) }

    /// Posts a form (`application/x-www-form-urlencoded`); `csrf: true` adds the token a page gave.
    public func post(_ path: String, form: [String: String], csrf: Bool = true) async throws -> Page {
        var fields = form
        if csrf, let token = cookies["hearth_csrf"] { fields["csrf"] = token }
        let body = fields.sorted { $0.key < $1.key }.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }
            .joined(separator: "&")
        return try await send(
            "POST", path, body: Data(body.utf8), headers: ["Content-Type": "application/x-www-form-urlencoded"])
    }

    /// Posts a form with a chosen file (`multipart/form-data`), as a browser sends a file input
    /// `file` beside the form's fields; `csrf: true` adds the token a page gave.
    public func postFile(
        _ path: String, fields: [String: String] = [:], file: [UInt8], fileName: String = "file.txt",
        csrf: Bool = true
    ) async throws -> Page {
        var fields = fields
        if csrf, let token = cookies["hearth_csrf"] { fields["csrf"] = token }
        let boundary = "----hearth-test-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Data(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        body += Data(file) + Data("\r\n--\(boundary)--\r\n".utf8)
        return try await send(
            "POST", path, body: body, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
    }

    /// Signs in through the form; returns the answer to the POST (303 on success).
    @discardableResult
    public func signIn(_ name: String, _ password: String = "s3cret-pass", next: String = "/") async throws -> Page {
        _ = try await get("/signin")
        return try await post("/signin", form: ["name": name, "password": password, "next": next])
    }

    public func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:])
        async throws -> Page
    {
        var fields = self.headers.merging(headers) { $1 }
        if !cookies.isEmpty {
            fields["Cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "; ")
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
        let (data, response, setCookies) = try await Web.fetchWithCookies(
            url, method: method, body: body, headers: fields)
        for cookie in setCookies {
            let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty || cookie.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return Page(status: response.statusCode, headers: response.fields, body: String(decoding: data, as: UTF8.self))
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
