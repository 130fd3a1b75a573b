import Foundation
import HearthProtocol
import HearthStore

/// Channel state in one order across nodes (issue 37): a local change is applied at once and
/// queued (`NetworkNode.publish(change:)`); the database numbers it among every node's changes
/// of the channel; every node, this one included, then sets the channel to the numbered state
/// with its own unnumbered changes on top, and shows its members what that changed.
extension Core {
    /// A member's name in the network's prefix maps: "NODE SESSION".
    func networkMemberID(_ client: Client) -> String {
        if let remote = client.remote { return "\(remote.node) \(remote.session)" }
        return "\(network?.name ?? "") \(client.id)"
    }

    /// The channel as the network keeps it, with every member's prefixes. Under the lock.
    func networkSnapshot(_ state: ChatState, _ channel: ChannelState) -> NetworkChannel { networkSnapshot(channel) }

    private func networkSnapshot(_ channel: ChannelState) -> NetworkChannel {
        var prefixes: [String: String] = [:]
        for member in channel.order {
            guard let status = channel.members[member.id] else { continue }
            prefixes[networkMemberID(member)] = (status.op ? "o" : "") + (status.voice ? "v" : "")
        }
        return NetworkChannel(
            name: channel.name, topic: channel.topic, topicSetBy: channel.topicSetBy, modes: channel.modes,
            lists: channel.lists.announced, topicSetAt: channel.topicSetAt.timeIntervalSince1970,
            prefixes: prefixes, version: channel.ordered.version == 0 ? nil : channel.ordered.version)
    }

    /// The channel before a local change, when this node is in a network (nil otherwise).
    func beforeChange(_ state: ChatState, _ channel: ChannelState) -> NetworkChannel? {
        network == nil ? nil : networkSnapshot(state, channel)
    }

    /// A local user changed the channel (MODE, TOPIC): the change goes to the database to be
    /// numbered, then to every node. Under the lock.
    func tellNetwork(_ state: ChatState, changed channel: ChannelState, from before: NetworkChannel?, by client: Client)
    {
        guard let network, let before, !client.isRemote else { return }
        let after = networkSnapshot(state, channel)
        let delta = ChannelDelta(from: before, to: after)
        guard !delta.isEmpty else { return }
        channel.ordered.pending.append(delta)
        network.publish(
            change: ChannelChange(
                who: NetworkUser(node: network.name, session: client.id), channelKey: channel.key,
                historyKey: channel.historyKey, name: channel.name, delta: delta, base: after,
                members: Set(channel.order.map(networkMemberID))))
    }

    /// A member of this node left `channel` (PART, KICK, QUIT) with `@` or `+`: its prefixes
    /// leave the ordered state in order, before its next JOIN can be seen, else the next change
    /// anywhere gave them back to the member rejoining. Under the lock, after the removal.
    func tellNetwork(left client: Client, _ channel: ChannelState, had status: MemberStatus) {
        guard status.op || status.voice else { return }
        tellNetwork(prefix: "", of: client, in: channel)
    }

    /// A member of this node got `@` on JOIN (it made the channel, or owns it): the ordered
    /// state says so, so a `""` a PART left there does not take it away. Under the lock.
    func tellNetwork(joinedAsOperator client: Client, _ channel: ChannelState) {
        tellNetwork(prefix: "o", of: client, in: channel)
    }

    private func tellNetwork(prefix letters: String, of client: Client, in channel: ChannelState) {
        guard let network, !client.isRemote else { return }
        var delta = ChannelDelta()
        delta.prefixes[networkMemberID(client)] = letters
        channel.ordered.pending.append(delta)
        network.publish(
            change: ChannelChange(
                who: NetworkUser(node: network.name, session: client.id), channelKey: channel.key,
                historyKey: channel.historyKey, name: channel.name, delta: delta, base: networkSnapshot(channel),
                members: Set(channel.order.map(networkMemberID))))
    }

    /// This node's oldest pending change of channel `key` was numbered (`confirmed`: the state
    /// after it; nil when it changed nothing there).
    func orderedChange(_ key: String, _ confirmed: NetworkChannel?) {
        withState { state, out in
            guard let channel = state.channels[key], !channel.ordered.pending.isEmpty else { return }
            channel.ordered.pending.removeFirst()
            // The newest numbered state, set again without the change on top: a later one may
            // have arrived on the bus before this answer (it holds the change, maybe overruled).
            let held = channel.ordered.confirmed
            let newest = [confirmed, held].compactMap { $0 }.max { ($0.version ?? 0) < ($1.version ?? 0) }
            if let newest { adopt(&state, channel, newest, by: nil, again: true, out: &out) }
        }
    }

    /// Sets `channel` to a numbered state (newer than the one it holds; with `again`, the same
    /// one too) with this node's pending changes on top, and shows its members what changed, as
    /// from `by` (a user of another node) or the server. Under the lock.
    func adopt(
        _ state: inout ChatState, _ channel: ChannelState, _ numbered: NetworkChannel, by who: Client?,
        again: Bool = false, out: inout Outbox
    ) {
        guard let version = numbered.version,
            version > channel.ordered.version || (again && version == channel.ordered.version)
        else { return }
        let before = networkSnapshot(state, channel)
        channel.ordered.version = version
        channel.ordered.confirmed = numbered
        let target = channel.ordered.pending.reduce(numbered) { $1.applied(to: $0) }
        let delta = ChannelDelta(from: before, to: target)
        guard !delta.isEmpty else { return }
        set(&state, channel, to: target)
        show(&state, delta, before: before, in: channel, by: who, out: &out)
        persistIfRegistered(&state, channel)
    }

