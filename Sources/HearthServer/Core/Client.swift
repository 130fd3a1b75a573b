import Foundation
import HearthKit
import HearthProtocol
import NIOCore

enum ClientMode {
    case undecided, irc, plain
}

/// One connection. What other users see of it and chat rules decide on (nick, account,
/// channels, caps, …) is its `ChatUser`, reached only as `state[client]` inside the chat lock;
/// the fields here belong to the connection's event loop, or never change.
final class Client: @unchecked Sendable {
    let id: Int
    let socket: ClientSocket
    let eventLoop: EventLoop
    /// The real address (every per-address limit counts it); others see `host`, its cloak.
    let address: String
    let connectedAt = Date()
    /// Its chat-visible state: `fileprivate`, so only `ChatState`'s subscript below reaches it.
    fileprivate var shared: ChatUser

    // Owned by the connection's event loop: registration and SASL in progress.
    var capNegotiating = false
    var gotUser = false
    var pass: String?
    /// The last nick asked for while registering, taken or not (`REGISTER *` names it).
    var wantedNick: String?
    /// The device named at login (`alice@phone`; "" the default), for always-on replay.
    var device = ""
    /// Changes to its own metadata in the window started then (`Core.metadataChangesPerWindow`).
    var metadataWindowStart = Date.distantPast
    var metadataChanges = 0
    /// A plain-mode connection to a private server that has not given its password yet.
    var awaitingServerPassword = false
    var saslBuffer = ""
    var saslInProgress = false
    /// The SCRAM-SHA-256 exchange under way, if that is the mechanism chosen.
    @OutOfLine var scram: ScramState?
    /// SASL EXTERNAL was chosen: the next AUTHENTICATE logs in by the TLS client certificate.
    var saslExternal = false

    // Owned by the connection's event loop: timeouts, labeled-response, multiline, input order.
    var pingOutstanding = false
    var lastInput = NIODeadline.now()
    /// labeled-response: the label of the command being answered, whether this client's own
    /// code is running (only then are its replies captured), and the replies so far.
    var label: String?
    var capturing = false {
        didSet {
            // The loop remembers whose labeled command runs, so fan-out can check in O(1).
            if capturing { batcher.capturing = self } else if batcher.capturing === self { batcher.capturing = nil }
        }
    }
    var labeledReplies: [IRCMessage] = []
    /// draft/multiline: the batch being received.
    @OutOfLine var multiline: MultilineDraft?
    /// Plain-mode lines handled so far.
    var plainLines = 0
    var closing = false
    /// Async work in progress; the connection reads no further line until it completes.
    var pending: EventLoopFuture<Void>?

    // Owned by the connection's event loop (and its batcher): output.
    /// This connection's loop's flush batcher, and whether it is queued there.
    let batcher: FlushBatcher
    var flushPending = false
    /// Bytes written this tick, not yet handed to the socket (WebSocket frames for a WebSocket client).
    var output = ByteBuffer()
    /// How lines are framed in `output`: nil for raw IRC lines (TCP, TLS).
    let framing: WebSocketFraming?

    init(
        id: Int, socket: ClientSocket, eventLoop: EventLoop, address: String, host: String? = nil,
        batcher: FlushBatcher, user: ChatUser? = nil, framing: WebSocketFraming? = nil
    ) {
        self.batcher = batcher
        self.framing = framing
        self.id = id
        self.socket = socket
        self.eventLoop = eventLoop
        self.address = address
        // LUSERS counts follow changes made through a `ChatState`; a user made here is not counted.
        assert(user.map { !$0.registered && !$0.invisible && !$0.isOper } ?? true, "set these through state[client]")
        shared = user ?? ChatUser(host: host ?? address)
    }

    /// Where a user of another node lives (nil: a connection to this node). A remote user is
    /// a `Client` so that nick, channel and query logic treat it like any other; delivery
    /// skips it, because its own node delivers to it.
    @OutOfLine private(set) var remote: RemoteOrigin?
    var isRemote: Bool { remote != nil }

