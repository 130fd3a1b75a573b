import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// Users of other nodes, mirrored from the network's events: they hold nicks, sit in
/// channels and answer WHOIS like local users; what they say arrives ready to deliver.
extension Core {
    /// Connects the node's bus to this core.
    func joinNetwork(_ network: NetworkNode) {
        network.setHandlers(
            NetworkNode.Handlers(
                apply: { [unowned self] in self.applyRemote($0) },
                announce: { [unowned self] in self.announcements(node: network.name) },
                mirrored: { [unowned self] in self.chat.withLock { state in Set(state.remoteUsers.keys) } },
                localUsers: { [unowned self] in self.chat.withLock { state in state.clients.count } },
                refused: { [unowned self] in self.metrics.networkEventRefused(reason: $0) },
                ordered: { [unowned self] in self.orderedChange($0, $1) },
                listening: { [unowned self] in await self.loadChannelStates() },
                localNicks: { [unowned self] in self.localNicks() },
                collided: { [unowned self] in self.renameCollided($0) },
                beforePublishing: { [unowned self] in await self.flushHistoryBeforePublishing() }))
    }

    /// The longest a batch waits for the history queued before it: a write being retried (the
    /// database away) must not hold the bus; lines then keep only the order their writes land in.
    static let historyWaitBeforePublishing: Duration = .seconds(1)

    /// Writes the history queued so far, waiting at most `historyWaitBeforePublishing`. While an
    /// earlier batch's write is still running (the database away, the write retried for seconds),
    /// a batch goes at once: otherwise each would wait the whole second.
    func flushHistoryBeforePublishing() async {
        let first = historyFlushBeforePublishing.withLock { running in
            defer { running = true }
            return !running
        }
        guard first else { return }
        let (written, done) = AsyncStream.makeStream(of: Never.self)
        Task {
            await self.flushHistory()
            self.historyFlushBeforePublishing.withLock { $0 = false }
            done.finish()
        }
        let timer = Task {
            try? await Task.sleep(for: Self.historyWaitBeforePublishing)
            done.finish()
        }
        for await _ in written {}
        timer.cancel()
    }

    /// Applies one event from another node. Events of one node arrive in the order it sent them.
    func applyRemote(_ message: NetworkMessage) {
        if case .command(let who, let line) = message {
            replay(RemoteOrigin(who), line)
            return
        }
        if case .kill(let who, let reason) = message {
            if who.node == network?.name { killedElsewhere(session: who.session, reason: reason) }
            return
        }
        withState { state, out in
            switch message {
            case .hello, .announced, .command, .kill:
                break
            case .effect(let who, let effect):
                if case .channelMessage(let key, let text) = effect {
                    // Its node keeps it in the history; here it is only shown.
                    if let channel = state.channels[key] {
                        out.send(state, channel, botMessage(to: channel.name, text))
                    }
                } else {
                    // The connection a password change keeps is one of the sending node's.
                    var effect = effect
                    if case .logoutEverywhere(let id, _) = effect { effect = .logoutEverywhere(accountID: id) }
                    // From a user there, or from no connection (session 0: a web form there).
                    let user = state.remoteUsers[RemoteOrigin(who)]
                    if user != nil || who.session == 0 { apply(&state, effect, for: user, out: &out) }
                }
            case .user(let who, let profile):
                remoteUser(&state, RemoteOrigin(who), profile, out: &out)
            case .nick(let who, let nick):
                guard let user = state.remoteUsers[RemoteOrigin(who)] else { return }
                renameRemote(&state, user, to: nick, out: &out)
            case .quit(let who, let reason):
                guard let user = state.remoteUsers[RemoteOrigin(who)] else { return }
                removeRemote(&state, user, reason: reason, out: &out)
            case .join(let who, let name, let op, let history):
                guard let user = state.remoteUsers[RemoteOrigin(who)] else { return }
                joinRemote(&state, user, name, op: op, history: history, out: &out)
            case .part(let who, let name, let part):
                // A PART, or a KICK (which may be of a user of this node).
                let here =
                    who.node == network?.name ? state.clients[who.session] ?? standIn(state, session: who.session) : nil
                guard let user = state.remoteUsers[RemoteOrigin(who)] ?? here else { return }
                let key = IRCNames.fold(name)
                guard let channel = state.channels[key], channel.members[user.id] != nil else { return }
                out.send(state, channel, part)
                for member in [user] + state.otherDevices(of: user) {
                    removeMember(&state, member, from: key)
                    state[member].channels.removeAll { $0 == key }
                }
                if user.isStandIn { savePresence(state, user) }
            case .message(let who, let target, let message):
                deliverRemote(&state, message, from: RemoteOrigin(who), to: target, out: &out)
            case .edit(let who, let history, let line):
                showRemoteEdit(&state, line, from: RemoteOrigin(who), history: history, out: &out)
            case .redact(let who, let history, let line):
                showRemoteRedaction(&state, line, from: RemoteOrigin(who), history: history, out: &out)
            case .channel(let snapshot):
                announced(&state, snapshot, out: &out)
            case .channelState(let who, let snapshot):
                guard let channel = state.channels[IRCNames.fold(snapshot.name)] else { return }
                adopt(&state, channel, snapshot, by: state.remoteUsers[RemoteOrigin(who)], out: &out)
            case .nodeGone(let node, let reason):
                for user in state.remoteUsers.values where user.remote?.node == node {
                    removeRemote(&state, user, reason: reason, out: &out)
                }
            }
        }
    }

