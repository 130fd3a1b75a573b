/// What `mayViewLists` decides on, read by each engine in one statement.
public struct ListViewFacts: Sendable, Equatable {
    /// The owner blocks the viewer, or the viewer the owner.
    public var eitherBlocks: Bool
    /// The owner's privacy setting is `public`.
    public var ownerIsPublic: Bool
    /// Each follows the other.
    public var mutualFollow: Bool

    public init(eitherBlocks: Bool, ownerIsPublic: Bool, mutualFollow: Bool) {
        (self.eitherBlocks, self.ownerIsPublic, self.mutualFollow) = (eitherBlocks, ownerIsPublic, mutualFollow)
    }
}

/// Who may see an account's lists (memes, fortunes), written once for every engine.
public enum ListViewRules {
    /// The owner themselves, anyone when the owner is public, or a mutual friend — never
    /// when either blocks the other; nobody signed out sees a private account's lists.
    public static func mayView(owner: Int64, viewer: Int64?, _ facts: ListViewFacts) -> Bool {
        if owner == viewer { return true }
        if facts.eitherBlocks { return false }
        if facts.ownerIsPublic { return true }
        return viewer != nil && facts.mutualFollow
    }
}
