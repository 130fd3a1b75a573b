import HearthStore

/// GEDCOM's dates and Hearth's (YYYY, YYYY-MM, YYYY-MM-DD: `FamilyPersonRules.date`). Hearth
/// keeps no "about", "before" or ranges: such a date is kept as its first date and counted as
/// approximated in the import's report; a date phrase or another calendar is not kept.
enum GEDCOMDate {
    static let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    /// Words before a date that make it approximate, a limit, or a range or period.
    static let qualifiers: Set<String> = ["ABT", "CAL", "EST", "BEF", "AFT", "BET", "FROM", "TO", "INT"]

    enum Reading: Equatable {
        case exact(String)
        case approximated(String)
        /// A phrase, another calendar or nothing recognisable: not kept.
        case dropped
    }

    /// `12 MAR 1950` → exact 1950-03-12; `ABT 1900`, `BET 1900 AND 1910` → approximated 1900.
    static func read(_ value: String) -> Reading {
        var words = value.uppercased().split(separator: " ").map(String.init)
        if words.first == "@#DGREGORIAN@" || words.first == "GREGORIAN" { words.removeFirst() }
        if words.first?.hasPrefix("@#") == true || words.first?.hasPrefix("(") == true { return .dropped }
        var approximate = false
        if let first = words.first, qualifiers.contains(first) {
            approximate = true
            words.removeFirst()
        }
        // The first date of a range or period: up to AND or TO; a phrase after INT is dropped.
        if let end = words.firstIndex(where: { $0 == "AND" || $0 == "TO" || $0.hasPrefix("(") }) {
            words = Array(words[..<end])
        }
        guard let date = exact(words) else { return .dropped }
        return approximate ? .approximated(date) : .exact(date)
    }

    /// `[[DAY] MONTH] YEAR` → Hearth's date, nil when it is none (a dual year `1750/51` is its first).
    static func exact(_ words: [String]) -> String? {
        guard (1...3).contains(words.count), let yearWord = words.last?.split(separator: "/").first,
            yearWord.count <= 4, let year = Int(yearWord)
        else { return nil }
        var text = String(format: "%04d", year)
        if words.count >= 2 {
            guard let month = months.firstIndex(of: words[words.count - 2]) else { return nil }
            text += String(format: "-%02d", month + 1)
        }
        if words.count == 3 {
            guard let day = Int(words[0]) else { return nil }
            text += String(format: "-%02d", day)
        }
        return FamilyPersonRules.date(text)
    }

    /// Hearth's date as GEDCOM's: 1950-03-12 → `12 MAR 1950`, 1950-03 → `MAR 1950`.
    static func write(_ date: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        switch parts.count {
        case 3: return "\(parts[2]) \(months[parts[1] - 1]) \(parts[0])"
        case 2: return "\(months[parts[1] - 1]) \(parts[0])"
        default: return parts.first.map(String.init) ?? date
        }
    }
}
