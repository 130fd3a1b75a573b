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
}

extension ChannelRegistry {
    public func register(_ channel: RegisteredChannel) async throws -> Bool {
        try await register(channel, maxOwned: .max)
    }

    public func transferChannel(nameKey: String, to ownerId: Int64) async throws {
        try await transferChannel(nameKey: nameKey, to: ownerId, maxOwned: .max)
    }
}
