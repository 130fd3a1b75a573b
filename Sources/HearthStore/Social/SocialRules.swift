/// Following, written once for every engine (each reads and writes in its own transaction).
public enum SocialRules {
    /// Why a follow is refused before anything is written: a block either way (nil: go on).
    public static func followRefusal(eitherBlocks: Bool) -> FollowResult? {
        eitherBlocks ? .blocked : nil
    }

    /// What a follow that was not refused did: `added` a row, or found one already there.
    public static func followResult(added: Bool) -> FollowResult {
        added ? .followed : .alreadyFollowing
    }
}
