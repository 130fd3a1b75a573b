/// The registered channels' rule, written once for every engine.
public enum RegisteredChannelRules {
    /// An account may own `maxOwned` channels: one more is refused (`owned`: what it owns now,
    /// counted in the engine's transaction with the owner held still).
    public static func checkOwned(owned: Int, maxOwned: Int) throws {
        if owned >= maxOwned { throw OwnsTooMany() }
    }
}
