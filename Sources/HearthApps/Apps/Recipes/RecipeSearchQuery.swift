import HearthKit
import HearthStore

/// What people type after `!search`, checked and turned into a `RecipeSearch`: words (all
/// must match), `tom*` prefixes, "quoted phrases", OR and NOT between terms, and `cuisine:X` /
/// `diet:X` filters. User text only ever becomes a term's value, so nothing typed can make a
/// full-text syntax error on any engine; malformed input gets a message instead.
public enum RecipeSearchQuery {
    public static let maxTerms = 12

    public static func parse(_ text: String) throws(BotError) -> RecipeSearch {
        var parts: [RecipeSearch.Part] = []
        var tags: [String] = []
        var rest = Substring(text)
        func term(_ word: Substring, prefix: Bool) -> RecipeSearch.Part { .term(String(word), prefix: prefix) }
        func isOperator(_ part: RecipeSearch.Part?) -> Bool { part == .and || part == .or || part == .not }
        while true {
            rest = rest.drop { $0 == " " }
            guard let first = rest.first else { break }
            if first == "\"" {
                guard let close = rest.dropFirst().firstIndex(of: "\"") else {
                    throw BotError(
                        "a quote is not closed — put phrases in pairs of quotes, e.g. !search \"tomato soup\"")
                }
                let phrase = rest[rest.index(after: rest.startIndex)..<close]
                guard phrase.contains(where: { $0.isLetter || $0.isNumber }) else {
                    throw BotError("an empty phrase \"\" finds nothing — put words inside the quotes")
                }
                rest = rest[rest.index(after: close)...]
                let prefix = rest.first == "*"
                if prefix { rest = rest.dropFirst() }
                parts.append(term(phrase, prefix: prefix))
                continue
            }
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count)
            if word.unicodeScalars.contains("\"") {
                throw BotError("a quote is not closed — put phrases in pairs of quotes, e.g. !search \"tomato soup\"")
            }
            let lower = word.lowercased()
            if lower.hasPrefix("cuisine:") || lower.hasPrefix("diet:") {
                let value = lower.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                guard !value.isEmpty, value.allSatisfy({ $0.isLetter || $0 == "-" }) else {
                    throw BotError("\(word) needs a word after the colon, e.g. cuisine:italian or diet:vegan")
                }
                tags.append(value)
                continue
            }
            if word == "OR" || word == "NOT" || word == "AND" {
                guard let last = parts.last, !isOperator(last) else {
                    throw BotError("\(word) needs words on both sides, e.g. !search basil \(word) mint")
                }
                parts.append(word == "OR" ? .or : word == "NOT" ? .not : .and)
                continue
            }
            let prefix = word.hasSuffix("*")
            let body = prefix ? word.dropLast() : word
            guard body.contains(where: { $0.isLetter || $0.isNumber }), !body.contains("*") else {
                throw BotError(
                    "\"\(word)\" is not a word I can search for — use letters and digits (a * may end a word: tom*)")
            }
            parts.append(term(body, prefix: prefix))
        }
        if let last = parts.last, isOperator(last) {
            let word = last == .or ? "OR" : last == .not ? "NOT" : "AND"
            throw BotError("\(word) needs words on both sides, e.g. !search basil \(word) mint")
        }
        if parts.filter({ !isOperator($0) }).count > maxTerms {
            throw BotError("that is more than \(maxTerms) words; search with fewer")
        }
        if parts.isEmpty && tags.isEmpty {
            throw BotError("search for what? e.g. !search tomato basil cuisine:italian")
        }
        // Tags alone: every recipe, filtered.
        return RecipeSearch(parts: parts, tags: tags)
    }
}
