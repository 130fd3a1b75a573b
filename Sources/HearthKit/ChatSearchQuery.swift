import HearthStore

/// A search of chat history as people type it (`!search chat WORDS`, IRC `SEARCH text=…`), with
/// its limits: the words of a `TextSearchQuery`, not too long, not too many.
public enum ChatSearchQuery {
    /// Longest query, in bytes, before it is read at all.
    public static let maxQueryBytes = 300
    public static let maxTerms = 8
    /// Most lines one search returns (`SEARCH … limit=` asks for fewer).
    public static let maxResults = 100
    /// Lines `!search chat` shows in chat: the newest matches.
    public static let botResults = 8
    /// Letters a `word*` prefix needs: `a*` names most of history's words, and the index reads
    /// every one of them (a prefix search was the slowest kind over a million lines).
    public static let minPrefixLetters = 3
    public static let examples = TextSearchQuery.Examples(
        command: "!search chat", phrase: "good morning", pair: ("cake", "pie"))

    public static func parse(_ text: String, examples: TextSearchQuery.Examples = examples) throws(BotError)
        -> TextSearch
    {
        guard text.utf8.count <= maxQueryBytes else {
            throw BotError("a search is at most \(maxQueryBytes) bytes; search with fewer words")
        }
        let words = try TextSearchQuery.parse(text, maxTerms: maxTerms, examples: examples)
        guard !words.parts.isEmpty else {
            throw BotError("search for what? e.g. \(examples.command) \(examples.phrase)")
        }
        for case .term(let body, prefix: true) in words.parts where body.count < minPrefixLetters {
            throw BotError("\(body)* starts too many words — give at least \(minPrefixLetters) letters before the *")
        }
        return words
    }
}
