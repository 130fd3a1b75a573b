import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// JOIN, PART, TOPIC, NAMES, KICK, INVITE.
extension Core {
    /// The channel called `name` and the client's status in it; otherwise sends 403 or 442
    /// and returns nil.
    func memberChannel(_ state: inout ChatState, _ client: Client, _ name: String, out: inout Outbox) -> (
        ChannelState, MemberStatus
    )? {
        guard let channel = state.channels[IRCNames.fold(name)] else {
            out.send(client, numeric(state, client, .noSuchChannel, name, "No such channel"))
            return nil
        }
        guard let status = channel.members[client.id] else {
            out.send(client, numeric(state, client, .notOnChannel, channel.name, "You're not on that channel"))
            return nil
        }
        return (channel, status)
    }

    func join(_ client: Client, _ message: IRCMessage) {
        let first = message.params[0]
        if first == "0" {
            withState { state, out in
                for key in state[client].channels {
                    guard let channel = state.channels[key] else { continue }
                    leave(
                        &state, client, channel,
                        userMessage(state, client, "PART", [channel.name, "Left all channels"]),
                        out: &out)
                }
            }
            return
        }
        let names = first.split(separator: ",").map(String.init)
        let keys = (message.params.dropFirst().first ?? "").split(separator: ",", omittingEmptySubsequences: false).map(
            String.init)
        @Sendable func joinAll(_ claims: [String: ChannelClaim], _ markers: [String: Date]?) {
            var joined: [JoinedChannel] = []
            for (index, name) in names.enumerated() {
                let key = index < keys.count ? keys[index] : nil
                let claim = claims[IRCNames.fold(name)]
                if let one = enter(client, name: name, key: key, claim: claim, readMarkers: markers) {
                    joined.append(one)
                }
            }
            afterJoining(client, joined, readMarkers: markers)
        }
        // An account's read markers come from the store: fetched first, they go before 366.
        let account = chat.withLock { state in
            state[client].caps.contains(Self.readMarkerCap) ? state[client].account : nil
        }
        // In a network, a channel nobody is in may be being made on another node this moment.
        let fresh = network == nil ? nil : unknownChannels(names)
        guard account != nil || fresh != nil else {
            joinAll([:], nil)
            return
        }
        let (network, store) = (self.network, self.store)
        later(
            client,
            { () -> ([String: ChannelClaim], [String: Date]?) in
                var claims: [String: ChannelClaim] = [:]
                if let network, let fresh { claims = await network.claimChannels(fresh) }
                guard let account else { return (claims, nil) }
                var markers: [String: Date] = [:]
                for key in names.map(IRCNames.fold) {
                    markers[key] = try? await store.readMarker(accountID: account.id, target: key)
                }
                return (claims, markers)
            }, then: joinAll)
    }

    /// The history keys a new incarnation of each channel nobody is in would get, or nil when
    /// every channel is known (or is registered or guarded, whose keys are their names).
    func unknownChannels(_ names: [String]) -> [String: String]? {
        let fresh = chat.withLock { state in
            names.filter(IRCNames.isValidChannel).map(IRCNames.fold).filter {
                state.channels[$0] == nil && state.registered[$0] == nil && state.guarded[$0] == nil
            }.reduce(into: [String: String]()) { $0[$1] = state.historyKey(forNew: $1) }
        }
        return fresh.isEmpty ? nil : fresh
    }

    func joinOne(_ client: Client, name: String, key: String?) {
        guard let joined = enter(client, name: name, key: key) else { return }
        afterJoining(client, [joined], readMarkers: nil)
    }

    /// What follows the joins of one line, for the channels entered: their backlogs, then
    /// (joined without the markers fetched: an app's or an autojoin) their read markers.
    private func afterJoining(_ client: Client, _ joined: [JoinedChannel], readMarkers: [String: Date]?) {
        sendBacklog(client, joined)
        if readMarkers == nil { for channel in joined { sendReadMarker(client, channelName: channel.name) } }
    }

