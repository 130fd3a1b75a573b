import Foundation

/// A channel's state as the network orders it (modes, key, limit, topic, lists, prefixes, in
/// the server's encoding): one row per channel, for its present incarnation (`historyKey`).
public struct NetworkChannelState: Sendable, Equatable {
    public var channelKey: String
    public var historyKey: String
    /// Raised by one for every change, whichever node made it: the order every node applies.
    public var version: Int64
    public var state: String

    public init(channelKey: String, historyKey: String, version: Int64, state: String) {
        (self.channelKey, self.historyKey, self.version, self.state) = (channelKey, historyKey, version, state)
    }
}

/// The one order of channel changes across nodes: the database takes them one at a time per
/// channel (a row lock), numbers them, and logs and announces each with its number in the
/// same transaction, so every node applies them in one order and ends the same.
public protocol NetworkChannelStore: Sendable {
    /// Changes `channelKey`'s state and publishes the event saying so, in one transaction.
    /// `change` gets the state stored for this incarnation (nil: none yet, or an earlier
    /// incarnation's) and returns the new one (nil: nothing to change, nothing published);
    /// `event` gets the new version and state and returns the event to publish from `node`.
    func changeChannelState(
        _ channelKey: String, historyKey: String, from node: String,
        change: @escaping @Sendable (String?) -> String?, event: @escaping @Sendable (Int64, String) -> [UInt8]
    ) async throws -> NetworkChannelState?

    /// The stored states of these channels (any incarnation: the caller compares `historyKey`).
    func channelStates(_ channelKeys: [String]) async throws -> [NetworkChannelState]

    /// The channel emptied on every node: its state goes with it (a later incarnation's stays).
    func releaseChannelState(_ channelKey: String, historyKey: String) async throws
}
