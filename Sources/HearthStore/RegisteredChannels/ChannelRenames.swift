import Foundation

/// A channel's new name (draft/channel-rename), the same on every engine.
public protocol ChannelRenameStore: Sendable {
    /// Moves what is kept under a channel's folded name to the new one, in one transaction: a
    /// registered channel's record (renamed, with its kept lists and access), what was said
    /// under the old key, and the read markers there. A change of case only renames the record.
    func renameChannel(from oldKey: String, to newKey: String, name: String) async throws
}

/// The tables keyed by a registered channel's name, moved with it (each references the record).
enum ChannelRenameRules {
    static let registeredChildren = ["channelListEntry", "channelAccess"]
}
