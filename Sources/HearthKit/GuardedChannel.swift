import Foundation
import HearthStore

/// A channel an app keeps for some accounts (a family's): only they may join it, whatever
/// its modes, operators included, and everyone else is never shown it.
public struct GuardedChannel: Sendable, Equatable, Codable {
    public var name: String
    public var members: Set<Int64>
    public var topic: String
    /// What the members belong to, for "No longer in …" when one is taken out.
    public var owner: String

    public init(name: String, members: Set<Int64>, topic: String, owner: String) {
        self.name = name
        self.members = members
        self.topic = topic
        self.owner = owner
    }
}

/// Channel names an app keeps for itself (folded prefix): nobody may make one, and joining
/// one you are not on the list of is refused with `refusal`.
public struct ReservedChannels: Sendable {
    public var prefix: String
    public var refusal: String

    public init(prefix: String, refusal: String) {
        self.prefix = prefix
        self.refusal = refusal
    }
}
