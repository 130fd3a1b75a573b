import Foundation
import HearthKit
import HearthProtocol
import NIOCore
import NIOEmbedded

enum ClientMode {
    case undecided, irc, plain
}

/// One connection. Fields marked "shared" are read by other connections and change only
/// inside the chat lock (`Core.chat.withLock`, `Core.withState`); the rest belong to the
/// connection's event loop. The shared fields are not yet part of `ChatState`, so for them
/// the lock is still a rule the compiler does not check.
final class Client: @unchecked Sendable {
    let id: Int
    let socket: ClientSocket
    let eventLoop: EventLoop
    /// The real address (every per-address limit counts it); others see `host`, its cloak.
    let address: String
    let connectedAt = Date()

    // shared (inside the chat lock)
    var nick = "*" { didSet { updatePrefix() } }
    var nickKey = ""
    var user = "user" { didSet { updatePrefix() } }
    var realname = ""
    var host: String { didSet { updatePrefix() } }
    /// `nick!user@host`, kept up to date: it is the source of every message this client sends.
    private(set) var prefix = ""
    var account: AccountRef?
    var tokenHash: String?
    var away: String?
    var isOper = false { didSet { if isOper != oldValue { counts.opers += isOper ? 1 : -1 } } }
    var invisible = false { didSet { if invisible != oldValue { counts.invisible += invisible ? 1 : -1 } } }
    var registered = false { didSet { if registered != oldValue { counts.users += registered ? 1 : -1 } } }
    /// Server-wide counts kept as fields change, so LUSERS costs nothing per connection.
    let counts: UserCounts
    var mode = ClientMode.undecided
    /// Folded names of joined channels, in join order.
    var channels: [String] = []
    /// Folded nicks this client MONITORs.
    var monitoring: Set<String> = []
    var lastMessageAt = Date()

    /// Enabled capabilities; changed on the client's loop inside the chat lock.
    /// A guest's read markers (MARKREAD), folded target → time; an account's are in the store.
    var readMarkers: [String: Date] = [:]
    var caps: Set<String> = [] {
        didSet {
            tagMask = TagMask.forCaps(caps)
            echoes = caps.contains("echo-message")
        }
    }
    /// Which tags this client receives, derived from `caps`.
    private(set) var tagMask: TagMask = []
    /// echo-message, derived from `caps` (read per message: no set lookup).
    private(set) var echoes = false
    /// `!set bot on`: marked +B, tagged `bot`, shown with 335 in WHOIS.
    var isBot = false
    /// An app is collecting this user's lines (`SessionEffect.captureLines`): plain-mode lines
    /// that are not commands go to the bot.
    var linesToBot = false
    /// When the bot last took one of those lines (or started collecting): after
    /// `Core.captureIdleTimeout` without one, lines are chat again.
    var linesToBotTouched = Date.distantPast

    // event-loop local
    var capNegotiating = false
    var gotUser = false
    var pass: String?
    /// A plain-mode connection to a private server that has not given its password yet.
    var awaitingServerPassword = false
    /// User mode +w: receives WALLOPS.
    var wallops = false
    var saslBuffer = ""
    var saslInProgress = false
    /// The SCRAM-SHA-256 exchange under way, if that is the mechanism chosen.
    var scram: ScramState?
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
    var multiline: MultilineDraft?
    /// Plain mode: where chat text goes.
    var currentChannel: String?
    /// Plain-mode lines handled so far.
    var plainLines = 0
    var closing = false
    /// Async work in progress; the connection reads no further line until it completes.
    var pending: EventLoopFuture<Void>?

    /// This connection's loop's flush batcher, and whether it is queued there.
    let batcher: FlushBatcher
    var flushPending = false
    /// Bytes written this tick, not yet handed to the socket.
    var output = ByteBuffer()

    init(
        id: Int, socket: ClientSocket, eventLoop: EventLoop, address: String, host: String? = nil,
        batcher: FlushBatcher, counts: UserCounts
    ) {
        self.counts = counts
        self.batcher = batcher
        self.id = id
        self.socket = socket
        self.eventLoop = eventLoop
        self.address = address
        self.host = host ?? address
        updatePrefix()
    }

    /// Where a user of another node lives (nil: a connection to this node). A remote user is
    /// a `Client` so that nick, channel and query logic treat it like any other; delivery
    /// skips it, because its own node delivers to it.
    private(set) var remote: RemoteOrigin?
    var isRemote: Bool { remote != nil }

    /// Where users of other nodes "are connected": one channel for them all, never written to.
    struct RemotePlace {
        let channel = EmbeddedChannel()
        let batcher: FlushBatcher
        init() { batcher = FlushBatcher(loop: channel.eventLoop) }
    }

    /// A user of another node, as this node mirrors it.
    static func remote(id: Int, origin: RemoteOrigin, host: String, place: RemotePlace, counts: UserCounts) -> Client {
        let client = Client(
            id: id, socket: .channel(place.channel), eventLoop: place.channel.eventLoop, address: host,
            batcher: place.batcher, counts: counts)
        client.remote = origin
        client.mode = .irc
        // Messages forwarded to it carry every tag; its node gives it those its caps ask for.
        client.caps = ["message-tags", "server-time", "account-tag"]
        return client
    }

    private func updatePrefix() { prefix = "\(nick)!\(user)@\(host)" }
    var isPlain: Bool { mode == .plain }

    func caller(channel: String? = nil) -> Caller {
        Caller(
            sessionID: id, nick: nick, account: account, tokenHash: tokenHash, address: address,
            isIRC: mode != .plain, channel: channel)
    }
}

/// Where a connection's bytes go: a NIO channel (TLS, WebSocket, a load balancer's, and every
/// connection with `--io nio`) or a socket of `--io epoll`.
enum ClientSocket {
    case channel(Channel)
    #if os(Linux)
        case epoll(EpollConnection)
    #endif

    func send(_ bytes: ByteBuffer) {
        switch self {
        case .channel(let channel): channel.writeAndFlush(bytes, promise: nil)
        #if os(Linux)
            case .epoll(let connection): connection.send(bytes)
        #endif
        }
    }

    /// Writes `bytes` and closes once they are written.
    func sendThenClose(_ bytes: ByteBuffer) {
        switch self {
        case .channel(let channel): channel.writeAndFlush(bytes).whenComplete { _ in channel.close(promise: nil) }
        #if os(Linux)
            case .epoll(let connection): connection.sendThenClose(bytes)
        #endif
        }
    }

    func close() {
        switch self {
        case .channel(let channel): channel.close(promise: nil)
        #if os(Linux)
            case .epoll(let connection): connection.close()
        #endif
        }
    }

    /// The connection's handler, while it is open (on its loop).
    var handler: ConnectionHandler? {
        switch self {
        case .channel(let channel): try? channel.pipeline.syncOperations.handler(type: ConnectionHandler.self)
        #if os(Linux)
            case .epoll(let connection): connection.handler
        #endif
        }
    }

    var closeFuture: EventLoopFuture<Void> {
        switch self {
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

/// Registered users, invisible users and operators; changed only inside the chat lock (by
/// `Client`'s shared fields, which are not yet part of `ChatState`), read only there too.
final class UserCounts: @unchecked Sendable {
    var users = 0
    var invisible = 0
    var opers = 0
}