    /// A message from a user of another node, to a channel or to nick `target` here.
    private func deliverRemote(
        _ state: inout ChatState, _ message: IRCMessage, from origin: RemoteOrigin, to target: String,
        out: inout Outbox
    ) {
        // From a user this node does not know (its node was taken out; it quit here): not
        // delivered. Session 0 is the bot's.
        guard origin.session == 0 || state.remoteUsers[origin] != nil else { return }
        let key = IRCNames.fold(target)
        // Only clients that speak message-tags can make sense of a TAGMSG.
        let tagsOnly = message.command == "TAGMSG"
        if IRCNames.isChannel(target) {
            guard let channel = state.channels[key] else { return }
            if tagsOnly {
                out.send(channel.order.filter { state[$0].caps.contains("message-tags") }, message)
            } else {
                out.send(state, channel, message)
            }
        } else {
            // The recipient's devices here, and the sender's (they see what it sends).
            var here = state.connections(nickKey: key)
            if let sender = state.remoteUsers[origin], !state.deviceGroups.isEmpty {
                here = Self.unique(here + state.otherDevices(of: sender))
            }
            here = here.filter {
                !$0.isRemote && state[$0].registered && (!tagsOnly || state[$0].caps.contains("message-tags"))
            }
            if !here.isEmpty { out.send(here, message) }
        }
    }

    /// Runs a command another node accepted, as that node's user: the handlers trust remote
    /// users' rights (their node checked them), and replies to them go nowhere.
    private func replay(_ origin: RemoteOrigin, _ message: IRCMessage) {
        guard let user = chat.withLock({ state in state.remoteUsers[origin] }) else { return }
        switch message.command {
        case "MODE" where message.params.count >= 2:
            channelMode(user, message.params[0], Array(message.params.dropFirst()))
        case "TOPIC" where message.params.count == 2: topic(user, message)
        case "INVITE" where message.params.count == 2: invite(user, message)
        case "AWAY": away(user, message)
        case "CHGHOST" where message.params.count == 2: chghost(user, message)
        // The ban is in the store already: read the bans again and end who they match here.
        case "UBAN", "KLINE", "DLINE", "UNKLINE", "UNDLINE": Task { try? await loadServerBans() }
        default: break
        }
    }

    /// Tells the other nodes about a command this node accepted from its user.
    func tellNetwork(command: IRCMessage, by client: Client) {
        tellNetwork(client) { .command($0, line: IRCMessage(command: command.command, params: command.params)) }
    }