    /// Writes a numbered state into the channel: modes, topic, lists (an operator's own mask
    /// keeps matching real addresses), and the prefixes of the members it names.
    private func set(_ state: inout ChatState, _ channel: ChannelState, to target: NetworkChannel) {
        channel.modes = target.modes
        channel.topic = target.topic
        channel.topicSetBy = target.topicSetBy
        if let at = target.topicSetAt { channel.topicSetAt = Date(timeIntervalSince1970: at) }
        let old = channel.lists
        var lists = ChannelLists(announced: target.lists ?? [])
        for (mode, _) in ChannelLists.modes {
            for entry in old[mode] where entry.byOper {
                let folded = IRCNames.fold(entry.mask)
                if lists[mode].contains(where: { IRCNames.fold($0.mask) == folded }) { _ = lists.add(mode, entry) }
            }
        }
        channel.lists = lists
        let prefixes = target.prefixes ?? [:]
        for member in channel.order {
            guard let letters = prefixes[networkMemberID(member)], var status = channel.members[member.id] else {
                continue
            }
            let op = letters.contains("o")
            if !op { status.opByAccount = false }
            (status.op, status.voice) = (op, letters.contains("v"))
            channel.members[member.id] = status
        }
    }

    /// MODE and TOPIC lines for what `delta` changed, from `who` (or the server).
    private func show(
        _ state: inout ChatState, _ delta: ChannelDelta, before: NetworkChannel, in channel: ChannelState,
        by who: Client?, out: inout Outbox
    ) {
        var names: [String: String] = [:]
        for member in channel.order { names[networkMemberID(member)] = state[member].nick }
        let changes = delta.modeChanges(nick: { names[$0] }, had: { before.prefixes?[$0] ?? "" })
        var start = 0
        while start < changes.count {
            let end = min(start + IRCLimits.modesPerCommand, changes.count)
            let params = [channel.name] + ModeChange.serialize(changes[start..<end])
            out.send(state, channel, changeLine(state, who, "MODE", params))
            start = end
        }
        if delta.topic != nil {
            out.send(state, channel, changeLine(state, who, "TOPIC", [channel.name, channel.topic]))
        }
    }

    private func changeLine(_ state: ChatState, _ who: Client?, _ command: String, _ params: [String]) -> IRCMessage {
        if let who { return userMessage(state, who, command, params) }
        return IRCMessage(source: serverName, command: command, params: params)
    }
}

/// A local change of a channel on its way to the database (`NetworkNode.publish(change:)`).
struct ChannelChange: Sendable {
    var who: NetworkUser
    var channelKey: String
    var historyKey: String
    var name: String
    var delta: ChannelDelta
    /// The channel after the change, as this node had it: the state when none is stored.
    var base: NetworkChannel
    /// The members this node knew: prefixes of members gone are dropped from the state.
    var members: Set<String>

    /// The state after this change, from the stored one (nil: nothing changes).
    func next(stored: String?) -> String? {
        guard let stored, let old = NetworkChannel(stored: stored, name: name, version: nil) else {
            return base.stored()
        }
        var new = delta.applied(to: old)
        new.prefixes = new.prefixes?.filter { members.contains($0.key) || delta.prefixes[$0.key] != nil }
        let text = new.stored()
        return text == stored ? nil : text
    }
}

extension Core {
    /// A channel as a node announced it (answering a `hello`): a numbered state newer than the
    /// one here is adopted; an unnumbered one (a channel no change was numbered for, or from a
    /// node that predates the order) only where no member is local and nothing is numbered.
    func announced(_ state: inout ChatState, _ snapshot: NetworkChannel, out: inout Outbox) {
        guard let channel = state.channels[IRCNames.fold(snapshot.name)] else { return }
        if snapshot.version != nil {
            // The same state again too: each node announces its members' joins before the
            // channel, so the prefixes of members that joined since the first are set now.
            adopt(&state, channel, snapshot, by: nil, again: true, out: &out)
        } else if channel.ordered.version == 0, channel.order.allSatisfy(\.isRemote) {
            channel.take(snapshot)
        }
    }
}

extension Core {
    /// Reads the numbered state of every channel this node knows from the database (after it
    /// joined or regained the bus: what it missed meanwhile is there, whoever announces).
    func loadChannelStates() async {
        guard let store = network?.store as? any NetworkChannelStore else { return }
        let keys = chat.withLock { state in Array(state.channels.keys) }
        guard !keys.isEmpty, let stored = try? await store.channelStates(keys) else { return }
        withState { state, out in
            for row in stored {
                guard let channel = state.channels[row.channelKey], channel.historyKey == row.historyKey,
                    let numbered = NetworkChannel(stored: row.state, name: channel.name, version: row.version)
                else { continue }
                adopt(&state, channel, numbered, by: nil, again: true, out: &out)
            }
        }
    }
}
