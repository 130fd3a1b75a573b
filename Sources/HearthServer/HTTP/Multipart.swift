import Foundation
import NIOCore

/// Parts of a multipart/form-data body (RFC 7578), enough for one file input and a few fields.
/// Parsed in one pass with a linear-time search (KMP), over the body as received (no copy of it).
struct Multipart {
    /// RFC 2046: a boundary has 1 to 70 characters.
    static let maxBoundaryLength = 70

    struct Part {
        /// The part's headers, lower-cased.
        let headers: String
        let content: Range<Int>
    }

    let body: ByteBuffer
    let parts: [Part]

    /// The boundary of a `multipart/form-data` Content-Type; nil for any other type, and for a
    /// boundary RFC 2046 does not allow (too long, or a character outside its set).
    static func boundary(_ contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        let boundary = contentType.split(separator: ";").compactMap { part -> String? in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            return trimmed.lowercased().hasPrefix("boundary=")
                ? String(trimmed.dropFirst(9)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
        }.first
        guard let boundary, isBoundary(boundary) else { return nil }
        return boundary
    }

    /// RFC 2046's `bchars`: digits, ASCII letters, `'()+_,-./:=?` and a space, but not last.
    static func isBoundary(_ text: String) -> Bool {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        return (1...maxBoundaryLength).contains(text.utf8.count) && text.utf8.allSatisfy(allowed.contains)
            && text.utf8.last != UInt8(ascii: " ")
    }

    init(_ body: ByteBuffer, boundary: String) {
        self.body = body
        parts = body.withUnsafeReadableBytes { Self.parts($0, boundary: boundary) }
    }

    /// Every complete part: each search starts where the last ended, so the whole is linear.
    static func parts(_ body: UnsafeRawBufferPointer, boundary: String) -> [Part] {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        let headerEnd = Array("\r\n\r\n".utf8)
        var parts: [Part] = []
        // The first delimiter may open the body, without the line break before it.
        let opening = Array(delimiter.dropFirst(2))
        guard var open = body.starts(with: opening) ? 0 : find(delimiter, in: body, from: 0).map({ $0 + 2 })
        else { return [] }
        while true {
            let partStart = open + opening.count
            guard let headersEnd = find(headerEnd, in: body, from: partStart) else { return parts }
            let headers = String(
                decoding: UnsafeRawBufferPointer(rebasing: body[partStart..<headersEnd]), as: UTF8.self)
            let contentStart = headersEnd + headerEnd.count
            guard let next = find(delimiter, in: body, from: contentStart) else { return parts }
            parts.append(Part(headers: headers.lowercased(), content: contentStart..<next))
            open = next + 2
        }
    }

    /// Where `needle` first occurs in `haystack` at or after `from`: Knuth–Morris–Pratt, so no
    /// byte is looked at twice however the body repeats the boundary's start.
    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard !needle.isEmpty, from <= haystack.count else { return nil }
        // fallback[i]: the length of the longest proper prefix of needle[0...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: needle.count)
        var k = 0
        for i in 1..<max(1, needle.count) {
            while k > 0 && needle[i] != needle[k] { k = fallback[k - 1] }
            if needle[i] == needle[k] { k += 1 }
            fallback[i] = k
        }
        var matched = 0
        for i in from..<haystack.count {
            while matched > 0 && haystack[i] != needle[matched] { matched = fallback[matched - 1] }
            if haystack[i] == needle[matched] { matched += 1 }
            if matched == needle.count { return i - needle.count + 1 }
        }
        return nil
    }

    func bytes(_ part: Part) -> [UInt8] {
        body.getBytes(at: body.readerIndex + part.content.lowerBound, length: part.content.count) ?? []
    }

    var firstFile: [UInt8]? {
        parts.first { $0.headers.contains("filename=") }.map(bytes)
    }

    /// The text of the field `name` (a form's CSRF token beside its file), nil when absent.
    func field(_ name: String) -> String? {
        parts.first { !$0.headers.contains("filename=") && $0.headers.contains("name=\"\(name.lowercased())\"") }
            .map { String(decoding: bytes($0), as: UTF8.self) }
    }
}