    /// Where users of other nodes "are": one of this server's loops and its batcher, shared by
    /// them all. Nothing is written to them (their node delivers), so neither ever works for them.
    struct RemotePlace {
        let loop: EventLoop
        let batcher: FlushBatcher
        init(loop: EventLoop) { (self.loop, batcher) = (loop, FlushBatcher(loop: loop)) }
    }

    /// A user of another node, as this node mirrors it.
    static func remote(id: Int, origin: RemoteOrigin, host: String, place: RemotePlace) -> Client {
        // Messages forwarded to it carry every tag; its node gives it those its caps ask for.
        let user = ChatUser(host: host, mode: .irc, caps: ["message-tags", "server-time", "account-tag"])
        let client = Client(
            id: id, socket: .remote(place.loop), eventLoop: place.loop, address: host, batcher: place.batcher,
            user: user)
        client.remote = origin
        return client
    }
}

extension ChatState {
    /// The chat-visible state of `client`: read and changed only through a `ChatState`, which
    /// only `LockedChat.withLock` hands out. Yielded in place (no copy of the struct); the
    /// counts LUSERS reads follow each change.
    subscript(_ client: Client) -> ChatUser {
        _read { yield client.shared }
        _modify {
            let before = (client.shared.registered, client.shared.invisible, client.shared.isOper)
            yield &client.shared
            counts.adjust(
                from: before, to: (client.shared.registered, client.shared.invisible, client.shared.isOper))
        }
    }
}

/// Where a connection's bytes go: a NIO channel (TLS, WebSocket, a load balancer's, and every
/// connection with `--io nio`) or a socket of `--io epoll`.
enum ClientSocket {
    case channel(Channel)
    #if os(Linux)
        case epoll(EpollConnection)
    #endif
    /// A user of another node: its node holds its connection; nothing is sent here, and ending
    /// its session is that node's (`NetworkMessage.kill`). The loop only answers `closeFuture`.
    case remote(EventLoop)

    func send(_ bytes: ByteBuffer) {
        switch self {
        case .remote: return
        case .channel(let channel): channel.writeAndFlush(bytes, promise: nil)
        #if os(Linux)
            case .epoll(let connection): connection.send(bytes)
        #endif
        }
    }

    /// Writes `bytes` and closes once they are written.
    func sendThenClose(_ bytes: ByteBuffer) {
        switch self {
        case .remote: return
        case .channel(let channel): channel.writeAndFlush(bytes).whenComplete { _ in channel.close(promise: nil) }
        #if os(Linux)
            case .epoll(let connection): connection.sendThenClose(bytes)
        #endif
        }
    }

    func close() {
        switch self {
        case .remote: return
        case .channel(let channel): channel.close(promise: nil)
        #if os(Linux)
            case .epoll(let connection): connection.close()
        #endif
        }
    }

    /// The connection's handler, while it is open (on its loop).
    var handler: ConnectionHandler? {
        switch self {
        case .remote: nil
        case .channel(let channel): try? channel.pipeline.syncOperations.handler(type: ConnectionHandler.self)
        #if os(Linux)
            case .epoll(let connection): connection.handler
        #endif
        }
    }

    var closeFuture: EventLoopFuture<Void> {
        switch self {
        case .remote(let loop): loop.makeSucceededVoidFuture()
        case .channel(let channel): channel.closeFuture
        #if os(Linux)
            case .epoll(let connection): connection.closeFuture
        #endif
        }
    }
}

/// A remote user's node and its connection id there.
struct RemoteOrigin: Hashable, Sendable {
    var node: String
    var session: Int
    /// The node's server name (WHOIS shows it); not part of the identity.
    var server: String? = nil

    static func == (a: RemoteOrigin, b: RemoteOrigin) -> Bool { a.node == b.node && a.session == b.session }
    func hash(into hasher: inout Hasher) {
        hasher.combine(node)
        hasher.combine(session)
    }
}
