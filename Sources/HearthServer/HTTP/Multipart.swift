import Foundation
import HTTPTypes
import HearthCrypto
import HearthKit
import HearthMedia
import HearthProtocol
import HearthStore
import Hummingbird
import NIOCore

/// The first file in a multipart/form-data body (RFC 7578), enough for one file input.
enum Multipart {
    static func firstFile(_ body: [UInt8], boundary: String) -> [UInt8]? {
        let delimiter = Array("--\(boundary)".utf8)
        let headerEnd = Array("\r\n\r\n".utf8)
        var start = 0
        while let open = find(delimiter, in: body, from: start) {
            let partStart = open + delimiter.count
            guard let headersEnd = find(headerEnd, in: body, from: partStart) else { return nil }
            let headers = String(decoding: body[partStart..<headersEnd], as: UTF8.self).lowercased()
            let contentStart = headersEnd + headerEnd.count
            guard let next = find(Array("\r\n".utf8) + delimiter, in: body, from: contentStart) else { return nil }
            if headers.contains("filename=") { return Array(body[contentStart..<next]) }
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