    /// Puts `client` in the channel `name` if it may, with the JOIN, topic and names sent; the
    /// channel entered, for what follows (nil: refused, or in it already).
    /// `claim`: the network's word on a channel nobody was in (see `NetworkStore.claimChannel`).
    /// `readMarkers`: the account's markers for the channels joined, fetched beforehand (nil: not fetched).
    private func enter(
        _ client: Client, name: String, key: String?, claim: ChannelClaim? = nil, readMarkers: [String: Date]? = nil
    ) -> JoinedChannel? {
        guard checkChannelName(client, name) else { return nil }
        let folded = IRCNames.fold(name)
        let joined = withState { state, out -> (String, String)? in
            guard state.clients[client.id] != nil else { return nil }
            if let channel = state.channels[folded], channel.members[client.id] != nil {
                if state[client].isPlain {
                    state[client].currentChannel = folded
                    notice(state, client, "You are now talking in \(channel.name).", out: &out)
                }
                return nil
            }
            if let refusal = state.guardRefusal(client, folded, reservation: bot.reservation(for: folded)) {
                out.send(client, numeric(state, client, .inviteOnlyChan, name, "Cannot join channel — \(refusal)"))
                return nil
            }
            if state[client].channels.count >= IRCLimits.channelsPerUser {
                let why = "You have joined too many channels (the limit is \(IRCLimits.channelsPerUser))"
                out.send(client, numeric(state, client, .tooManyChannels, name, why))
                return nil
            }
            let existing = state.channels[folded]
            let channel = existing ?? newChannel(&state, name: name, folded: folded, claim: claim)
            let status: MemberStatus
            switch state.joinStatus(client, channel, isNew: existing == nil, key: key, claim: claim) {
            case .refused(let code, let why):
                out.send(client, numeric(state, client, code, channel.name, "Cannot join channel \(why)"))
                return nil
            case .admitted(let granted): status = granted
            }
            channel.invited.remove(state[client].nickKey)
            if existing == nil { state.channels[folded] = channel }
            let devices = addMember(&state, client, to: channel, status)
            sendJoin(state, client, channel, out: &out)
            tellNetwork(joined: client, channel, op: status.op)
            welcome([client] + devices, to: channel, readMarkers: readMarkers, &state, out: &out)
            metadataAfterJoin(&state, client, channel, out: &out)
            return (channel.name, channel.historyKey)
        }
        return joined.map { JoinedChannel(key: folded, historyKey: $0.1, name: $0.0) }
    }

    /// Whether `name` may be a channel's; if not, tells `client` why.
    private func checkChannelName(_ client: Client, _ name: String) -> Bool {
        if IRCNames.isChannel(name), let problem = NameSafety.problem(in: name) {
            reply(client, .badChannelName, name, "Illegal channel name: \(problem)")
            return false
        }
        guard IRCNames.isValidChannel(name) else {
            reply(
                client, .badChanMask, name,
                "Bad channel name: it must start with # and have no spaces or commas"
                    + " (at most \(IRCLimits.channelLength) bytes)"
            )
            return false
        }
        return true
    }

    /// A channel made by its first joiner (not yet in the state); a registered one comes back
    /// as it was left.
    func newChannel(_ state: inout ChatState, name: String, folded: String, claim: ChannelClaim?)
        -> ChannelState
    {
        let channel = ChannelState(name: name, historyKey: claim?.historyKey ?? state.historyKey(forNew: folded))
        if let guest = state.guarded[folded] {
            channel.modes.flags = [.inviteOnly, .noOutside, .secret, .topicLock]
            channel.topic = guest.topic
        }
        if let record = state.registered[folded] {
            channel.name = record.name
            channel.topic = record.topic
            channel.topicSetBy = shownSource(record.topicSetBy)
            channel.topicSetAt = record.topicSetAt ?? Date()
            channel.modes = record.modes
            restoreLists(state, channel)
        }
        return channel
    }

