import Foundation
import HearthProtocol

/// `NETSTATE` (operators): what this node holds of the chat — channels with their modes, key,
/// limit, topic, lists and members with prefixes, and every nick — as one digest, so the nodes
/// of a network (and tests) can be compared: equal digests, same state. `NETSTATE #channel`
/// shows that channel's part in full.
extension Core {
    func netstate(_ client: Client, _ message: IRCMessage) {
        withState { state, out in
            let lines = stateLines(state)
            if let name = message.params.first {
                let key = IRCNames.fold(name)
                let line = lines.channels[key] ?? "\(key) (none)"
                notice(state, client, "NETSTATE \(line)", out: &out)
                return
            }
            let text = (lines.channels.sorted { $0.key < $1.key }.map(\.value) + lines.nicks).joined(separator: "\n")
            notice(
                state, client,
                "NETSTATE \(Self.digest(text)) channels=\(lines.channels.count) nicks=\(lines.nicks.count)",
                out: &out)
        }
    }

    /// One canonical line per channel (by key) and the sorted nicks: nothing of when or by
    /// whom, only what users can see now.
    func stateLines(_ state: ChatState) -> (channels: [String: String], nicks: [String]) {
        var channels: [String: String] = [:]
        for (key, channel) in state.channels {
            let modes = channel.modes.serialized(showKey: true).joined(separator: " ")
            let lists = ChannelLists.modes.keys.sorted().flatMap { mode in
                channel.lists[mode].map { "\(mode):\(IRCNames.fold($0.mask))" }.sorted()
            }
            let members = Set(
                channel.order.compactMap { member in
                    channel.members[member.id].map { $0.prefixes(all: true) + state[member].nick }
                }
            ).sorted()
            channels[key] =
                "\(key) modes=\(modes) topic=\(channel.topic) lists=\(lists.joined(separator: ","))"
                + " members=\(members.joined(separator: ","))"
        }
        let nicks = state.nicks.keys.sorted()
        return (channels, nicks)
    }

    /// 64-bit FNV-1a in hex: a fingerprint to compare, not a secret.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
