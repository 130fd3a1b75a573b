import HearthProtocol

/// Several devices of one account sharing one nick (say irssi on a laptop and nc on a
/// phone). Each device is its own connection and its own channel member, but the rest of
/// the network sees one user: joins, parts and kicks apply to every device, private
/// messages reach them all, and what one device sends the others see too. The nick's entry
/// in `nicks` is one of them (the holder); when it quits, another takes over unseen.
extension Core {
    /// Most connections that may share one nick.
    static let maxDevicesPerUser = 8

    /// Makes `client` another device of the user `holder`: it takes the nick and is put in
    /// the holder's channels; nobody else sees anything. Channels it was in under another
    /// nick are left first.
    func attachDevice(_ state: inout ChatState, _ client: Client, to holder: Client, out: inout Outbox) {
        for key in state[client].channels {
            if let channel = state.channels[key] {
                let part = userMessage(state, client, "PART", [channel.name, "Now \(state[holder].nick)"])
                out.send(state, channel, part)
                tellNetwork(client) { .part($0, channel: channel.name, line: part) }
            }
            removeMember(&state, client, from: key)
        }
        state[client].channels = []
        let oldPrefix = state[client].prefix
        let oldNick = state[client].nick
        if !state[client].nickKey.isEmpty, state.nicks[state[client].nickKey] === client {
            state.nicks[state[client].nickKey] = nil
        }
        state[client].nick = state[holder].nick
        state[client].nickKey = state[holder].nickKey
        state.deviceGroups[state[holder].nickKey] = state.connections(nickKey: state[holder].nickKey) + [client]
        if state[client].registered && oldNick != state[holder].nick && oldNick != "*" {
            out.send(client, IRCMessage(source: oldPrefix, command: "NICK", params: [state[holder].nick]))
            announcePresence(&state, client, online: false, nick: oldNick, out: &out)
            renamedInNetwork(state, client, from: IRCNames.fold(oldNick))
        }
        let count = state.connections(nickKey: state[holder].nickKey).count
        // An always-on account's stand-in is no device: the one coming back takes its place.
        if !holder.isStandIn {
            notice(
                state,
                client,
                "You are \(state[holder].nick) on \(count) connections now: each sees your messages and "
                    + "everything sent to \(state[holder].nick).",
                out: &out)
        }
        for key in state[holder].channels {
            guard let channel = state.channels[key], let status = channel.members[holder.id] else { continue }
            channel.add(client, status)
            state[client].channels.append(key)
            // The holder may be on another node: every node learns this device sits here too.
            tellNetwork(joined: client, channel, op: status.op)
            out.send(client, userMessage(state, client, "JOIN", [channel.name]))
            sendTopic(state, client, channel, out: &out)
            sendImplicitNames(&state, client, channel, out: &out)
        }
        if state[client].isPlain { state[client].currentChannel = state[client].channels.last }
        if holder.isStandIn { dismissStandIn(&state, holder, for: client, out: &out) }
    }

    /// Whether `a` and `b` are devices of one logged-in user.
    static func sameUser(_ state: ChatState, _ a: Client, _ b: Client) -> Bool {
        a !== b && state[a].account != nil && state[a].account?.id == state[b].account?.id
            && state[a].nickKey == state[b].nickKey
    }

    /// A user of another node that is another device of a user already here: it joins the
    /// group unseen.
    func addRemoteDevice(_ state: inout ChatState, _ user: Client) {
        state.deviceGroups[state[user].nickKey] =
            state.connections(nickKey: state[user].nickKey).filter { $0 !== user } + [user]
    }

    /// Takes `client` out of its device group, if it is in one: it leaves the user's
    /// channels (only it sees the PARTs, when `tell`), and the nick passes to another
    /// device if it held it.
    @discardableResult
    func detachDevice(_ state: inout ChatState, _ client: Client, tell: Bool, out: inout Outbox) -> Bool {
        guard var group = state.deviceGroups[state[client].nickKey], group.contains(where: { $0 === client }) else {
            return false
        }
        group.removeAll { $0 === client }
        state.deviceGroups[state[client].nickKey] = group.count > 1 ? group : nil
        if state.nicks[state[client].nickKey] === client { state.nicks[state[client].nickKey] = group[0] }
        for key in state[client].channels {
            if tell, let channel = state.channels[key] {
                out.send(client, userMessage(state, client, "PART", [channel.name]))
            }
            removeMember(&state, client, from: key)
        }
        state[client].channels = []
        return true
    }

    /// `clients` without repeats, in order.
    static func unique(_ clients: [Client]) -> [Client] {
        var seen: Set<Int> = []
        return clients.filter { seen.insert($0.id).inserted }
    }
}

extension ChatState {
    /// Every connection using the nick `key`, the holder first.
    func connections(nickKey key: String) -> [Client] {
        if let group = deviceGroups[key] { return group }
        return nicks[key].map { [$0] } ?? []
    }

    /// The other connections sharing `client`'s nick.
    func otherDevices(of client: Client) -> [Client] {
        guard let group = deviceGroups[self[client].nickKey], group.contains(where: { $0 === client }) else {
            return []
        }
        return group.filter { $0 !== client }
    }

    /// Whether `client` may become another device of `holder`.
    func canShareNick(_ client: Client, with holder: Client) -> Bool {
        guard holder !== client, let account = self[client].account, self[holder].account?.id == account.id,
            self[holder].registered
        else { return false }
        return connections(nickKey: self[holder].nickKey).count < Core.maxDevicesPerUser
    }

    /// Who gets a private message: every device of the recipient, and the sender's other
    /// devices (not the sender itself). Without shared nicks anywhere — the common case —
    /// that is just the recipient.
    func privateReceivers(from client: Client, to recipient: Client) -> [Client] {
        if deviceGroups.isEmpty { return recipient === client ? [] : [recipient] }
        return Core.unique(connections(nickKey: self[recipient].nickKey) + otherDevices(of: client)).filter {
            $0 !== client
        }
    }

    /// `privateReceivers` without an array in the usual case (no device shares a nick).
    func privateRecipients(from client: Client, to recipient: Client) -> Outbox.Recipients {
        if deviceGroups.isEmpty && recipient !== client { return .one(recipient) }
        return .some(privateReceivers(from: client, to: recipient))
    }

    /// Members counted as users: devices sharing a nick count once.
    func userCount(_ channel: ChannelState) -> Int {
        if deviceGroups.isEmpty { return channel.members.count }
        return Set(channel.order.map { self[$0].nickKey }).count
    }

    /// A channel's members with each shared nick once (NAMES, WHO).
    func distinctMembers(_ channel: ChannelState) -> [Client] {
        if deviceGroups.isEmpty { return channel.order }
        var seen: Set<String> = []
        return channel.order.filter { seen.insert(self[$0].nickKey).inserted }
    }
}
