import HearthStore

/// What people type to search (recipes, chat history), checked and turned into a `TextSearch`:
/// words (all must match), `tom*` prefixes, "quoted phrases", OR and NOT between terms. User
/// text only ever becomes a term's value, so nothing typed can make a full-text syntax error on
/// any engine; malformed input gets a message instead. A caller's own words (`cuisine:X`) are
/// taken by `filter` before they are read as terms.
public enum TextSearchQuery {
    /// How the messages show an example: the command and some words to search for.
    public struct Examples: Sendable {
        public var command: String
        public var phrase: String
        public var pair: (String, String)
        public init(command: String, phrase: String, pair: (String, String)) {
            (self.command, self.phrase, self.pair) = (command, phrase, pair)
        }
    }

    public static func parse(
        _ text: String, maxTerms: Int, examples: Examples, filter: (Substring) throws(BotError) -> Bool = { _ in false }
    ) throws(BotError) -> TextSearch {
        var parts: [TextSearch.Part] = []
        var rest = Substring(text)
        let unclosed = BotError(
            "a quote is not closed — put phrases in pairs of quotes, e.g. \(examples.command) \"\(examples.phrase)\"")
        func isOperator(_ part: TextSearch.Part?) -> Bool { part == .and || part == .or || part == .not }
        func needsSides(_ word: String) -> BotError {
            BotError(
                "\(word) needs words on both sides, e.g. \(examples.command) \(examples.pair.0) \(word) "
                    + examples.pair.1)
        }
        while true {
            rest = rest.drop { $0 == " " }
            guard let first = rest.first else { break }
            if first == "\"" {
                guard let close = rest.dropFirst().firstIndex(of: "\"") else { throw unclosed }
                let phrase = rest[rest.index(after: rest.startIndex)..<close]
                guard phrase.contains(where: { $0.isLetter || $0.isNumber }) else {
                    throw BotError("an empty phrase \"\" finds nothing — put words inside the quotes")
                }
                rest = rest[rest.index(after: close)...]
                let prefix = rest.first == "*"
                if prefix { rest = rest.dropFirst() }
                parts.append(.term(String(phrase), prefix: prefix))
                continue
            }
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count)
            if word.unicodeScalars.contains("\"") { throw unclosed }
            if try filter(word) { continue }
            if word == "OR" || word == "NOT" || word == "AND" {
                guard let last = parts.last, !isOperator(last) else { throw needsSides(String(word)) }
                parts.append(word == "OR" ? .or : word == "NOT" ? .not : .and)
                continue
            }
            let prefix = word.hasSuffix("*")
            let body = prefix ? word.dropLast() : word
            guard body.contains(where: { $0.isLetter || $0.isNumber }), !body.contains("*") else {
                throw BotError(
                    "\"\(word)\" is not a word I can search for — use letters and digits (a * may end a word: tom*)")
            }
            parts.append(.term(String(body), prefix: prefix))
        }
        if let last = parts.last, isOperator(last) {
            throw needsSides(last == .or ? "OR" : last == .not ? "NOT" : "AND")
        }
        let search = TextSearch(parts: parts)
        if search.termCount > maxTerms { throw BotError("that is more than \(maxTerms) words; search with fewer") }
        return search
    }
}
