import HearthStore

/// Whose profile is shown, to whom.
public struct ProfileContext: Sendable {
    public var subject: Account
    public var viewer: AccountRef?
    public var store: Store
    public var media: MediaLibrary?
}
