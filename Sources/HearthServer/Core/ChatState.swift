import Foundation
import HearthAccounts
import HearthKit
import HearthProtocol
import HearthStore

/// What the chat is now: connections and what others see of them (`state[client]`, a
/// `ChatUser`), nicks, channels and the lists that go with them. A value owned by
/// `LockedChat`, so it is read and changed only inside `withLock`: reading `nicks` or a
/// client's nick without the lock does not compile. Rules that need nothing but this state live
/// in `extension ChatState` and are tested without sockets (ChatStateTests).
struct ChatState {
    /// Registered and unregistered local connections, by id.
    var clients: [Int: Client] = [:]
    /// Folded nick → who holds it (one device of a group; see Devices.swift).
    var nicks: [String: Client] = [:]
    /// Folded nick → every connection sharing it, when more than one does (see Devices.swift).
    var deviceGroups: [String: [Client]] = [:]
    /// Users of other nodes, by where they live.
    var remoteUsers: [RemoteOrigin: Client] = [:]
    /// The most users seen at once on this node and in the whole network (LUSERS).
    var peakUsers: (local: Int, global: Int) = (0, 0)
    /// Who used each nick before (WHOWAS).
    var whowas = WhowasLog()
    /// Channels by folded name. `ChannelState` is a class for cheap fan-out, but it is only
    /// reachable from here.
    var channels: [String: ChannelState] = [:]
    /// Account → accounts it blocks, for logged-in accounts (private messages check it).
    var blocking: [Int64: Set<Int64>] = [:]
    /// Folded nick → ids of the clients that MONITOR it.
    var watchers: [String: Set<Int>] = [:]
    /// Channels the apps guard (a family's), by folded name: only their members get in.
    var guarded: [String: GuardedChannel] = [:]
    /// Registered channels by folded name (loaded at start, kept in step with the store).
    var registered: [String: RegisteredChannel] = [:]
    /// Connections per address (an IPv6 /64 counts as one), for the per-address limit.
    var perAddress: [String: Int] = [:]
    /// The id the next connection gets.
    var nextID = 1
    /// Registered, invisible and operator users (kept by `self[client]`).
    var counts = UserCounts()
    /// Always-on accounts' choices and stand-ins (IRC/AlwaysOn.swift).
    var alwaysOn = AlwaysOnTable()
    /// Server bans, and registered channels' kept lists and access (IRC/ServerBans.swift).
    var moderation = Moderation()
}

/// The chat state behind the core's lock. The only way in is `withLock`, whose closure gets
/// the state `inout`: decide there, queue writes in an `Outbox`, write after (`Core.withState`).
final class LockedChat: @unchecked Sendable {
    private let lock = AdaptiveLock()
    private var state = ChatState()

    @inline(__always)
    func withLock<R>(_ body: (inout ChatState) throws -> R) rethrows -> R {
        try lock.withLock { try body(&state) }
    }
}

extension ChatState {
    /// A fresh connection id (ids are never reused).
    mutating func newClientID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Takes a new connection in, unless its address already holds `limit` connections
    /// (an IPv6 /64 counts as one address); `exempt` addresses have no limit.
    mutating func admit(_ client: Client, exempt: Bool, limit: Int) -> Bool {
        let key = AddressGroup.key(client.address)
        if !exempt && perAddress[key, default: 0] >= limit { return false }
        perAddress[key, default: 0] += 1
        clients[client.id] = client
        return true
    }

    /// A connection was removed: its address holds one fewer.
    mutating func forgetAddress(_ client: Client) {
        let key = AddressGroup.key(client.address)
        let left = (perAddress[key] ?? 1) - 1
        perAddress[key] = left > 0 ? left : nil
    }

    /// Takes `client` out of the channel `key`; a channel left empty is gone, and returned.
    mutating func removeMember(_ client: Client, from key: String) -> ChannelState? {
        guard let channel = channels[key] else { return nil }
        channel.remove(client)
        guard channel.members.isEmpty else { return nil }
        channels[key] = nil
        return channel
    }

    /// Why `key` is not free for `client`, or nil.
    func nickTaken(_ key: String, by client: Client) -> String? {
        if key == Bot.nick { return "Nickname belongs to the Hearth bot" }
        if AccountService.reservedNicks.contains(key) { return "Nickname is reserved for services" }
        if let holder = nicks[key], holder !== client { return "Nickname is already in use" }
        return nil
    }

    /// A fresh guest nick nobody uses (random first, so guests are not enumerable;
    /// the connection id after that, which is unique, so this never spins).
    func freeGuestNick(for client: Client? = nil) -> String {
        for _ in 0..<20 {
            let nick = GuestNames.random()
            if nicks[IRCNames.fold(nick)] == nil { return nick }
        }
        var id = client?.id ?? nextID
        while nicks["guest\(id)"] != nil { id += 1_000_000 }
        return "guest\(id)"
    }

    /// Whether `recipient`'s account blocks `client`'s.
    func isBlocked(_ client: Client, by recipient: Client) -> Bool {
        guard let sender = self[client].account?.id, let receiver = self[recipient].account?.id else { return false }
        return blocking[receiver]?.contains(sender) == true
    }

    /// Everyone who shares a channel with `client`, without duplicates (not `client`).
    func peers(of client: Client) -> [Client] {
        var seen: Set<Int> = [client.id]
        var result: [Client] = []
        for key in self[client].channels {
            guard let channel = channels[key] else { continue }
            for member in channel.order where seen.insert(member.id).inserted {
                result.append(member)
            }
        }
        return result
    }
}
