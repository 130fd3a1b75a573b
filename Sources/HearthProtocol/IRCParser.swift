extension IRCMessage {
    /// Parses one line (without CR LF). Rejects NUL bytes, a CR inside the line, invalid
    /// UTF-8 and lines over the RFC/IRCv3 limits, so callers can answer with a clear error
    /// and keep the connection. Works on bytes: this runs for every line a client sends.
    /// `maxTagBytes` is the client's limit; a line the server relayed (with its own tags added)
    /// is read with `IRCLimits.maxTagBytes`.
    public static func parse(
        _ input: some Collection<UInt8>, maxTagBytes: Int = IRCLimits.maxClientTagBytes
    ) throws(IRCParseError) -> IRCMessage {
        // Parse in place when the bytes are contiguous (a NIO ByteBuffer view is).
        let direct: Result<IRCMessage, IRCParseError>? = input.withContiguousStorageIfAvailable { buffer in
            Result { () throws(IRCParseError) -> IRCMessage in try parseRaw(buffer, maxTagBytes) }
        }
        if let direct { return try direct.get() }
        let bytes = Array(input)
        return try bytes.withUnsafeBufferPointer { buffer throws(IRCParseError) in try parseRaw(buffer, maxTagBytes) }
    }

    private static func parseRaw(
        _ raw: UnsafeBufferPointer<UInt8>, _ maxTagBytes: Int
    ) throws(IRCParseError) -> IRCMessage {
        var count = raw.count
        while count > 0 && (raw[count - 1] == 13 || raw[count - 1] == 10) { count -= 1 }
        let bytes = UnsafeBufferPointer(rebasing: raw[0..<count])
        var ascii = true
        for byte in bytes {
            if byte == 0 { throw .containsNUL }
            // A bare CR (or an LF, for callers that did not frame on it) would let a relayed
            // message split into two lines in some clients.
            if byte == 13 || byte == 10 { throw .containsCR }
            if byte >= 0x80 { ascii = false }
        }
        if !ascii && String(validating: bytes, as: UTF8.self) == nil { throw .invalidUTF8 }
        return try parseValidated(bytes, maxTagBytes)
    }

    public static func parse(
        _ line: String, maxTagBytes: Int = IRCLimits.maxClientTagBytes
    ) throws(IRCParseError) -> IRCMessage {
        try parse(line.utf8, maxTagBytes: maxTagBytes)
    }

    private static func string(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: slice), as: UTF8.self)
    }

    /// `bytes` is valid UTF-8 without CR, LF or NUL; slices are cut at ASCII spaces only.
    private static func parseValidated(
        _ bytes: UnsafeBufferPointer<UInt8>, _ maxTagBytes: Int
    ) throws(IRCParseError) -> IRCMessage {
        let space: UInt8 = 32
        var index = 0
        let end = bytes.count
        func skipSpaces() { while index < end && bytes[index] == space { index += 1 } }
        func word() -> Range<Int> {
            let start = index
            while index < end && bytes[index] != space { index += 1 }
            return start..<index
        }
        var tags: [IRCTag] = []
        if end > 0 && bytes[0] == UInt8(ascii: "@") {
            index = 1
            let tagRange = word()
            if index >= end { throw .missingCommand }
            if tagRange.count > maxTagBytes { throw .tagsTooLong }
            tags = parseTags(Substring(string(bytes[tagRange])))
            skipSpaces()
        }
        // The body limit counts the CR LF the client sent.
        if end - index + 2 > IRCLimits.maxBodyBytes { throw .bodyTooLong }
        var source: String?
        if index < end && bytes[index] == UInt8(ascii: ":") {
            index += 1
            let sourceRange = word()
            if index >= end { throw .missingCommand }
            source = string(bytes[sourceRange])
            skipSpaces()
        }
        let commandRange = word()
        if commandRange.isEmpty { throw source == nil && tags.isEmpty ? .empty : .missingCommand }
        let command = bytes[commandRange]
        let isNumeric = command.count == 3 && command.allSatisfy { $0 >= 48 && $0 <= 57 }
        let isWord = command.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
        guard isNumeric || isWord else { throw .invalidCommand }
        // Clients send commands in capitals: then no upper-cased copy is made.
        let commandText =
            command.contains { $0 >= 97 }
            ? String(decoding: command.map { $0 >= 97 ? $0 - 32 : $0 }, as: UTF8.self) : string(command)
        var params: [String] = []
        while true {
            skipSpaces()
            if index >= end { break }
            // Room for the usual two or three at once, instead of growing it per parameter.
            if params.isEmpty { params.reserveCapacity(4) }
            if bytes[index] == UInt8(ascii: ":") {
                params.append(string(bytes[(index + 1)..<end]))
                break
            }
            params.append(string(bytes[word()]))
        }
        if params.count > IRCLimits.maxParams { throw .tooManyParams }
        return IRCMessage(tags: tags, source: source, command: commandText, params: params)
    }

    /// Split on the bytes ';' and '=', never on Characters: "=" followed by a combining
    /// mark is one Character, and would hide where a key ends.
    public static func parseTags(_ text: Substring) -> [IRCTag] {
        text.utf8.split(separator: UInt8(ascii: ";")).compactMap { item in
            guard let eq = item.firstIndex(of: UInt8(ascii: "=")) else { return IRCTag(String(Substring(item))) }
            guard eq != item.startIndex else { return nil }  // "=value" names no tag
            let value = unescapeTagValue(Substring(item[item.index(after: eq)...]))
            return IRCTag(String(Substring(item[..<eq])), value.isEmpty ? nil : value)
        }
    }

    // Both work on Unicode scalars: as Characters, CR LF is one grapheme that matches
    // neither "\r" nor "\n", and would be relayed raw — a line injection.
    static func unescapeTagValue(_ value: Substring) -> String {
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                switch scalar {
                case ":": out.append(";")
                case "s": out.append(" ")
                case "r": out.append("\r")
                case "n": out.append("\n")
                default: out.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    public static func escapeTagValue(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case ";": out.append(contentsOf: "\\:".unicodeScalars)
            case " ": out.append(contentsOf: "\\s".unicodeScalars)
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetter: Bool { isASCII && isLetter }
}
