/// A page's UTF-8 read with plain forward searches, each within a window the caller bounds: a
/// regex over a hostile page (unclosed tags, no `>`) rescanned the rest of it from every `<`, and
/// Foundation's `range(of:)` on a Substring copied the page's tail for each search.
struct HTMLBytes {
    let bytes: [UInt8]
    var count: Int { bytes.count }

    init(_ text: some StringProtocol) { bytes = Array(text.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    static let open = UInt8(ascii: "<")
    static let close = UInt8(ascii: ">")

    static func lower(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }
    static func isLetter(_ byte: UInt8) -> Bool { lower(byte) &- 97 < 26 }
    static func isWord(_ byte: UInt8) -> Bool { isLetter(byte) || byte &- 48 < 10 || byte == UInt8(ascii: "_") }
    static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte &- 9 < 5 }

    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// Whether `needle` (lowercase ASCII) is at `index`, ignoring case.
    func has(_ needle: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + needle.count <= bytes.count else { return false }
        for (offset, byte) in needle.enumerated() where Self.lower(bytes[index + offset]) != byte { return false }
        return true
    }

    /// Where `needle` (ASCII) first starts in `from..<end`, ignoring case; nil when it does not.
    func find(_ needle: String, from: Int, before end: Int = .max) -> Int? {
        let needle = Array(needle.lowercased().utf8)
        let end = min(end, bytes.count)
        guard let first = needle.first, from >= 0, end - from >= needle.count else { return nil }
        var at = from
        while at <= end - needle.count {
            if Self.lower(bytes[at]) == first, has(needle, at: at) { return at }
            at += 1
        }
        return nil
    }

    func firstIndex(of byte: UInt8, from: Int, before end: Int = .max) -> Int? {
        var at = max(from, 0)
        let end = min(end, bytes.count)
        while at < end {
            if bytes[at] == byte { return at }
            at += 1
        }
        return nil
    }

    /// The contents of an element from `from` (just past its start tag) to its close tag `</tag`
    /// looked for within `window` bytes; nil when not there.
    func contents(of tag: String, from: Int, within window: Int) -> String? {
        guard let end = find("</" + tag, from: from, before: from + window) else { return nil }
        return text(from..<end)
    }

    /// Each `<li …>…</li>`'s contents, as the regex `<li[^>]*>(.*?)</li>` found them.
    func listItems() -> [String] {
        var items: [String] = []
        var at = 0
        // With no `>` or `</li>` after one `<li`, none after it has them either.
        while let open = find("<li", from: at), let start = firstIndex(of: Self.close, from: open + 3),
            let end = find("</li>", from: start + 1)
        {
            items.append(text(start + 1..<end))
            at = end + 5
        }
        return items
    }
}

extension HTMLBytes {
    /// A start tag with an `itemprop`: its name (lowercased), its attributes' text, the property
    /// names, and where its contents start (just past the `>`).
    struct ItemProperty {
        let tag: String
        let attributes: String
        let names: String
        let contentStart: Int
    }

    /// The start tags carrying `itemprop="…"`, as the regex
    /// `<([a-zA-Z][a-zA-Z0-9]*)([^>]*?\bitemprop\s*=\s*["']([^"']+)["'][^>]*)>` found them, in one
    /// forward pass: a tag's `<` and `>` are looked for at most `window` bytes either side of its
    /// `itemprop`, and at most `limit` are read.
    func itemProperties(limit: Int, window: Int) -> [ItemProperty] {
        let word = Array("itemprop".utf8)
        var found: [ItemProperty] = []
        var tagStart: Int?  // the first `<` + letter since the last `>` (a newer one past the window)
        var noClose = 0..<0  // a stretch already searched for `>` in vain
        var at = 0
        while at < bytes.count, found.count < limit {
            let byte = bytes[at]
            if byte == Self.close {
                tagStart = nil
            } else if byte == Self.open {
                if at + 1 < bytes.count, Self.isLetter(bytes[at + 1]), tagStart.map({ at - $0 > window }) ?? true {
                    tagStart = at
                }
            } else if let start = tagStart, at - start <= window, has(word, at: at), !Self.isWord(bytes[at - 1]),
                let names = propertyNames(at: at + word.count, before: at + window)
            {
                let from = noClose.contains(names.upperBound) ? noClose.upperBound : names.upperBound
                guard let end = firstIndex(of: Self.close, from: from, before: at + window) else {
                    noClose = names.upperBound..<min(at + window, bytes.count)
                    at += word.count
                    continue
                }
                var nameEnd = start + 1
                while nameEnd < end, Self.isWord(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: "_") { nameEnd += 1 }
                found.append(
                    ItemProperty(
                        tag: text(start + 1..<nameEnd).lowercased(), attributes: text(nameEnd..<end),
                        names: text(names.lowerBound + 1..<names.upperBound - 1), contentStart: end + 1))
                tagStart = nil
                at = end + 1
                continue
            }
            at += 1
        }
        return found
    }

    /// After `itemprop`: `\s*=\s*["']([^"']+)["']`, the span from quote to quote, nil when not.
    func propertyNames(at index: Int, before end: Int) -> Range<Int>? {
        let end = min(end, bytes.count)
        var at = index
        while at < end, Self.isSpace(bytes[at]) { at += 1 }
        guard at < end, bytes[at] == UInt8(ascii: "=") else { return nil }
        at += 1
        while at < end, Self.isSpace(bytes[at]) { at += 1 }
        guard at < end, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { return nil }
        let quote = at
        at += 1
        while at < end, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "'") { at += 1 }
        guard at < end, at > quote + 1 else { return nil }
        return quote..<at + 1
    }
}
