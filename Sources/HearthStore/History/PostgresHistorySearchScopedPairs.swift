/// Word pairs that carry their line's scope (`history.searchScopedPairs`, migration v41): each of
/// a line's pairs (`HistorySearchPairs`) once per scope lexeme `search` gives the line — "@" and
/// a channel's target, "@u:<id>" per account of a conversation — as "<scope>|<pair>". A phrase is
/// then the OR of the reader's scopes' pairs, so GIN hands back only the reader's candidates:
/// with unscoped pairs nine in ten of those fetched were another channel's, dropped after.
///
/// Only a filter, as the pairs are: a line whose lexemes cannot be written so (a scope with a
/// comma, which parts lexemes on the way in; a lexeme too long) is `HistorySearchPairs.any`,
/// which every phrase search checks.
enum HistorySearchScopedPairs {
    /// PostgreSQL's longest lexeme (MAXSTRLEN); `array_to_tsvector` does not check it.
    static let maxLexemeBytes = 2047
    /// A line's lexemes past this many bytes make it `any` (a tsvector holds at most 1 MB of them).
    static let maxLineBytes = 1 << 19

    /// The scope lexemes `search` gives a line of `target` (v17), without a conversation's
    /// "@pm:…" one: a reader's scope names conversations by account (`conversationsOf`).
    static func scopes(ofTarget target: String) -> [String] {
        guard target.hasPrefix("pm:") else { return ["@" + target] }
        // split_part(target, ':', 2) and 3: empty past the end.
        let parts = target.split(separator: ":", omittingEmptySubsequences: false)
        let accounts = [1, 2].map { parts.count > $0 ? "@u:" + parts[$0] : "@u:" }
        return accounts[0] == accounts[1] ? [accounts[0]] : accounts
    }

    /// A line's scoped pair lexemes, or `[any]`.
    static func lexemes(target: String, text: String) -> [String] {
        let pairs = HistorySearchPairs.lexemes(text)
        let scopes = scopes(ofTarget: target)
        guard pairs != [HistorySearchPairs.any], !scopes.contains(where: { $0.contains(",") }) else {
            return [HistorySearchPairs.any]
        }
        var lexemes: [String] = []
        var bytes = 0
        for scope in scopes {
            for pair in pairs {
                let lexeme = scope + "|" + pair
                bytes += lexeme.utf8.count
                guard lexeme.utf8.count <= maxLexemeBytes, bytes <= maxLineBytes else {
                    return [HistorySearchPairs.any]
                }
                lexemes.append(lexeme)
            }
        }
        return lexemes
    }

    /// The tsquery of a search's pair groups (`TextSearch.pairGroups`) in a reader's scope: for
    /// each scope and group, its pairs under that scope, all of them; or `any`. Nil if the scope
    /// names a conversation's target (its lines carry no such scope) or a lexeme would be too long.
    static func tsquery(groups: [[String]], scope: HistoryScope) -> String? {
        guard !scope.targets.contains(where: { $0.hasPrefix("pm:") }) else { return nil }
        var terms: [String] = []
        for prefix in scope.lexemes {
            for group in groups {
                let lexemes = group.map { prefix + "|" + $0 }
                guard lexemes.allSatisfy({ $0.utf8.count <= maxLexemeBytes }) else { return nil }
                terms.append("(" + lexemes.map(HistoryScope.quoted).joined(separator: " & ") + ")")
            }
        }
        guard !terms.isEmpty else { return nil }
        return "(" + terms.joined(separator: " | ") + ") | " + HistoryScope.quoted(HistorySearchPairs.any)
    }
}
