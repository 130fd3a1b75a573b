/// Name rules shared by nicks, account names and channels. CASEMAPPING=ascii.
public enum IRCNames {
    /// ASCII case folding, the mapping Hearth advertises as CASEMAPPING=ascii.
    public static func fold(_ name: String) -> String {
        let utf8 = name.utf8
        guard utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return name }
        return String(decoding: utf8.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    static let special = Set("[]\\`_^{|}")

    /// RFC 2812 nicknames: a letter or special first, then letters, digits, specials and '-'.
    public static func isValidNick(_ nick: String) -> Bool {
        guard let first = nick.first, !nick.isEmpty, nick.utf8.count <= IRCLimits.nickLength else { return false }
        guard first.isASCIILetter || special.contains(first) else { return false }
        return nick.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || special.contains($0) || $0 == "-" }
    }

    /// Channel names start with '#', hold no space, comma, colon, BEL or control character,
    /// and pass `NameSafety` (nothing invisible, no mixed scripts).
    public static func isValidChannel(_ name: String) -> Bool {
        isWellFormedChannel(name) && NameSafety.problem(in: name) == nil
    }

    /// The shape alone: '#', length, and none of the characters the protocol reserves.
    public static func isWellFormedChannel(_ name: String) -> Bool {
        guard name.hasPrefix("#"), name.count >= 2, name.utf8.count <= IRCLimits.channelLength else { return false }
        return !name.unicodeScalars.contains { $0 == " " || $0 == "," || $0 == ":" || $0.value < 32 || $0.value == 127 }
    }

    public static func isChannel(_ name: String) -> Bool { name.hasPrefix("#") }

    /// Glob match for ban masks (`*` and `?`), case-insensitive under the server's casemapping.
    public static func globMatch(_ pattern: String, _ text: String) -> Bool {
        let p = Array(fold(pattern).unicodeScalars)
        let t = Array(fold(text).unicodeScalars)
        var pi = 0
        var ti = 0
        var star = -1
        var mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
                pi += 1
                ti += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// Completes a partial ban mask (`bob` → `bob!*@*`, `*@host` → `*!*@host`).
    public static func normalizeMask(_ mask: String) -> String {
        var m = mask
        if !m.contains("!") && !m.contains("@") {
            m += "!*@*"
        } else if !m.contains("!") {
            m = "*!" + m
        } else if !m.contains("@") {
            m += "@*"
        }
        return m
    }
}
