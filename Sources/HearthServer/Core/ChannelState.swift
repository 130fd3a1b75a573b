import Foundation
import HearthKit
import HearthProtocol
import HearthStore
import NIOCore

/// A channel and its members. Reached only through `ChatState.channels`, so it is read and
/// changed inside the chat lock (a class so fan-out copies no member lists).
final class ChannelState {
    /// The folded name; changes only with the name (`rename(to:)`, RENAME).
    private(set) var key: String
    var name: String
    /// Where its messages are kept: the folded name for a registered or family channel,
    /// which lives on; "<folded name> <random id>" for this incarnation of any other.
    var historyKey: String
    let createdAt = Date()
    var topic = ""
    var topicSetBy = ""
    var topicSetAt = Date()
    /// Its flags, key and limit.
    var modes = ChannelModes(flags: [.noOutside, .topicLock])
    /// Bans, ban exceptions and invite exceptions.
    var lists = ChannelLists()
    /// Its place in the network's order of channel changes (with `--node`; see ChannelSync).
    var ordered = ChannelOrder()
    var invited: Set<String> = []
    /// Metadata keys (draft/metadata-2), kept while the channel exists.
    var metadata: [String: String] = [:]
    /// The last lines said here, for plain mode's quotes and `/react N` (Plain/RecentLines).
    var recent = RecentLines()
    /// Member id → status; `order` keeps join order for NAMES.
    var members: [Int: MemberStatus] = [:]
    private(set) var order: [Client] = []
    /// The IRC members on one event loop, each one's tag mask (a snapshot taken under the lock,
    /// read by the loop when it writes) and the distinct masks among them.
    struct LoopMembers {
        let loop: EventLoop
        var clients: [Client]
        var clientMasks: [TagMask]
        var masks: [TagMask]

        /// Takes `client` out (a labeled command's client, which gets the message among its replies).
        mutating func remove(_ client: Client) {
            guard let index = clients.firstIndex(where: { $0 === client }) else { return }
            clients.remove(at: index)
            clientMasks.remove(at: index)
        }
    }

    /// IRC members grouped by event loop, plain-mode members, and every tag any member
    /// wants; rebuilt after a change.
    private var partition: (irc: [LoopMembers], plain: [Client], tagMask: TagMask)?

    /// A member's caps changed: the tag masks of the partition are stale.
    func invalidateMembers() { partition = nil }

    /// Members who are users of other nodes.
    private(set) var remoteCount = 0

    func add(_ client: Client, _ status: MemberStatus) {
        if client.isRemote && members[client.id] == nil { remoteCount += 1 }
        members[client.id] = status
        order.append(client)
        partition = nil
    }

    func remove(_ client: Client) {
        if client.isRemote && members[client.id] != nil { remoteCount -= 1 }
        members[client.id] = nil
        order.removeAll { $0 === client }
        partition = nil
    }

    /// Members for fan-out: one list per event loop, so a message costs one task per loop.
    func membersByLoop(_ state: ChatState) -> (irc: [LoopMembers], plain: [Client], tagMask: TagMask) {
        if let partition { return partition }
        var irc: [ObjectIdentifier: LoopMembers] = [:]
        var plain: [Client] = []
        for member in order where !member.hasNoConnection {
            if state[member].isPlain {
                plain.append(member)
            } else {
                let key = ObjectIdentifier(member.eventLoop)
                let mask = state[member].tagMask
                irc[key, default: LoopMembers(loop: member.eventLoop, clients: [], clientMasks: [], masks: [])]
                    .clients.append(member)
                irc[key]!.clientMasks.append(mask)
                if !irc[key]!.masks.contains(mask) { irc[key]!.masks.append(mask) }
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

    /// RENAME: the channel's new name (the caller moves it in `ChatState.channels`).
    func rename(to name: String) {
        self.name = name
        key = IRCNames.fold(name)
    }

    func isBanned(_ state: ChatState, _ client: Client) -> Bool { lists.bans(state.identity(client)) }
    func isMuted(_ state: ChatState, _ client: Client) -> Bool { lists.mutes(state.identity(client)) }
}

extension RegisteredChannel {
    /// Its flags, key and limit, read and written through `ChannelModes` (the record keeps the
    /// flags as letters, the key and limit in columns of their own).
    var modes: ChannelModes {
        get { ChannelModes(flagLetters: flags, key: channelKey, limit: userLimit) }
        set { (flags, channelKey, userLimit) = (newValue.flagLetters, newValue.key, newValue.limit) }
    }
}

struct MemberStatus {
    var op = false
    var voice = false
    /// Let in only as its account (see `Core.leaveAccountChannels`).
    var byAccount = false
    /// Operator because of its account (a registered channel's owner): given up with the account.
    var opByAccount = false

    /// All prefixes, highest first (multi-prefix) or only the highest.
    func prefixes(all: Bool) -> String {
        if all { return (op ? "@" : "") + (voice ? "+" : "") }
        return op ? "@" : (voice ? "+" : "")
    }
}
