/// English for counts and owners, in one place: "1 place", "2 places", "alice's", "the Rivers'".
public enum Words {
    /// "1 cookie", "0 cookies", "2 families" (`plural` for a word that does not just take an s).
    public static func counted(_ count: Int, _ word: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? word : plural ?? word + "s")"
    }

    /// "dan's", "The Rivers'": a name ending in s takes only the apostrophe.
    public static func possessive(_ name: String) -> String {
        name.hasSuffix("s") || name.hasSuffix("S") ? name + "'" : name + "'s"
    }
}
