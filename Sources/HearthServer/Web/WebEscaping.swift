import Mustache

/// HTML escaping for the templates, the same five characters as Mustache's own, but a text
/// without any of them (most) is returned as it is, and the rest is escaped byte by byte:
/// Mustache's character-by-character escaping was a third of a page's rendering.
struct WebEscaping: MustacheContentType {
    static let name = "HEARTH_HTML"
    /// Put first in every template, so its `{{values}}` are escaped here.
    static let pragma = "{{% CONTENT_TYPE: \(name)}}"

    static func register() { MustacheContentTypes.register(WebEscaping(), named: name) }

    func escapeText(_ text: String) -> String { Self.escape(text) }

    static func escape(_ text: String) -> String {
        let bytes = text.utf8
        guard bytes.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32)
        for byte in bytes {
            switch byte {
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x22: out.append(contentsOf: "&quot;".utf8)
            case 0x27: out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
