import Foundation
import HTTPTypes
import HearthCrypto
import HearthKit
import HearthMedia
import HearthProtocol
import HearthStore
import Hummingbird
import NIOCore

/// Parts of a multipart/form-data body (RFC 7578), enough for one file input and a few fields.
enum Multipart {
    /// The boundary of a `multipart/form-data` Content-Type; nil for any other type.
    static func boundary(_ contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        return contentType.split(separator: ";").compactMap { part -> String? in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            return trimmed.lowercased().hasPrefix("boundary=")
                ? String(trimmed.dropFirst(9)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
        }.first
    }

    static func firstFile(_ body: [UInt8], boundary: String) -> [UInt8]? {
        part(body, boundary: boundary) { $0.contains("filename=") }
    }

    /// The text of the field `name` (a form's CSRF token beside its file), nil when absent.
    static func field(_ name: String, _ body: [UInt8], boundary: String) -> String? {
        part(body, boundary: boundary) { headers in
            !headers.contains("filename=") && headers.contains("name=\"\(name.lowercased())\"")
        }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The content of the first part whose (lower-cased) headers `matches`.
    static func part(_ body: [UInt8], boundary: String, matches: (String) -> Bool) -> [UInt8]? {
        let delimiter = Array("--\(boundary)".utf8)
        let headerEnd = Array("\r\n\r\n".utf8)
        var start = 0
        while let open = find(delimiter, in: body, from: start) {
            let partStart = open + delimiter.count
            guard let headersEnd = find(headerEnd, in: body, from: partStart) else { return nil }
            let headers = String(decoding: body[partStart..<headersEnd], as: UTF8.self).lowercased()
            let contentStart = headersEnd + headerEnd.count
            guard let next = find(Array("\r\n".utf8) + delimiter, in: body, from: contentStart) else { return nil }
            if matches(headers) { return Array(body[contentStart..<next]) }
            start = next + 2
        }
        return nil
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var i = from
        while i <= haystack.count - needle.count {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
