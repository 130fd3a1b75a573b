/// The bot's command grammar: `!name word "quoted words" rest | more`.
/// Pure: parsing never fails, it only splits; handlers decide what the words mean.
public struct CommandLineInput: Sendable, Equatable {
    /// Lower-cased command name without the `!`.
    public var name: String
    /// Words after the name; double quotes group words, `\"` escapes a quote.
    public var words: [String]
    /// Everything after the name, verbatim (leading spaces removed).
    public var rest: String

    /// Parses `text`. With `requireBang`, lines not starting with `!` are not commands.
    public static func parse(_ text: String, requireBang: Bool) -> CommandLineInput? {
        var body = Substring(text).drop { $0 == " " }
        if body.first == "!" {
            body = body.dropFirst()
        } else if requireBang {
            return nil
        }
        let nameEnd = body.firstIndex(of: " ") ?? body.endIndex
        let name = body[..<nameEnd]
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        let rest = String(body[nameEnd...].drop { $0 == " " })
        return CommandLineInput(name: name.lowercased(), words: splitWords(rest), rest: rest)
    }

    public static func splitWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inQuotes = false
        var hasWord = false
        var escaping = false
        for ch in text {
            if escaping {
                current.append(ch)
                escaping = false
            } else if ch == "\\" && inQuotes {
                escaping = true
            } else if ch == "\"" {
                inQuotes.toggle()
                hasWord = true
            } else if ch == " " && !inQuotes {
                if hasWord { words.append(current) }
                current = ""
                hasWord = false
            } else {
                current.append(ch)
                hasWord = true
            }
        }
        if hasWord { words.append(current) }
        return words
    }

    /// The words after the first `n`, joined back as the user typed them.
    public func text(after n: Int) -> String {
        var remaining = Substring(rest)
        for _ in 0..<n {
            remaining = remaining.drop { $0 == " " }
            if remaining.first == "\"" {
                remaining = remaining.dropFirst()
                remaining = remaining.drop { $0 != "\"" }.dropFirst()
            } else {
                remaining = remaining.drop { $0 != " " }
            }
        }
        return String(remaining.drop { $0 == " " })
    }
}

/// Edit distance for "did you mean …?" (optimal string alignment).
public enum Suggest {
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// The closest candidates: a prefix match or within an edit distance of 2
    /// (1 for very short words), best first.
    public static func closest(to word: String, in candidates: [String], limit: Int = 3) -> [String] {
        let word = word.lowercased()
        let allowed = word.count <= 3 ? 1 : 2
        let scored = candidates.compactMap { c -> (String, Int)? in
            if c.hasPrefix(word) && word.count >= 2 { return (c, 0) }
            let d = distance(word, c)
            return d <= allowed ? (c, d) : nil
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
    }
}