    /// Puts `client` and its other devices (returned) in `channel`; they all see the JOIN.
    private func addMember(
        _ state: inout ChatState, _ client: Client, to channel: ChannelState, _ status: MemberStatus
    ) -> [Client] {
        let folded = channel.key
        channel.add(client, status)
        state[client].channels.append(folded)
        grantHistory(state, client, channel)
        if state[client].isPlain { state[client].currentChannel = folded }
        let devices = state.otherDevices(of: client)
        for device in devices {
            channel.add(device, status)
            state[device].channels.append(folded)
            if state[device].isPlain && state[device].currentChannel == nil { state[device].currentChannel = folded }
        }
        return devices
    }

    /// The topic, read marker and names each joiner (the first is the one who joined) sees.
    private func welcome(
        _ joiners: [Client], to channel: ChannelState, readMarkers: [String: Date]?, _ state: inout ChatState,
        out: inout Outbox
    ) {
        guard let client = joiners.first else { return }
        for joiner in joiners {
            sendTopic(state, joiner, channel, out: &out)
            // draft/read-marker: the marker comes after the JOIN and before the end of NAMES.
            if joiner === client && state[client].caps.contains(Self.readMarkerCap)
                && (state[client].account == nil || readMarkers != nil)
            {
                let marker = readMarkers?[channel.key] ?? state[client].readMarkers[channel.key]
                sendReadMarker(client, channel.name, marker, out: &out)
            }
            sendImplicitNames(&state, joiner, channel, out: &out)
        }
    }

    func sendTopic(_ state: ChatState, _ client: Client, _ channel: ChannelState, out: inout Outbox) {
        guard !channel.topic.isEmpty else { return }
        out.send(client, numeric(state, client, .topic, channel.name, channel.topic))
        out.send(
            client,
            numeric(
                state,
                // A topic an app set (a family's) is the bot's: its full mask, as clients show a
                // setter as nick!user@host (a bare server name reads as `hearth.local []` in irssi).
                client, .topicWhoTime, channel.name, channel.topicSetBy.isEmpty ? botPrefix : channel.topicSetBy,
                String(Int(channel.topicSetAt.timeIntervalSince1970))))
    }

    /// The JOIN to the channel's members; extended-join adds the joiner's account and real name
    /// for clients that asked.
    func sendJoin(_ state: ChatState, _ client: Client, _ channel: ChannelState, out: inout Outbox) {
        let join = userMessage(state, client, "JOIN", [channel.name])
        var extended = join
        extended.params += [state[client].account?.name ?? "*", state[client].realname]
        let wantsExtended = channel.order.filter { state[$0].caps.contains("extended-join") }
        if wantsExtended.isEmpty {
            out.send(state, channel, join)
        } else {
            out.send(channel.order.filter { !state[$0].caps.contains("extended-join") }, join)
            out.send(wantsExtended, extended)
        }
        // away-notify: members learn at once that the newcomer is away.
        if let away = state[client].away {
            let told = channel.order.filter { $0 !== client && state[$0].caps.contains("away-notify") }
            if !told.isEmpty { out.send(told, userMessage(state, client, "AWAY", [away])) }
        }
    }

    /// Takes the user of `client` — all its devices — out of `channel` after telling the
    /// members (but `except`) `message` (a PART or KICK).
    func leave(
        _ state: inout ChatState, _ client: Client, _ channel: ChannelState, _ message: IRCMessage,
        except: Client? = nil, out: inout Outbox
    ) {
        out.send(state, channel, except: except, message)
        if message.command == "PART" || message.command == "KICK" {
            tellNetwork(client) { .part($0, channel: channel.name, line: message) }
        }
        let key = channel.key
        for device in [client] + state.otherDevices(of: client) {
            removeMember(&state, device, from: key)
            state[device].channels.removeAll { $0 == key }
            if state[device].isPlain && state[device].currentChannel == key {
                state[device].currentChannel = state[device].channels.last
            }
        }
        // A stand-in KICKed: a restart must not bring it back in.
        if client.isStandIn { savePresence(state, client) }
    }

