/// A search as a PostgreSQL `tsquery` text, for `to_tsquery('simple', …)` as a bound
/// value: every word a quoted lexeme (a quote or backslash in it escaped), a phrase as words
/// joined by `<->`, a prefix as `:*` on its last word. Precedence as FTS5 has it: NOT binds
/// tightest (`a NOT b` is `a & !b`), then AND (also implicit), then OR.
extension TextSearch {
    public var tsquery: String {
        var groups: [[String]] = [[]]
        var negate = false
        for part in parts {
            switch part {
            case .or:
                groups.append([])
            case .not:
                negate = true
            case .and:
                break
            case .term(let text, let prefix):
                let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }.map { word in
                    "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
                        + "'"
                }
                guard !words.isEmpty else { continue }
                var lexemes = words.joined(separator: " <-> ")
                if prefix { lexemes += ":*" }
                let term = words.count > 1 ? "(\(lexemes))" : lexemes
                groups[groups.count - 1].append(negate ? "!\(term)" : term)
                negate = false
            }
        }
        return groups.filter { !$0.isEmpty }.map { "(" + $0.joined(separator: " & ") + ")" }.joined(separator: " | ")
    }
}
