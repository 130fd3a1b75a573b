extension IRCMessage {
    /// Parses one line (without CR LF). Rejects NUL bytes, invalid UTF-8 and lines over the
    /// RFC/IRCv3 limits, so callers can answer with a clear error and keep the connection.
    public static func parse(_ bytes: some Collection<UInt8>) throws(IRCParseError) -> IRCMessage {
        var raw = Array(bytes)
        while let last = raw.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { raw.removeLast() }
        if raw.contains(0) { throw .containsNUL }
        guard let line = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8 }
        return try parse(line)
    }

    public static func parse(_ line: String) throws(IRCParseError) -> IRCMessage {
        var rest = Substring(line)
        while rest.last == "\r" || rest.last == "\n" { rest.removeLast() }
        if rest.contains("\0") { throw .containsNUL }
        // A bare CR would let a relayed message split into two lines in some clients.
        if rest.unicodeScalars.contains("\r") { throw .containsCR }
        var tags: [IRCTag] = []
        if rest.first == "@" {
            guard let space = rest.firstIndex(of: " ") else { throw .missingCommand }
            let tagPart = rest[rest.index(after: rest.startIndex)..<space]
            if tagPart.utf8.count + 2 > IRCLimits.maxTagBytes { throw .tagsTooLong }
            tags = parseTags(tagPart)
            rest = rest[space...].drop { $0 == " " }
        }
        // The body limit counts the CR LF the client sent.
        if rest.utf8.count + 2 > IRCLimits.maxBodyBytes { throw .bodyTooLong }
        var source: String?
        if rest.first == ":" {
            guard let space = rest.firstIndex(of: " ") else { throw .missingCommand }
            source = String(rest[rest.index(after: rest.startIndex)..<space])
            rest = rest[space...].drop { $0 == " " }
        }
        let commandEnd = rest.firstIndex(of: " ") ?? rest.endIndex
        let command = rest[..<commandEnd]
        if command.isEmpty { throw source == nil && tags.isEmpty ? .empty : .missingCommand }
        let isNumeric = command.count == 3 && command.allSatisfy(\.isASCIIDigit)
        guard isNumeric || command.allSatisfy(\.isASCIILetter) else { throw .invalidCommand }
        rest = rest[commandEnd...]
        var params: [String] = []
        while true {
            rest = rest.drop { $0 == " " }
            if rest.isEmpty { break }
            if rest.first == ":" {
                params.append(String(rest.dropFirst()))
                break
            }
            let end = rest.firstIndex(of: " ") ?? rest.endIndex
            params.append(String(rest[..<end]))
            rest = rest[end...]
        }
        if params.count > IRCLimits.maxParams { throw .tooManyParams }
        return IRCMessage(tags: tags, source: source, command: command.uppercased(), params: params)
    }

    static func parseTags(_ text: Substring) -> [IRCTag] {
        text.split(separator: ";").compactMap { item in
            guard !item.isEmpty else { return nil }
            if let eq = item.firstIndex(of: "=") {
                let key = String(item[..<eq])
                let value = unescapeTagValue(item[item.index(after: eq)...])
                return IRCTag(key, value.isEmpty ? nil : value)
            }
            return IRCTag(String(item))
        }
    }

    static func unescapeTagValue(_ value: Substring) -> String {
        var out = ""
        var escaping = false
        for ch in value {
            if escaping {
                switch ch {
                case ":": out.append(";")
                case "s": out.append(" ")
                case "r": out.append("\r")
                case "n": out.append("\n")
                default: out.append(ch)
                }
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else {
                out.append(ch)
            }
        }
        return out
    }

    static func escapeTagValue(_ value: String) -> String {
        var out = ""
        for ch in value {
            switch ch {
            case ";": out += "\\:"
            case " ": out += "\\s"
            case "\\": out += "\\\\"
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetter: Bool { isASCII && isLetter }
}
