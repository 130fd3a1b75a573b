/// Where a browser may be sent back to after signing in: a path on this site, or `/`.
///
/// Listing dangers does not work: a WHATWG URL parser drops tabs and newlines anywhere and
/// reads `\` as `/`, so `/\t/evil.example` or `/\evil.example` lands on another host. So a path
/// passes only when it is made of characters every parser reads the same way, and still is once
/// its %-escapes are decoded (for whatever decodes it again); anything else goes to `/`.
enum LocalRedirect {
    /// Bytes of a path to go back to; longer ones are not ours.
    static let maxBytes = 512

    /// `candidate` when it is a safe local path, else `/`.
    static func path(_ candidate: String?) -> String {
        guard let candidate, isLocal(candidate) else { return "/" }
        return candidate
    }

    static func isLocal(_ path: String) -> Bool {
        let raw = Array(path.utf8)
        guard raw.count <= maxBytes, isPlain(raw, decoded: false), let once = decodedOnce(raw) else { return false }
        return isPlain(once, decoded: true)
    }

    /// One `/`, then no second one; only path and query characters of RFC 3986 without `@`
    /// (no authority can hide in it). Raw text is ASCII with `%` only before two hex digits;
    /// decoded text may hold UTF-8 (a name) but no `%` (nothing is escaped twice).
    private static func isPlain(_ bytes: [UInt8], decoded: Bool) -> Bool {
        guard bytes.first == UInt8(ascii: "/"), bytes.dropFirst().first != UInt8(ascii: "/") else { return false }
        for byte in bytes where !safe.contains(byte) {
            if decoded ? byte < 0x80 : byte != UInt8(ascii: "%") { return false }
        }
        return true
    }

    private static let safe = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:/?".utf8)

    /// The bytes with each `%XX` decoded; nil when a `%` is not followed by two hex digits.
    private static func decodedOnce(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                out.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else {
                return nil
            }
            out.append(high << 4 | low)
            index += 3
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