    /// `end`: false when NAMES asked for several channels (one 366 closes them all).
    func sendNames(
        _ state: inout ChatState, _ client: Client, _ channel: ChannelState, end: Bool = true, out: inout Outbox
    ) {
        let symbol = channel.modes.flags.contains(.secret) ? "@" : "="
        let allPrefixes = state[client].caps.contains("multi-prefix")
        let fullMask = state[client].caps.contains("userhost-in-names")
        var line: [String] = []
        var length = 0
        // Keep each 353 well inside 512 bytes.
        let budget = 400 - channel.name.utf8.count - state[client].nick.utf8.count
        for member in state.distinctMembers(channel) {
            let entry =
                (channel.members[member.id]?.prefixes(all: allPrefixes) ?? "")
                + (fullMask ? state[member].prefix : state[member].nick)
            if length + entry.utf8.count + 1 > budget && !line.isEmpty {
                out.send(client, numeric(state, client, .namReply, symbol, channel.name, line.joined(separator: " ")))
                line = []
                length = 0
            }
            line.append(entry)
            length += entry.utf8.count + 1
        }
        if !line.isEmpty {
            out.send(client, numeric(state, client, .namReply, symbol, channel.name, line.joined(separator: " ")))
        }
        if end { out.send(client, numeric(state, client, .endOfNames, channel.name, "End of /NAMES list.")) }
    }

    func names(_ client: Client, _ message: IRCMessage) {
        let targets = (message.params.first ?? "").split(separator: ",").prefix(IRCLimits.targetsPerMessage)
        guard !targets.isEmpty else {
            reply(client, .endOfNames, "*", "End of /NAMES list.")
            return
        }
        withState { state, out in
            let several = targets.count > 1
            for target in targets.map(String.init) {
                guard let channel = state.channels[IRCNames.fold(target)], !state.hidden(channel, from: client) else {
                    if !several { out.send(client, numeric(state, client, .endOfNames, target, "End of /NAMES list.")) }
                    continue
                }
                sendNames(&state, client, channel, end: !several, out: &out)
            }
            if several {
                out.send(
                    client, numeric(state, client, .endOfNames, targets.joined(separator: ","), "End of /NAMES list."))
            }
        }
    }

    func part(_ client: Client, _ message: IRCMessage) {
        let first = message.params[0]
        let reason = message.params.count > 1 ? message.params[1] : nil
        withState { state, out in
            for name in first.split(separator: ",").map(String.init) {
                guard let (channel, _) = memberChannel(&state, client, name, out: &out) else { continue }
                let params = reason.map { [channel.name, $0] } ?? [channel.name]
                leave(&state, client, channel, userMessage(state, client, "PART", params), out: &out)
            }
        }
    }

    func topic(_ client: Client, _ message: IRCMessage) {
        let name = message.params[0]
        withState { state, out in
            guard let channel = state.channels[IRCNames.fold(name)] else {
                out.send(client, numeric(state, client, .noSuchChannel, name, "No such channel"))
                return
            }
            let status = channel.members[client.id]
            if message.params.count < 2 {
                if state.hidden(channel, from: client) {
                    out.send(client, numeric(state, client, .notOnChannel, channel.name, "You're not on that channel"))
                } else if channel.topic.isEmpty {
                    out.send(client, numeric(state, client, .noTopic, channel.name, "No topic is set"))
                } else {
                    sendTopic(state, client, channel, out: &out)
                }
                return
            }
            guard let status else {
                out.send(client, numeric(state, client, .notOnChannel, channel.name, "You're not on that channel"))
                return
            }
            if channel.modes.flags.contains(.topicLock) && !status.op && !state[client].isOper && !client.isRemote {
                out.send(
                    client,
                    numeric(
                        state,
                        client, .chanOPrivsNeeded, channel.name,
                        "You're not channel operator (the topic is locked with +t)"))
                return
            }
            let before = beforeChange(state, channel)
            channel.topic = IRCMessage.truncate(message.params[1], toBytes: IRCLimits.topicLength)
            channel.topicSetBy = state[client].prefix
            let msgid = MessageStamp.msgid()
            let now = MessageStamp.now()
            channel.topicSetAt = now
            let change = userMessage(state, client, "TOPIC", [channel.name, channel.topic], msgid: msgid, at: now)
            out.send(state, channel, change)
            // Kept as an event (CHATHISTORY replays it to clients with draft/event-playback), by
            // the node its setter is on.
            if !client.isRemote {
                recordHistory(
                    HistoryRecord(
                        target: channel.historyKey, msgid: msgid, source: state[client].prefix,
                        accountID: state[client].account?.id, command: "TOPIC", text: channel.topic, createdAt: now))
            }
            tellNetwork(state, changed: channel, from: before, by: client)
            persistIfRegistered(&state, channel)
        }
    }