    /// A user of another node appears (or is announced again).
    private func remoteUser(
        _ state: inout ChatState, _ origin: RemoteOrigin, _ profile: NetworkProfile, out: inout Outbox
    ) {
        if let known = state.remoteUsers[origin] {
            // Announced again after a login or logout: the account it speaks for. Another account (or
            // none) makes it no longer a device of the old one's user; its own node parted it there.
            let before = state[known].account?.id
            state[known].account = profile.account
            if before != profile.account?.id { detachDevice(&state, known, tell: false, out: &out) }
            if state[known].nick != profile.nick {
                renameRemote(&state, known, to: profile.nick, out: &out)
            } else if state.otherDevices(of: known).isEmpty, let holder = Self.nickHolder(state, of: known),
                Self.sameUser(state, holder, known)
            {
                // Logged in under the nick its account's user holds here (told by a node that sent
                // the rename first): one more device of that user.
                addRemoteDevice(&state, known)
            }
            return
        }
        var origin = origin
        origin.server = profile.server
        let user = Client.remote(
            id: state.newClientID(), origin: origin, host: profile.host, place: remotePlace)
        state[user].nick = profile.nick
        state[user].nickKey = IRCNames.fold(profile.nick)
        state[user].user = profile.user
        state[user].realname = profile.realname
        state[user].account = profile.account
        state[user].registered = true
        state.remoteUsers[origin] = user
        notePeakUsers(&state)
        if let holder = Self.nickHolder(state, of: user) {
            if Self.sameUser(state, holder, user) { addRemoteDevice(&state, user) }
        } else {
            // Free, or held by a connection here still registering with it, which has no claim
            // yet: the database gave it to this user (the other one hears 433).
            state.nicks[state[user].nickKey] = user
            announcePresence(&state, user, online: true, out: &out)
        }
    }

    /// Who holds `user`'s nick here with a claim to it: a user of another node, or a registered one here
    /// (a connection still registering with it has none yet).
    private static func nickHolder(_ state: ChatState, of user: Client) -> Client? {
        guard let holder = state.nicks[state[user].nickKey], holder.isRemote || state[holder].registered else {
            return nil
        }
        return holder
    }

    private func renameRemote(_ state: inout ChatState, _ user: Client, to nick: String, out: inout Outbox) {
        let newKey = IRCNames.fold(nick)
        if state.otherDevices(of: user).isEmpty, let holder = state.nicks[newKey], holder !== user,
            state[holder].account != nil,
            state[holder].account?.id == state[user].account?.id
        {
            // Another device of a user here (its node sent the PARTs from its old channels).
            if state.nicks[state[user].nickKey] === user { state.nicks[state[user].nickKey] = nil }
            announcePresence(&state, user, online: false, out: &out)
            (state[user].nick, state[user].nickKey) = (nick, newKey)
            addRemoteDevice(&state, user)
            return
        }
        if !state.otherDevices(of: user).isEmpty {
            // The whole user renames, its devices here too.
            setNick(&state, user, to: nick, out: &out)
            return
        }
        let oldPrefix = state[user].prefix
        let oldNick = state[user].nick
        rememberNick(&state, user)
        if state.nicks[state[user].nickKey] === user { state.nicks[state[user].nickKey] = nil }
        state[user].nick = nick
        state[user].nickKey = IRCNames.fold(nick)
        if state.nicks[state[user].nickKey] == nil { state.nicks[state[user].nickKey] = user }
        out.send(state.peers(of: user), userMessage(state, user, source: oldPrefix, "NICK", [nick]))
        // The old nick may still be another device's (a device that logged out): then it is not offline.
        if state.nicks[IRCNames.fold(oldNick)] == nil {
            announcePresence(&state, user, online: false, nick: oldNick, out: &out)
        }
        announcePresence(&state, user, online: true, out: &out)
    }

    private func removeRemote(_ state: inout ChatState, _ user: Client, reason: String, out: inout Outbox) {
        guard let origin = user.remote, state.remoteUsers[origin] === user else { return }
        state.remoteUsers[origin] = nil
        // A device leaving while others stay: the user is still here.
        if detachDevice(&state, user, tell: false, out: &out) {
            state[user].registered = false
            return
        }
        rememberNick(&state, user)
        out.send(state.peers(of: user), userMessage(state, user, "QUIT", [reason]))
        for key in state[user].channels { removeMember(&state, user, from: key) }
        state[user].channels = []
        state[user].registered = false
        if state.nicks[state[user].nickKey] === user {
            // Another device of the same account elsewhere may still hold it.
            let nickKey = state[user].nickKey
            state.nicks[nickKey] = state.remoteUsers.values.first { state[$0].nickKey == nickKey }
            if state.nicks[state[user].nickKey] == nil { announcePresence(&state, user, online: false, out: &out) }
        }
    }

