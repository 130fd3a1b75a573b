/// The commonest line a client sends — `PRIVMSG target :text` or `NOTICE target :text` to one
/// target, without tags or a source — read straight from the bytes: no `String`, no
/// `IRCMessage`. Anything else (and anything the full parser would reject or read differently)
/// is not a `RelayLine`, and goes to `IRCMessage.parse`.
public struct RelayLine: Equatable {
    public enum Command: Equatable { case privmsg, notice }
    public var command: Command
    /// Offsets into the line given to `scan`.
    public var target: Range<Int>
    public var text: Range<Int>

    public var commandName: String { command == .privmsg ? "PRIVMSG" : "NOTICE" }

    /// Reads `line` (without CR LF). Nil unless it is exactly `COMMAND SP target SP [:]text` with
    /// capitals, single spaces, one target without ',' that is not a STATUSMSG (`@#c`, `+#c`),
    /// non-empty text, valid UTF-8 without NUL or CR, within the body limit.
    public static func scan(_ line: UnsafeRawBufferPointer) -> RelayLine? {
        let end = line.count
        // The full parser counts the CR LF the client sent.
        guard end + 2 <= IRCLimits.maxBodyBytes, end > 9 else { return nil }
        let command: Command
        let targetStart: Int
        if Self.hasPrefix(line, "PRIVMSG ") {
            command = .privmsg
            targetStart = 8
        } else if Self.hasPrefix(line, "NOTICE ") {
            command = .notice
            targetStart = 7
        } else {
            return nil
        }
        var index = targetStart
        while index < end && line[index] != 32 {
            let byte = line[index]
            // A list of targets, a trailing-looking target, or bytes only the parser handles.
            if byte == 44 || byte == 58 || byte < 33 || byte >= 0x80 { return nil }
            index += 1
        }
        let target = targetStart..<index
        guard !target.isEmpty, index + 1 < end else { return nil }
        let first = line[targetStart]
        if first == 64 || first == 43 { return nil }  // @#chan, +#chan
        index += 1
        var textStart = index
        if line[index] == 58 {
            textStart += 1
        } else {
            // A last parameter without ':' is one word; more words would be more parameters.
            if line[index] == 32 { return nil }
            for at in index..<end where line[at] == 32 { return nil }
        }
        guard textStart < end, validText(UnsafeRawBufferPointer(rebasing: line[textStart..<end])) else {
            return nil
        }
        return RelayLine(command: command, target: target, text: textStart..<end)
    }

    private static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count else { return false }
        let bytes = prefix.utf8Start
        for index in 0..<count where line[index] != bytes[index] { return false }
        return true
    }

    /// No NUL, CR or LF, and valid UTF-8 — what the full parser demands — without building a String.
    static func validText(_ text: UnsafeRawBufferPointer) -> Bool {
        var ascii = true
        for byte in text {
            if byte == 0 || byte == 13 || byte == 10 { return false }
            if byte >= 0x80 { ascii = false }
        }
        if ascii { return true }
        var iterator = text.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
