import Foundation

/// A Hearth process in a network, as the database knows it.
public struct NodeInfo: Sendable, Equatable {
    public var name: String
    public var startedAt: Date
    public var heartbeatAt: Date
    /// Users on it at its last heartbeat.
    public var users: Int

    public init(name: String, startedAt: Date, heartbeatAt: Date, users: Int) {
        (self.name, self.startedAt, self.heartbeatAt, self.users) = (name, startedAt, heartbeatAt, users)
    }
}

/// A nick held somewhere in the network: by one connection, or by an account's devices (which
/// may sit on several nodes and share it).
public struct NetworkNick: Sendable, Equatable {
    public var nickKey: String
    public var node: String
    public var session: Int
    public var accountID: Int64?

    public init(nickKey: String, node: String, session: Int, accountID: Int64?) {
        (self.nickKey, self.node, self.session, self.accountID) = (nickKey, node, session, accountID)
    }
}

/// Limits of the network's message bus.
public enum NetworkLimits {
    /// PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more; larger events travel in a
    /// table and the notification carries their row id.
    public static let maxNotifyPayload = 7_900
    /// A node whose heartbeat is older than this is lost: its users quit, its nicks are freed.
    public static let nodeTimeout: Duration = .seconds(15)
    /// How often a node writes its heartbeat (and looks for lost nodes).
    public static let heartbeatInterval: Duration = .seconds(5)
    /// Oversized events are kept this long for nodes to fetch, then deleted.
    public static let eventRetention: Duration = .seconds(60)
}

/// Several Hearth processes sharing one database: who is where, and a bus between them.
/// Only engines a network can share implement it (PostgreSQL); see `Store.network`.
public protocol NetworkStore: Sendable {
    /// Enters the network as `node` (a node restarting under its name takes its place: what
    /// it held before is freed and returned, so the others can be told).
    func joinNetwork(node: String) async throws -> [NetworkNick]

    /// Leaves the network: the node's row and every nick it held.
    func leaveNetwork(node: String) async throws

    /// Writes the node's heartbeat, and takes out nodes whose heartbeat is older than
    /// `NetworkLimits.nodeTimeout`: each lost node is returned once, to one caller, with the
    /// nicks it held (now freed).
    func heartbeat(node: String, users: Int) async throws -> [(node: String, nicks: [NetworkNick])]

    func nodes() async throws -> [NodeInfo]

    /// Claims a nick for a connection, network-wide: true when it was free, or held by the
    /// same account (devices share their account's nick).
    func claimNick(_ claim: NetworkNick) async throws -> Bool

    /// Frees a connection's claim (other devices of the account may still hold the nick).
    func releaseNick(_ nickKey: String, node: String, session: Int) async throws

    /// Every claim, for a node rebuilding its view after it lost the bus.
    func networkNicks() async throws -> [NetworkNick]

    /// Sends events to every node (this one included), in order, as one batch.
    func publish(_ events: [String]) async throws

    /// Events from every node, in the order they were published; the sequence ends with an
    /// error when the bus connection is lost (events meanwhile are not replayed).
    func subscribe() -> AsyncThrowingStream<String, any Error>
}
