import HearthMediaLibrary
import HearthStore

/// Whose profile is shown, to whom.
public struct ProfileContext: Sendable {
    public var subject: Stored<Account>
    public var viewer: AccountRef?
    public var store: Store
    public var media: MediaLibrary?

    public init(subject: Stored<Account>, viewer: AccountRef?, store: Store, media: MediaLibrary?) {
        self.subject = subject
        self.viewer = viewer
        self.store = store
        self.media = media
    }
}
