/// A search as an FTS5 expression: every term inside double quotes (a quote in it
/// doubled, by Unicode scalar, as FTS5 reads bytes), so nothing typed is FTS5 syntax.
extension TextSearch {
    public var fts5Match: String {
        parts.map { part in
            switch part {
            case .term(let text, let prefix):
                var quoted = "\""
                for scalar in text.unicodeScalars {
                    quoted.unicodeScalars.append(scalar)
                    if scalar == "\"" { quoted.unicodeScalars.append(scalar) }
                }
                return quoted + "\"" + (prefix ? "*" : "")
            case .and: return "AND"
            case .or: return "OR"
            case .not: return "NOT"
            }
        }.joined(separator: " ")
    }
}
