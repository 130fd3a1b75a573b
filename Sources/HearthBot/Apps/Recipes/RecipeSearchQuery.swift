import HearthKit

/// What people type after `!search` turned into a safe FTS5 expression: words (all must
/// match), `tom*` prefixes, "quoted phrases", OR and NOT between terms, and `cuisine:X` /
/// `diet:X` filters. User text only ever reaches FTS5 inside quotes, so nothing typed can
/// make an SQL or FTS5 syntax error; malformed input gets a message instead.
public struct RecipeSearchQuery: Sendable, Equatable {
    public var match: String
    public var tags: [String]

    public static let maxTerms = 12

    public static func parse(_ text: String) throws(BotError) -> RecipeSearchQuery {
        var parts: [String] = []  // FTS5 terms and operators, in order
        var tags: [String] = []
        var rest = Substring(text)
        // Quotes are found and doubled by Unicode scalar, not by Character: a quote followed
        // by a combining mark is one Character but still a quote to FTS5.
        func term(_ word: Substring, prefix: Bool) -> String {
            var quoted = "\""
            for scalar in word.unicodeScalars {
                quoted.unicodeScalars.append(scalar)
                if scalar == "\"" { quoted.unicodeScalars.append(scalar) }
            }
            return quoted + "\"" + (prefix ? "*" : "")
        }
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
                guard let last = parts.last, !["OR", "NOT", "AND"].contains(last) else {
                    throw BotError("\(word) needs words on both sides, e.g. !search basil \(word) mint")
                }
                parts.append(String(word))
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
        if let last = parts.last, ["OR", "NOT", "AND"].contains(last) {
            throw BotError("\(last) needs words on both sides, e.g. !search basil \(last) mint")
        }
        if parts.filter({ !["OR", "NOT", "AND"].contains($0) }).count > maxTerms {
            throw BotError("that is more than \(maxTerms) words; search with fewer")
        }
        if parts.isEmpty && tags.isEmpty {
            throw BotError("search for what? e.g. !search tomato basil cuisine:italian")
        }
        // Tags alone: every recipe, filtered.
        return RecipeSearchQuery(match: parts.isEmpty ? "" : parts.joined(separator: " "), tags: tags)
    }
}
