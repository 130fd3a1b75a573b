/// The bot's command grammar: `!name word "quoted words" rest | more`.
/// Pure: parsing never fails, it only splits; handlers decide what the words mean.
public struct CommandLineInput: Sendable, Equatable {
    /// Lower-cased command name without the `!`.
    public var name: String
    /// Words after the name; double quotes group words, `\"` escapes a quote.
    public var words: [String]
    /// Everything after the name, verbatim (leading spaces removed).
    public var rest: String
    /// Lines that came with the command in one go, after its line: a web form's lists (a
    /// recipe's ingredients). A chat line never has a line break, so chat gives none.
    public var block: [String] = []

    public init(name: String, words: [String], rest: String, block: [String] = []) {
        self.name = name
        self.words = words
        self.rest = rest
        self.block = block
    }

    /// Parses `text`. With `requireBang`, lines not starting with `!` are not commands.
    /// Lines after the first are the command's `block`.
    public static func parse(_ text: String, requireBang: Bool) -> CommandLineInput? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var body = (lines.first ?? "").drop { $0 == " " }
        if body.first == "!" {
            body = body.dropFirst()
        } else if requireBang {
            return nil
        }
        let nameEnd = body.firstIndex(of: " ") ?? body.endIndex
        let name = body[..<nameEnd]
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            return nil
        }
        let rest = String(body[nameEnd...].drop { $0 == " " })
        return CommandLineInput(
            name: name.lowercased(), words: splitWords(rest), rest: rest, block: lines.dropFirst().map(String.init))
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
