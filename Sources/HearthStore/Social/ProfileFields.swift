/// Profile fields an account sets from its IRC client (`METADATA * SET display-name …`, IRCv3
/// draft/metadata-2): kept per account, read back at every login. The bio is not one of them —
/// it stays `Account.bio`, which `!bio` writes — and `!profile` shows both.
public enum ProfileFields {
    /// Fields one account (or one connection, one channel) may have at once.
    public static let maxFields = 20
    /// A key's length, in bytes: `[a-z0-9_./-]`, as the metadata spec allows.
    public static let maxKeyLength = 64
    /// A value's length in bytes: a key and value must fit one reply line with room to spare.
    public static let maxValueBytes = 300
    /// The keys `!profile` and the web show, in that order, with their labels.
    public static let shown: [(key: String, label: String)] = [
        ("display-name", "name"), ("pronouns", "pronouns"), ("color", "colour"), ("avatar", "avatar"),
    ]

    /// The fields `!profile` and the web show, as (label, value), in `shown`'s order.
    public static func shownPairs(_ fields: [String: String]) -> [(label: String, value: String)] {
        shown.compactMap { item in fields[item.key].map { (item.label, $0) } }
    }

    /// Whether `key` may name a field: 1 to `maxKeyLength` of a–z, 0–9, `_ . / -`.
    public static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= maxKeyLength
            && key.utf8.allSatisfy {
                ("a"..."z").contains(Character(UnicodeScalar($0))) || "0123456789_./-".utf8.contains($0)
            }
    }

    /// Why `value` cannot be a field's value, or nil if it can.
    public static func valueProblem(_ value: String) -> String? {
        if value.utf8.count > maxValueBytes { return "a value has at most \(maxValueBytes) bytes" }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a value cannot hold control characters"
        }
        return nil
    }

    /// Whether one more field may be added to `count` fields already there (a change of an existing
    /// field always may).
    public static func hasRoom(count: Int, replacing: Bool) -> Bool { replacing || count < maxFields }
}