    func kick(_ client: Client, _ message: IRCMessage) {
        let reason = IRCMessage.truncate(
            message.params.count > 2 ? message.params[2] : chat.withLock { state in state[client].nick },
            toBytes: IRCLimits.kickLength)
        let names = message.params[0].split(separator: ",").map(String.init)
        let targets = message.params[1].split(separator: ",").map(String.init)
        if targets.count > IRCLimits.targetsPerMessage {
            reply(
                client, .tooManyTargets, message.params[1],
                "Too many targets (the limit is \(IRCLimits.targetsPerMessage))")
            return
        }
        // One channel and several users, or as many channels as users, paired (RFC 2812).
        guard !names.isEmpty, !targets.isEmpty, names.count == 1 || names.count == targets.count else {
            reply(client, .needMoreParams, "KICK", "Give one channel, or one channel per user")
            return
        }
        withState { state, out in
            for (index, nick) in targets.enumerated() {
                let name = names.count == 1 ? names[0] : names[index]
                guard let (channel, status) = memberChannel(&state, client, name, out: &out) else { continue }
                guard status.op || state[client].isOper else {
                    out.send(
                        client, numeric(state, client, .chanOPrivsNeeded, channel.name, "You're not channel operator"))
                    continue
                }
                guard let target = state.nicks[IRCNames.fold(nick)], channel.members[target.id] != nil else {
                    out.send(
                        client,
                        numeric(state, client, .userNotInChannel, nick, channel.name, "They aren't on that channel"))
                    continue
                }
                leave(
                    &state, target, channel,
                    userMessage(state, client, "KICK", [channel.name, state[target].nick, reason]), out: &out
                )
            }
        }
    }

    func invite(_ client: Client, _ message: IRCMessage) {
        let nick = message.params[0]
        let name = message.params[1]
        withState { state, out in
            guard let target = state.nicks[IRCNames.fold(nick)] else {
                out.send(client, numeric(state, client, .noSuchNick, nick, "No such nick/channel"))
                return
            }
            guard let (channel, status) = memberChannel(&state, client, name, out: &out) else { return }
            if channel.members[target.id] != nil {
                out.send(
                    client,
                    numeric(state, client, .userOnChannel, state[target].nick, channel.name, "is already on channel"))
                return
            }
            if channel.modes.flags.contains(.inviteOnly) && !status.op && !state[client].isOper && !client.isRemote {
                out.send(client, numeric(state, client, .chanOPrivsNeeded, channel.name, "You're not channel operator"))
                return
            }
            channel.invited.insert(state[target].nickKey)
            tellNetwork(command: IRCMessage(command: "INVITE", params: [state[target].nick, channel.name]), by: client)
            out.send(client, numeric(state, client, .inviting, state[target].nick, channel.name))
            let inviteMessage = userMessage(state, client, "INVITE", [state[target].nick, channel.name])
            out.send(state.connections(nickKey: state[target].nickKey), inviteMessage)
            // invite-notify: other members who asked see who was invited.
            let notified = channel.order.filter {
                $0 !== client && $0 !== target && state[$0].caps.contains("invite-notify")
            }
            if !notified.isEmpty { out.send(notified, inviteMessage) }
            if let away = state[target].away {
                out.send(client, numeric(state, client, .away, state[target].nick, away))
            }
        }
    }
}

/// What `ChatState.joinStatus` decides: kept out by the channel's modes, or in with a status.
enum JoinDecision {
    case refused(Numeric, String)
    case admitted(MemberStatus)
}

