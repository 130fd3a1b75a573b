import NIOCore

/// Recognises a browser or HTTP client that reached the IRC port: a request line
/// (`POST / HTTP/1.1`) or a header (`Host: …`). Its body would otherwise run as plain-mode
/// commands — a cross-protocol request from any web page a user visits could join
/// channels, chat and register in their name — so such a connection is closed unanswered.
enum HTTPProbe {
    static let methods: [String] = [
        "GET", "POST", "PUT", "HEAD", "OPTIONS", "DELETE", "PATCH", "CONNECT", "TRACE", "PRI",
    ]
    /// Headers every HTTP client sends; IRC and plain-mode first lines never start so.
    static let headers: [String] = [
        "host", "user-agent", "accept", "accept-encoding", "accept-language", "content-type", "content-length",
        "connection", "origin", "referer", "cookie", "upgrade",
    ]

    static func looksLikeHTTP(_ line: ByteBufferView) -> Bool {
        let text = String(decoding: line.prefix(2048), as: UTF8.self)
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        if words.count >= 3, methods.contains(String(words[0])), words[words.count - 1].hasPrefix("HTTP/") {
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return false }
        return headers.contains(text[..<colon].lowercased())
    }
}
