import HearthMediaLibrary
import HearthStore

/// Whose profile is shown, to whom.
public struct ProfileContext: Sendable {
    public var subject: Stored<Account>
    public var viewer: AccountRef?
    public var store: Store
    public var media: MediaLibrary?
    /// The subject's numbers, read once for every app's line.
    public var tally: ProfileTally

    public init(subject: Stored<Account>, viewer: AccountRef?, store: Store, media: MediaLibrary?, tally: ProfileTally)
    {
        self.subject = subject
        self.viewer = viewer
        self.store = store
        self.media = media
        self.tally = tally
    }
}
