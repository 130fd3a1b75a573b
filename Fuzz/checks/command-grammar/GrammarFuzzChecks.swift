import HearthApps
import HearthKit
import HearthStore

/// What must hold for anything typed at the bot. Run by the `command-grammar` fuzzer
/// (scripts/fuzz) and, over its saved corpus, by the unit tests. Returns what went wrong.
public enum GrammarFuzzChecks {
    public static func commandLine(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        for requireBang in [true, false] {
            guard let input = CommandLineInput.parse(text, requireBang: requireBang) else { continue }
            if input.name.isEmpty || input.name != input.name.lowercased() {
                return "command name \(input.name.debugDescription)"
            }
            for n in 0...(input.words.count + 1) { _ = input.text(after: n) }
        }
        if let query = try? RecipeSearchQuery.parse(text) {
            if let problem = unsafeFTS(query.fts5Match) {
                return "search \(text.debugDescription) → \(query.fts5Match.debugDescription): \(problem)"
            }
            if query.tags.contains(where: { $0.isEmpty || !$0.allSatisfy { $0.isLetter || $0 == "-" } }) {
                return "tag in \(query.tags)"
            }
        }
        return nil
    }

    /// The FTS5 expression may hold only quoted strings (an optional `*` after one) and the
    /// operators OR, NOT and AND, one space apart: then nothing typed is FTS5 syntax.
    /// Read by Unicode scalar, as FTS5 reads bytes.
    static func unsafeFTS(_ match: String) -> String? {
        let s = Array(match.unicodeScalars)
        var i = 0
        var terms = 0
        var lastWasOperator = true
        while i < s.count {
            if s[i] == "\"" {
                i += 1
                while true {
                    guard let quote = s[i...].firstIndex(of: "\"") else { return "unclosed quote" }
                    i = quote + 1
                    if i < s.count && s[i] == "\"" { i += 1 } else { break }  // "" inside a string
                }
                if i < s.count && s[i] == "*" { i += 1 }
                terms += 1
                lastWasOperator = false
            } else {
                let end = s[i...].firstIndex(of: " ") ?? s.count
                let word = String(String.UnicodeScalarView(s[i..<end]))
                guard ["OR", "NOT", "AND"].contains(word) else { return "bare text \(word.debugDescription)" }
                if lastWasOperator { return "operator \(word) without a term before it" }
                i = end
                lastWasOperator = true
            }
            if i == s.count { break }
            guard s[i] == " " else { return "terms not separated" }
            i += 1
        }
        if terms > 0 && lastWasOperator { return "ends with an operator" }
        if terms > RecipeSearchQuery.maxTerms { return "\(terms) terms" }
        return nil
    }
}