    private func joinRemote(
        _ state: inout ChatState, _ user: Client, _ name: String, op: Bool, history: String?, out: inout Outbox
    ) {
        let key = IRCNames.fold(name)
        let channel: ChannelState
        if let existing = state.channels[key] {
            channel = existing
        } else {
            // One history for the channel, whichever node its members are on.
            channel = ChannelState(name: name, historyKey: history ?? state.historyKey(forNew: key))
            state.channels[key] = channel
        }
        guard channel.members[user.id] == nil else { return }
        let devices = state.connections(nickKey: state[user].nickKey).filter {
            $0 !== user && Self.sameUser(state, $0, user)
        }
        let seen = devices.contains { channel.members[$0.id] != nil }
        channel.add(user, MemberStatus(op: op, voice: false))
        state[user].channels.append(key)
        if !seen { sendJoin(state, user, channel, out: &out) }
        // A join is the whole user's: its devices on this node follow it in.
        for device in devices where !device.isRemote && channel.members[device.id] == nil {
            channel.add(device, MemberStatus(op: op, voice: false))
            state[device].channels.append(key)
            tellNetwork(joined: device, channel, op: op)
            out.send(device, userMessage(state, device, "JOIN", [channel.name]))
            sendTopic(state, device, channel, out: &out)
            sendNames(&state, device, channel, out: &out)
        }
    }

    /// What this node tells a node that asks (`hello`): its users and where they sit.
    func announcements(node: String) -> [NetworkMessage] {
        chat.withLock { state in
            var messages: [NetworkMessage] = []
            for client in state.localUsers where state[client].registered && !client.isRemote {
                let who = NetworkUser(node: node, session: client.id)
                messages.append(.user(who, networkProfile(state, client)))
                // Away too (a stand-in always is): WHO and WHOIS there say so.
                if let away = state[client].away {
                    messages.append(.command(who, line: IRCMessage(command: "AWAY", params: [away])))
                }
                for key in state[client].channels {
                    guard let channel = state.channels[key] else { continue }
                    let op = channel.members[client.id]?.op ?? false
                    messages.append(.join(who, channel: channel.name, op: op, history: channel.historyKey))
                }
            }
            for channel in state.channels.values where channel.order.contains(where: { !$0.isRemote }) {
                messages.append(.channel(networkSnapshot(state, channel)))
            }
            return messages
        }
    }

    /// Tells the other nodes `client` sits in `channel`. Under the lock.
    func tellNetwork(joined client: Client, _ channel: ChannelState, op: Bool) {
        tellNetwork(client) { .join($0, channel: channel.name, op: op, history: channel.historyKey) }
        if op { tellNetwork(joinedAsOperator: client, channel) }
    }

    /// A channel emptied on every node (each node's view empties): the network forgets it, so
    /// the next joiner makes it anew. Under the lock.
    func forgetNetworkChannel(_ channel: ChannelState) {
        guard let network, channel.historyKey != channel.key else { return }
        let (key, history) = (channel.key, channel.historyKey)
        Task {
            try? await network.store.releaseChannel(key, historyKey: history)
            try? await (network.store as? any NetworkChannelStore)?.releaseChannelState(key, historyKey: history)
        }
    }

    /// Who `client` is, for the other nodes.
    func networkProfile(_ state: ChatState, _ client: Client) -> NetworkProfile {
        NetworkProfile(
            nick: state[client].nick, user: state[client].user, host: state[client].host, server: serverName,
            realname: state[client].realname, account: state[client].account)
    }

    /// Tells the other nodes who `client` is (new, or its account changed).
    func tellNetwork(_ state: ChatState, user client: Client) {
        tellNetwork(client) { .user($0, networkProfile(state, client)) }
    }

    /// Tells the other nodes, when this one is in a network. Under the lock or not. Only a
    /// PART or KICK may be about a user of another node (an operator here kicked them).
    func tellNetwork(_ client: Client, _ message: (NetworkUser) -> NetworkMessage) {
        guard let network else { return }
        let who = client.remote.map(NetworkUser.init) ?? NetworkUser(node: network.name, session: client.id)
        let message = message(who)
        let isPart = if case .part = message { true } else { false }
        guard isPart || !client.isRemote else { return }
        network.publish(message)
    }

    /// Frees a connection's network-wide claim on a nick (in the background: nobody waits).
    func releaseNetworkNick(_ key: String, session: Int) {
        guard let network, !key.isEmpty else { return }
        network.inOrder { await network.nicks.release(key, session: session) }
    }

    /// A plain-mode guest's random nick, claimed network-wide in the background (the names
    /// are random enough that two nodes picking the same one at once is not worth a wait).
    func claimGuestNick(_ state: ChatState, _ client: Client) {
        guard let network else { return }
        tellNetwork(state, user: client)
        let claim = NetworkNick(nickKey: state[client].nickKey, node: network.name, session: client.id, accountID: nil)
        network.inOrder { _ = try? await network.store.claimNick(claim) }
    }

