import Foundation

/// GEDCOM's line format (5.5.1, 5.5.5 and 7.0 share it): `LEVEL [@XREF@] TAG [VALUE]`, one
/// structure per line, its substructures on the lines below at the next level. A long value
/// goes on over CONC (joined as is, 5.x) and CONT (a line break) lines, which reading folds back.
enum GEDCOM {
    struct Node: Equatable {
        var xref: String?
        var tag: String
        var value: String
        var children: [Node] = []

        init(_ tag: String, _ value: String = "", xref: String? = nil, children: [Node] = []) {
            (self.tag, self.value, self.xref, self.children) = (tag, value, xref, children)
        }

        func first(_ tag: String) -> Node? { children.first { $0.tag == tag } }
        func all(_ tag: String) -> [Node] { children.filter { $0.tag == tag } }
        /// The value as a pointer (`@I1@` → `I1`), nil when it is none.
        var pointer: String? { GEDCOM.pointer(value) }
    }

    enum Problem: Error, Equatable {
        case notUTF8, ansel, unicode, notGEDCOM
        case badLine(Int)
        case tooDeep(Int)
        case tooLarge(Int)

        var message: String {
            switch self {
            case .notUTF8:
                "the file is not UTF-8 text; export it from your genealogy program as UTF-8 GEDCOM"
            case .ansel:
                "the file is in ANSEL (CHAR ANSEL), which Hearth does not read; export it again as UTF-8 "
                    + "(in Gramps: Family Trees → Export → GEDCOM, encoding UTF-8)"
            case .unicode:
                "the file is in UTF-16 (CHAR UNICODE); export it again as UTF-8"
            case .notGEDCOM: "that is not a GEDCOM file: it does not start with 0 HEAD"
            case .badLine(let n): "line \(n) is not a GEDCOM line (LEVEL [@XREF@] TAG [VALUE])"
            case .tooDeep(let n): "line \(n) skips a level"
            case .tooLarge(let limit): "the file is over \(limit / 1024) KiB, the most one import takes"
            }
        }
    }

    /// 7.0's null pointer: "provided to encode null pointers" (a FAM's unknown WIFE, say).
    static let voidPointer = "@VOID@"

    static func pointer(_ value: String) -> String? {
        guard value.count > 2, value.hasPrefix("@"), value.hasSuffix("@"), !value.hasPrefix("@#"),
            value != voidPointer
        else { return nil }
        return String(value.dropFirst().dropLast())
    }

