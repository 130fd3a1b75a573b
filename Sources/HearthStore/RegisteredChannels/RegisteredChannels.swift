import Foundation

/// A registered channel as stored: owner, topic and modes.
public struct RegisteredChannel: Codable, Sendable, Equatable {
    public var nameKey: String
    public var name: String
    public var ownerId: Int64
    public var topic: String
    public var topicSetBy: String
    public var topicSetAt: Date?
    public var flags: String
    public var channelKey: String?
    public var userLimit: Int?
    public var createdAt: Date

    public init(
        nameKey: String, name: String, ownerId: Int64, topic: String = "", topicSetBy: String = "",
        topicSetAt: Date? = nil,
        flags: String = "nt", channelKey: String? = nil, userLimit: Int? = nil, createdAt: Date = Date()
    ) {
        self.nameKey = nameKey
        self.name = name
        self.ownerId = ownerId
        self.topic = topic
        self.topicSetBy = topicSetBy
        self.topicSetAt = topicSetAt
        self.flags = flags
        self.channelKey = channelKey
        self.userLimit = userLimit
        self.createdAt = createdAt
    }
}

public struct OwnsTooMany: Error {}

/// The registeredchannels part of the store, the same on every engine.
public protocol ChannelRegistry: Sendable {
    func registeredChannels() async throws -> [RegisteredChannel]

    func registeredChannel(nameKey: String) async throws -> RegisteredChannel?

    /// Registers a channel; false if it already has an owner. Throws `ownsTooMany` when
    /// the owner already has `maxOwned`.
    func register(_ channel: RegisteredChannel, maxOwned: Int) async throws -> Bool

    /// Saves topic and modes (after a change in a live channel).
    func save(_ channel: RegisteredChannel) async throws

    func dropChannel(nameKey: String) async throws

    func transferChannel(nameKey: String, to ownerId: Int64, maxOwned: Int) async throws

    /// Every registered channel's kept list entries (+b, +e, +I), read at start.
    func channelListEntries() async throws -> [ChannelListEntry]

    /// Replaces a registered channel's kept list entries with `entries` (after a change).
    func saveChannelLists(nameKey: String, _ entries: [ChannelListEntry]) async throws

    /// Every registered channel's access list (accounts given op or voice on join), read at start.
    func channelAccess() async throws -> [ChannelAccess]

    /// Gives an account op or voice on joining a registered channel, or takes it away (`level` nil).
    func setChannelAccess(nameKey: String, accountId: Int64, level: ChannelAccess.Level?) async throws
}

/// One mask of a registered channel's ban (b), exception (e) or invite-exception (I) list.
public struct ChannelListEntry: Sendable, Equatable, Codable {
    public var nameKey: String
    public var mode: String
    public var mask: String
    public var setBy: String
    public var setAt: Date
    /// Set by an IRC operator (the mask then also matches real addresses).
    public var byOper: Bool

    public init(nameKey: String, mode: String, mask: String, setBy: String, setAt: Date, byOper: Bool = false) {
        self.nameKey = nameKey
        self.mode = mode
        self.mask = mask
        self.setBy = setBy
        self.setAt = setAt
        self.byOper = byOper
    }
}

/// An account a registered channel gives op or voice when it joins (`!channel access`).
public struct ChannelAccess: Sendable, Equatable, Codable {
    public enum Level: String, Sendable, Codable {
        case op, voice
    }

    public var nameKey: String
    public var accountId: Int64
    public var level: Level

    public init(nameKey: String, accountId: Int64, level: Level) {
        self.nameKey = nameKey
        self.accountId = accountId
        self.level = level
    }
}

extension ChannelRegistry {
    public func register(_ channel: RegisteredChannel) async throws -> Bool {
        try await register(channel, maxOwned: .max)
    }

    public func transferChannel(nameKey: String, to ownerId: Int64) async throws {
        try await transferChannel(nameKey: nameKey, to: ownerId, maxOwned: .max)
    }
}
