import HearthKit
import HearthStore

/// What people type after `!search`, checked and turned into a `RecipeSearch`: the words of a
/// `TextSearchQuery`, and `cuisine:X` / `diet:X` filters.
public enum RecipeSearchQuery {
    public static let maxTerms = 12
    static let examples = TextSearchQuery.Examples(command: "!search", phrase: "tomato soup", pair: ("basil", "mint"))

    public static func parse(_ text: String) throws(BotError) -> RecipeSearch {
        var tags: [String] = []
        let words = try TextSearchQuery.parse(text, maxTerms: maxTerms, examples: examples) { word throws(BotError) in
            let lower = word.lowercased()
            guard lower.hasPrefix("cuisine:") || lower.hasPrefix("diet:") else { return false }
            let value = lower.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            guard !value.isEmpty, value.allSatisfy({ $0.isLetter || $0 == "-" }) else {
                throw BotError("\(word) needs a word after the colon, e.g. cuisine:italian or diet:vegan")
            }
            tags.append(value)
            return true
        }
        if words.parts.isEmpty && tags.isEmpty {
            throw BotError("search for what? e.g. !search tomato basil cuisine:italian")
        }
        // Tags alone: every recipe, filtered.
        return RecipeSearch(parts: words.parts, tags: tags)
    }
}