extension ChatState {
    /// Why `client` may not join the channel `folded` when it is guarded (a family's) or a name
    /// an app keeps (`reservation`): only a guarded channel's members get in, whatever the
    /// modes, operators included. Nil when it may try.
    func guardRefusal(_ client: Client, _ folded: String, reservation: ReservedChannels?) -> String? {
        guard reservation != nil || guarded[folded] != nil else { return nil }
        if let account = self[client].account?.id, guarded[folded]?.members.contains(account) == true { return nil }
        return reservation?.refusal ?? "it is private to its members"
    }

    /// Whether `client` gets into `channel` (`isNew`: made by this join, not yet in the state)
    /// past its modes, and as what.
    func joinStatus(
        _ client: Client, _ channel: ChannelState, isNew: Bool, key: String?, claim: ChannelClaim?
    ) -> JoinDecision {
        let folded = channel.key
        let owner = registered[folded]?.ownerId
        // A fresh unregistered channel has no rules yet; otherwise they apply to all but
        // operators and the channel's owner.
        let ruled = !(isNew && owner == nil) && !self[client].isOper
        let isOwner = owner.map { $0 == self[client].account?.id } ?? false
        // A guarded channel's members pass its modes (which keep everyone else out).
        let isGuarded = guarded[folded] != nil
        if ruled && !isOwner && !isGuarded,
            let (code, why) = modeRefusal(client, channel, key: key, as: identity(client))
        {
            return .refused(code, why)
        }
        // Let in as its account (a guarded channel's member, the owner, an account mask):
        // it leaves when the connection stops being that account.
        var asGuest = identity(client)
        asGuest.account = nil
        let byAccount =
            isGuarded
            || (ruled && self[client].account != nil && modeRefusal(client, channel, key: key, as: asGuest) != nil)
        // Registered channels give ops to their owner only. In a network, the database's word
        // decides who made the channel first (another node's joiner may have made it here
        // meanwhile); otherwise the first joiner.
        // Its access list may give an account op or voice too.
        let access = accessLevel(client, in: folded)
        let op = owner.map { $0 == self[client].account?.id || access == .op } ?? (claim.map(\.created) ?? isNew)
        return .admitted(
            MemberStatus(op: op, voice: access == .voice, byAccount: byAccount, opByAccount: op && owner != nil))
    }
}

extension ChatState {
    /// Whether `client` may not see `channel` in NAMES, WHO, WHOIS or LIST: a secret (+s)
    /// channel it is not in (operators see those), or a guarded channel it is not in (nobody does).
    func hidden(_ channel: ChannelState, from client: Client) -> Bool {
        guard channel.members[client.id] == nil else { return false }
        if guarded[channel.key] != nil { return true }
        return channel.modes.flags.contains(.secret) && !self[client].isOper
    }

    /// What in a channel's modes keeps `client`, matched as `identity`, out (a ban, +i, +k, +l;
    /// an invitation passes all but +k), as the numeric and its reason; nil when nothing does.
    func modeRefusal(
        _ client: Client, _ channel: ChannelState, key: String?, as identity: ChannelLists.Identity
    ) -> (Numeric, String)? {
        let invited = channel.invited.contains(self[client].nickKey)
        if channel.lists.bans(identity) && !invited { return (.bannedFromChan, "(+b) — you are banned") }
        if channel.modes.flags.contains(.inviteOnly) && !invited && !channel.lists.invites(identity) {
            return (.inviteOnlyChan, "(+i) — you need an invitation")
        }
        if let channelKey = channel.modes.key, channelKey != key {
            return (.badChannelKey, "(+k) — wrong or missing key")
        }
        if let limit = channel.modes.limit, userCount(channel) >= limit, !invited {
            return (.channelIsFull, "(+l) — it is full")
        }
        if let refusal = accountJoinRefusal(client, channel, invited: invited) { return refusal }
        return nil
    }
}

/// A channel just joined: its folded name, the history incarnation, and its name as shown.
struct JoinedChannel: Sendable {
    let key: String
    let historyKey: String
    let name: String
}