    /// A local user's new nick: the other nodes are told (unless `tell` is false: they rename
    /// the whole user, devices included), the claim moves (the NICK command claimed it already;
    /// a login's rename to the account's nick claims it here).
    func renamedInNetwork(_ state: ChatState, _ client: Client, from oldKey: String, tell: Bool = true) {
        guard let network, !client.isRemote else { return }
        if tell { tellNetwork(client) { .nick($0, nick: state[client].nick) } }
        let claim = NetworkNick(
            nickKey: state[client].nickKey, node: network.name, session: client.id,
            accountID: state[client].account?.id)
        let session = client.id
        network.inOrder {
            _ = try? await network.store.claimNick(claim)
            if oldKey != claim.nickKey { await network.nicks.release(oldKey, session: session) }
        }
    }

    /// The bot's notice to an account's connections on other nodes (an upload arrived, a new
    /// cookie is ready): one message per nick, which its node delivers to every device with it.
    func notifyElsewhere(_ state: inout ChatState, accountID: Int64, text: String) {
        guard let network else { return }
        var told: Set<String> = []
        for user in state.remoteUsers.values
        where state[user].account?.id == accountID && told.insert(state[user].nickKey).inserted {
            let notice = IRCMessage(source: botPrefix, command: "NOTICE", params: [state[user].nick, text])
            let who = NetworkUser(node: network.name, session: 0)
            network.publish(.message(who, target: state[user].nick, line: notice))
        }
    }

    /// Effects of a bot answer that change what every node knows (see `NetworkMessage.effect`).
    /// `client` is nil for a web form's: it comes from this node itself (session 0).
    func tellNetwork(_ state: ChatState, effect: SessionEffect, by client: Client?) {
        guard let network else { return }
        switch effect {
        case .login, .logout:
            guard let client else { return }  // the web's login is its cookie
            tellNetwork(state, user: client)  // the account it now speaks for
            // Its claim on the nick too, so the account's other devices may share it.
            let claim = NetworkNick(
                nickKey: state[client].nickKey, node: network.name, session: client.id,
                accountID: state[client].account?.id)
            network.inOrder { _ = try? await network.store.claimNick(claim) }
        case .notify, .remind, .push:
            return  // told to the account's users already, or kept for this connection (a push: sent from here)
        default:
            guard let client else {
                return network.publish(.effect(NetworkUser(node: network.name, session: 0), effect))
            }
            tellNetwork(client) { .effect($0, effect) }
        }
    }

    /// The bot's answer in a channel, for members on other nodes (its node keeps the history).
    func forwardBotLine(_ line: String, to channel: String) {
        guard let network else { return }
        let message = botMessage(to: channel, line)
        network.publish(.message(NetworkUser(node: network.name, session: 0), target: channel, line: message))
    }
}

extension ChannelLists {
    /// Every entry, for a node that rebuilds the channel from announcements.
    var announced: [NetworkChannel.ListEntry] {
        Self.modes.keys.sorted().flatMap { mode in
            self[mode].map {
                NetworkChannel.ListEntry(
                    mode: String(mode), mask: $0.mask, setBy: $0.setBy, at: $0.at.timeIntervalSince1970)
            }
        }
    }

    /// The lists another node announced, each at most `IRCLimits.bansPerChannel` long, as MODE
    /// would take them. A mask from another node is never an operator's here (`Entry.byOper`).
    init(announced: [NetworkChannel.ListEntry]) {
        self.init()
        for item in announced {
            guard let mode = item.mode.first, item.mode.count == 1, Self.modes[mode] != nil,
                self[mode].count < IRCLimits.bansPerChannel
            else { continue }
            let entry = Entry(mask: item.mask, setBy: item.setBy, at: Date(timeIntervalSince1970: item.at))
            _ = add(mode, entry)
        }
    }
}

extension ChannelState {
    /// A channel as its members' node announced it: its topic and modes replace what is known
    /// here (no key or limit announced is none: a stale one goes), and its lists if it sent them.
    func take(_ snapshot: NetworkChannel) {
        topic = snapshot.topic
        topicSetBy = snapshot.topicSetBy
        modes = snapshot.modes
        // Without them a restarted node let anyone banned elsewhere in.
        if let lists = snapshot.lists { self.lists = ChannelLists(announced: lists) }
    }
}
