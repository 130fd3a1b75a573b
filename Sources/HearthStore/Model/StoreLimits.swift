import Foundation

/// Page sizes and windows, the same on every engine.
public enum StoreLimits {
    public static let commentPageSize = 10

    public static let familyPostPageSize = 10

    public static let fortunePageSize = 10

    public static let imagePageSize = 10

    public static let memePageSize = 10

    /// How far back `!hot` looks.
    public static let hotWindow: TimeInterval = 7 * 24 * 3600

    /// The newest memes (and recipes) that hot and for-you lists rank; older ones are left out.
    public static let hotCandidates = 500

    /// Messages kept per recipient at most; past it, senders are told the inbox is full.
    public static let maxOfflineMessages = 100

    public static let recipePageSize = 10

    /// Page size for every list of people.
    public static let peoplePageSize = 20

    public static let feedPageSize = 20
}
