import Foundation
import HearthBot
import HearthProtocol
import NIOCore

enum ClientMode {
    case undecided, irc, plain
}

/// One connection. Fields marked "shared" are read by other connections and change only
/// under `Core.lock`; the rest belong to the connection's event loop.
final class Client: @unchecked Sendable {
    let id: Int
    let channel: Channel
    let eventLoop: EventLoop
    let address: String
    let connectedAt = Date()

    // shared (Core.lock)
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

    /// Enabled capabilities; changed on the client's loop under `Core.lock`.
    var caps: Set<String> = [] { didSet { tagMask = TagMask.forCaps(caps) } }
    /// Which tags this client receives, derived from `caps`.
    private(set) var tagMask: TagMask = []
    /// `!set bot on`: marked +B, tagged `bot`, shown with 335 in WHOIS.
    var isBot = false
    /// An app is collecting this user's lines (`SessionEffect.captureLines`): plain-mode lines
    /// that are not commands go to the bot.
    var linesToBot = false

    // event-loop local
    var capNegotiating = false
    var gotUser = false
    var pass: String?
    var saslBuffer = ""
    var saslInProgress = false
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

    init(id: Int, channel: Channel, address: String, batcher: FlushBatcher, counts: UserCounts) {
        self.counts = counts
        self.batcher = batcher
        self.id = id
        self.channel = channel
        self.eventLoop = channel.eventLoop
        self.address = address
        self.host = address
        updatePrefix()
    }

    private func updatePrefix() { prefix = "\(nick)!\(user)@\(host)" }
    var isPlain: Bool { mode == .plain }

    func caller(channel: String? = nil) -> Caller {
        Caller(
            sessionID: id, nick: nick, account: account, tokenHash: tokenHash, address: address,
            isIRC: mode != .plain, channel: channel)
    }
}

/// Registered users, invisible users and operators; changed only under `Core.lock`.
final class UserCounts {
    var users = 0
    var invisible = 0
    var opers = 0
}

/// A channel and its members. Changes only under `Core.lock`.
final class ChannelState {
    let key: String
    var name: String
    /// Where its messages are kept: the folded name for a registered or family channel,
    /// which lives on; "<folded name> <random id>" for this incarnation of any other.
    var historyKey: String
    let createdAt = Date()
    var topic = ""
    var topicSetBy = ""
    var topicSetAt = Date()
    /// Simple flag modes: i, m, n, s, t.
    var flags: Set<Character> = ["n", "t"]
    var channelKey: String?
    var limit: Int?
    var bans: [(mask: String, setBy: String, at: Date)] = []
    var invited: Set<String> = []
    /// Member id → status; `order` keeps join order for NAMES.
    var members: [Int: MemberStatus] = [:]
    private(set) var order: [Client] = []
    /// The IRC members on one event loop and the tag masks among them.
    struct LoopMembers {
        let loop: EventLoop
        var clients: [Client]
        var masks: [TagMask]
    }

    /// IRC members grouped by event loop, plain-mode members, and every tag any member
    /// wants; rebuilt after a change.
    private var partition: (irc: [LoopMembers], plain: [Client], tagMask: TagMask)?

    /// A member's caps changed: the tag masks of the partition are stale.
    func invalidateMembers() { partition = nil }

    func add(_ client: Client, _ status: MemberStatus) {
        members[client.id] = status
        order.append(client)
        partition = nil
    }

    func remove(_ client: Client) {
        members[client.id] = nil
        order.removeAll { $0 === client }
        partition = nil
    }

    /// Members for fan-out: one list per event loop, so a message costs one task per loop.
    func membersByLoop() -> (irc: [LoopMembers], plain: [Client], tagMask: TagMask) {
        if let partition { return partition }
        var irc: [ObjectIdentifier: LoopMembers] = [:]
        var plain: [Client] = []
        for member in order {
            if member.isPlain {
                plain.append(member)
            } else {
                let key = ObjectIdentifier(member.eventLoop)
                irc[key, default: LoopMembers(loop: member.eventLoop, clients: [], masks: [])].clients.append(member)
                if !irc[key]!.masks.contains(member.tagMask) { irc[key]!.masks.append(member.tagMask) }
            }
        }
        let union = irc.values.reduce(TagMask()) { $0.union($1.masks.reduce(TagMask()) { $0.union($1) }) }
        let result = (Array(irc.values), plain, union)
        partition = result
        return result
    }

    init(name: String, historyKey: String? = nil) {
        self.name = name
        self.key = IRCNames.fold(name)
        self.historyKey = historyKey ?? key
    }

    func modeString(showKey: Bool) -> [String] {
        var letters = "+" + String(flags.sorted())
        var params: [String] = []
        if let channelKey {
            letters += "k"
            params.append(showKey ? channelKey : "*")
        }
        if let limit {
            letters += "l"
            params.append(String(limit))
        }
        return [letters] + params
    }

    func isBanned(_ client: Client) -> Bool {
        let full = client.prefix
        return bans.contains { IRCNames.globMatch($0.mask, full) }
    }
}

struct MemberStatus {
    var op = false
    var voice = false

    /// All prefixes, highest first (multi-prefix) or only the highest.
    func prefixes(all: Bool) -> String {
        if all { return (op ? "@" : "") + (voice ? "+" : "") }
        return op ? "@" : (voice ? "+" : "")
    }
}
