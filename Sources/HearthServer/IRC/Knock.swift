import Foundation
import HearthProtocol
import Synchronization

/// KNOCK <channel> [:<message>]: asks the operators of an invite-only (+i) channel for an
/// invitation. They get 710 (with the knocker's address and message), the knocker 711. One
/// knock per user and channel per `knockInterval`; the operators of this node are told.
extension Core {
    static let knockInterval: TimeInterval = 60

    func knock(_ client: Client, _ message: IRCMessage) {
        let name = message.params[0]
        let text = message.params.dropFirst().first.map { IRCMessage.truncate($0, toBytes: IRCLimits.kickLength) }
        withState { state, out in
            guard let channel = state.channels[IRCNames.fold(name)], !state.hidden(channel, from: client) else {
                out.send(client, numeric(state, client, .noSuchChannel, name, "No such channel"))
                return
            }
            if channel.members[client.id] != nil {
                let why = "You are already on that channel"
                out.send(client, numeric(state, client, .knockOnChannel, channel.name, why))
                return
            }
            guard channel.modes.flags.contains(.inviteOnly) else {
                out.send(client, numeric(state, client, .channelOpen, channel.name, "Channel is open, just join it"))
                return
            }
            // Someone banned there cannot join when invited either, so they do not bother its operators.
            if channel.isBanned(state, client) {
                out.send(client, numeric(state, client, .bannedFromChan, channel.name, "Cannot knock (+b)"))
                return
            }
            guard Self.knocks.allow(client, channel.key, now: Date()) else {
                let why = "Too many KNOCKs (one per channel every \(Int(Self.knockInterval)) seconds)"
                out.send(client, numeric(state, client, .tooManyKnocks, channel.name, why))
                return
            }
            let ops = channel.order.filter { !$0.isRemote && channel.members[$0.id]?.op == true }
            for op in ops {
                let asked = text.map { "has asked for an invite: \($0)" } ?? "has asked for an invite"
                out.send(op, numeric(state, op, .knock, channel.name, state[client].prefix, asked))
            }
            out.send(client, numeric(state, client, .knockDelivered, channel.name, "Your KNOCK has been delivered"))
        }
    }

    /// When each user last knocked on each channel (entries older than the interval are dropped).
    static let knocks = KnockTimes()
}

final class KnockTimes: Sendable {
    private let last = Mutex<[Key: Date]>([:])

    struct Key: Hashable {
        var client: Int  // Client.id: never reused while the server runs (an ObjectIdentifier can be)
        var channel: String
    }

    /// Whether `client` may knock on `channel` now; if so, the knock is counted.
    func allow(_ client: Client, _ channel: String, now: Date) -> Bool {
        last.withLock { last in
            last = last.filter { now.timeIntervalSince($0.value) < Core.knockInterval }
            let key = Key(client: client.id, channel: channel)
            guard last[key] == nil else { return false }
            last[key] = now
            return true
        }
    }
}
