/// Words to look for with an engine's full-text index, already checked: terms (all must
/// match), with OR and NOT between them as typed. Recipes and chat history both search with it;
/// each engine turns it into its own query (`fts5Match`, `tsquery`), and user text is only
/// ever a value inside that query, never syntax.
public struct TextSearch: Sendable, Equatable {
    public enum Part: Sendable, Equatable {
        /// A word or a phrase (several words in that order); `prefix` matches any word it starts.
        case term(String, prefix: Bool)
        case and, or, not
    }

    public var parts: [Part]

    public init(parts: [Part]) { self.parts = parts }

    /// How many words and phrases (not operators) it holds.
    public var termCount: Int {
        parts.count { if case .term = $0 { true } else { false } }
    }
}
