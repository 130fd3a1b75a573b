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

/// A channel as the network knows it: the history key of its present incarnation, and
/// whether this claim made it.
public struct ChannelClaim: Sendable, Equatable {
    public var historyKey: String
    public var created: Bool

    public init(historyKey: String, created: Bool) { (self.historyKey, self.created) = (historyKey, created) }
}

/// One event off the bus: its id in the event log, the node that published it, and its bytes:
/// the compact binary form nodes write now, or the JSON text of nodes before it (a network
/// upgrading node by node holds both; the reader tells them apart by the first byte).
public struct NetworkDelivery: Sendable, Equatable {
    public var id: Int64
    public var node: String
    public var payload: [UInt8]

    public init(id: Int64, node: String, payload: [UInt8]) { (self.id, self.node, self.payload) = (id, node, payload) }

    public init(id: Int64, node: String, payload: String) {
        self.init(id: id, node: node, payload: Array(payload.utf8))
    }

    /// Not an event: the bus is listening from here on.
    public static let listening = NetworkDelivery(id: 0, node: "", payload: [])
}

/// Limits of the network's message bus.
public enum NetworkLimits {
    /// PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more: a batch whose whole notification
    /// (ids, node name, wrapper and events) would not be shorter is announced by its ids alone,
    /// and listeners read it from the log.
    public static let notifyPayloadLimit = 8_000
    /// A node whose heartbeat is older than this is lost: its users quit, its nicks are freed.
    public static let nodeTimeout: Duration = .seconds(15)
    /// How often a node writes its heartbeat (and looks for lost nodes).
    public static let heartbeatInterval: Duration = .seconds(5)
    /// Events are kept this long, for nodes that lost the bus to catch up, then deleted.
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

    /// Writes the node's heartbeat; with `reap`, takes out nodes whose heartbeat is older than
    /// `NetworkLimits.nodeTimeout`: each lost node is returned once, to one caller, with the
    /// nicks it held (now freed). `returned` is true when the others had taken this node out.
    func heartbeat(node: String, users: Int, reap: Bool) async throws -> Heartbeat

    func nodes() async throws -> [NodeInfo]

    /// Claims a nick for a connection, network-wide: true when it was free, or held by the
    /// same account (devices share their account's nick).
    func claimNick(_ claim: NetworkNick) async throws -> Bool

    /// Frees a connection's claim (other devices of the account may still hold the nick).
    func releaseNick(_ nickKey: String, node: String, session: Int) async throws

    /// Claims channel `channelKey` for a node about to make it, with its history key: the first
    /// claim makes it (its joiner is the operator); later ones get the maker's history key.
    func claimChannel(_ channelKey: String, historyKey: String) async throws -> ChannelClaim

    /// The channel emptied: the next joiner makes a new one (a later incarnation is left alone).
    func releaseChannel(_ channelKey: String, historyKey: String) async throws

    /// Every claim, for a node rebuilding its view after it lost the bus.
    func networkNicks() async throws -> [NetworkNick]

    /// Frees `node`'s claims that no connection of it holds any more (a release that never
    /// reached the database): each of its rows whose nick and session are not among `live`,
    /// returned. Rows of sessions numbered `below` or above are kept: claims made after the
    /// node took its list of `live` ones.
    func sweepNicks(node: String, live: [NetworkNick], below: Int) async throws -> [NetworkNick]

    /// Logs events (each in its binary form) and sends them to every node (this one included),
    /// in order, as one batch.
    func publish(_ events: [[UInt8]], from node: String) async throws

    /// Events from every node but `node` (the listener's own) as they are published, each
    /// node's in its order. The first element (`NetworkDelivery.listening`) says the bus is up;
    /// the sequence ends with an error when it is lost. What was published meanwhile is in
    /// `events(from:after:)`.
    func subscribe(ignoring node: String) -> AsyncThrowingStream<NetworkDelivery, any Error>

    /// The events `node` published after event `id` that are still kept, in order.
    func events(from node: String, after id: Int64) async throws -> [NetworkDelivery]
}

/// What a heartbeat found.
public struct Heartbeat: Sendable {
    /// Nodes found lost (and taken out) by this heartbeat, with the nicks they held.
    public var lost: [(node: String, nicks: [NetworkNick])] = []
    /// This node had been taken out for lost (a long stall) and is back in.
    public var returned = false

    public init(lost: [(node: String, nicks: [NetworkNick])] = [], returned: Bool = false) {
        (self.lost, self.returned) = (lost, returned)
    }
}