    /// The file's records (level 0), from its bytes: a UTF-8 byte order mark is skipped, lines
    /// end with CR, LF or both, leading spaces are allowed (5.5.1 tolerates them), CONC and CONT
    /// are folded into their value. A file that declares ANSEL or UTF-16, or is not UTF-8, is refused.
    static func parse(_ bytes: [UInt8], maxBytes: Int) throws(Problem) -> [Node] {
        guard bytes.count <= maxBytes else { throw .tooLarge(maxBytes) }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) { throw .unicode }
        guard let text = String(validating: body, as: UTF8.self) else {
            // A declared ANSEL file says so in ASCII before its first non-ASCII byte.
            if String(decoding: body.prefix(4096), as: UTF8.self).contains("CHAR ANSEL") { throw .ansel }
            throw .notUTF8
        }
        return try parse(text)
    }

    static func parse(_ text: String) throws(Problem) -> [Node] {
        var roots: [Node] = []
        var stack: [Node] = []  // the open structures, by level
        func close(to level: Int) {
            while stack.count > level {
                let done = stack.removeLast()
                if stack.isEmpty { roots.append(done) } else { stack[stack.count - 1].children.append(done) }
            }
        }
        var number = 0
        // "\r\n" is one Character in Swift.
        let ends: (Character) -> Bool = { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: ends) {
            number += 1
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty { continue }
            let parsed = Self.line(line)
            if roots.isEmpty && stack.isEmpty, parsed?.level != 0 || parsed?.tag != "HEAD" { throw .notGEDCOM }
            guard let parsed else { throw .badLine(number) }
            guard parsed.level <= stack.count else { throw .tooDeep(number) }
            if parsed.tag == "CONC" || parsed.tag == "CONT", parsed.level > 0, parsed.level == stack.count {
                // A continuation of the structure one level up.
                stack[stack.count - 1].value += (parsed.tag == "CONT" ? "\n" : "") + parsed.value
                continue
            }
            close(to: parsed.level)
            stack.append(Node(parsed.tag, parsed.value, xref: parsed.xref))
        }
        close(to: 0)
        if roots.isEmpty { throw .notGEDCOM }
        return roots
    }

    /// One line's parts, nil when it is not a GEDCOM line.
    static func line(_ line: Substring) -> (level: Int, xref: String?, tag: String, value: String)? {
        var rest = line[...]
        let levelText = rest.prefix { $0.isASCII && $0.isNumber }
        guard !levelText.isEmpty, levelText.count <= 2, let level = Int(levelText) else { return nil }
        rest = rest.dropFirst(levelText.count)
        guard rest.first == " " else { return nil }
        rest = rest.drop { $0 == " " }
        var xref: String?
        if rest.first == "@" {
            let end = rest.dropFirst().firstIndex(of: "@")
            guard let end else { return nil }
            xref = String(rest[rest.index(after: rest.startIndex)..<end])
            rest = rest[rest.index(after: end)...].drop { $0 == " " }
        }
        let tag = rest.prefix { $0 != " " }
        guard !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            return nil
        }
        rest = rest.dropFirst(tag.count)
        var value = rest.first == " " ? String(rest.dropFirst()) : ""
        if value.hasPrefix("@@") { value.removeFirst() }  // an escaped leading @
        return (level, xref, tag.uppercased(), value)
    }

    /// Characters of a value on one line before the rest goes on a CONC line (5.5.1 allows 255
    /// per line in all; this leaves room for the level and tag).
    static let maxValueOnLine = 200

    /// A structure as lines at `level`: line breaks in its value become CONT lines, and lines
    /// longer than `splittingAt` go on over CONC lines (5.x), split between characters that are
    /// not spaces (some readers trim a value's spaces); nil writes each line whole (7.0 has no CONC).
    static func write(
        _ node: Node, level: Int = 0, splittingAt maxOnLine: Int? = maxValueOnLine, into lines: inout [String]
    ) {
        let parts = node.value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func chunks(_ text: String) -> [String] {
            var chunks: [String] = []
            guard let maxValueOnLine = maxOnLine else { return [text] }
            var rest = Substring(text)
            while rest.count > maxValueOnLine {
                var cut = rest.index(rest.startIndex, offsetBy: maxValueOnLine)
                while cut > rest.startIndex, rest[cut] == " " || rest[rest.index(before: cut)] == " " {
                    cut = rest.index(before: cut)
                }
                if cut == rest.startIndex { cut = rest.index(rest.startIndex, offsetBy: maxValueOnLine) }
                chunks.append(String(rest[..<cut]))
                rest = rest[cut...]
            }
            chunks.append(String(rest))
            return chunks
        }
        let head = "\(level)" + (node.xref.map { " @\($0)@" } ?? "") + " \(node.tag)"
        for (index, part) in parts.enumerated() {
            for (piece, chunk) in chunks(part).enumerated() {
                let escaped = chunk.hasPrefix("@") && GEDCOM.pointer(chunk) == nil ? "@" + chunk : chunk
                let tag = index == 0 && piece == 0 ? head : "\(level + 1) \(piece == 0 ? "CONT" : "CONC")"
                lines.append(escaped.isEmpty ? tag : tag + " " + escaped)
            }
        }
        for child in node.children { write(child, level: level + 1, splittingAt: maxOnLine, into: &lines) }
    }
}
