import Foundation
import HearthProtocol

/// MODE for channels (+b +i +k +l +m +n +o +s +t +v) and users (+i, +o shown).
extension Core {
    func mode(_ client: Client, _ message: IRCMessage) {
        let target = message.params[0]
        if IRCNames.isChannel(target) {
            channelMode(client, target, Array(message.params.dropFirst()))
        } else {
            userMode(client, target, message.params.dropFirst().first)
        }
    }

    func userMode(_ client: Client, _ target: String, _ change: String?) {
        withState { state, out in
            // Killed meanwhile (from another loop): nothing of it is changed any more.
            guard state.clients[client.id] != nil else { return }
            guard IRCNames.fold(target) == state[client].nickKey else {
                if state.nicks[IRCNames.fold(target)] == nil {
                    out.send(client, numeric(state, client, .noSuchNick, target, "No such nick/channel"))
                } else {
                    out.send(client, numeric(state, client, .usersDontMatch, "Can't change mode for other users"))
                }
                return
            }
            guard let change else {
                out.send(client, numeric(state, client, .umodeIs, state[client].modeString))
                return
            }
            var applied: [(flag: UserModeChange.Flag, on: Bool)] = []
            for item in UserModeChange.parse(change) {
                switch item {
                case .flag(let flag, let on):
                    if state[client].setMode(flag, on) { applied.append((flag, on)) }
                case .unknown(let letter):
                    out.send(client, numeric(state, client, .umodeUnknownFlag, "Unknown MODE flag \(letter)"))
                }
            }
            let text = UserModeChange.serialize(applied)
            if !text.isEmpty {
                out.send(client, userMessage(state, client, "MODE", [state[client].nick, text]))
            }
        }
    }

    func channelMode(_ client: Client, _ name: String, _ args: [String]) {
        withState { state, out in
            // A channel the client may not see (secret, or a family's) does not exist for it.
            guard let channel = state.channels[IRCNames.fold(name)], !state.hidden(channel, from: client) else {
                out.send(client, numeric(state, client, .noSuchChannel, name, "No such channel"))
                return
            }
            let status = channel.members[client.id]
            switch ChannelModeRequest(args) {
            case .show:
                out.send(
                    client,
                    numeric(
                        state,
                        client, .channelModeIs,
                        params: [channel.name] + channel.modes.serialized(showKey: status != nil))
                )
                out.send(
                    client,
                    numeric(
                        state, client, .creationTime, channel.name, String(Int(channel.createdAt.timeIntervalSince1970))
                    ))
            case .list(let mode):
                // A list query (bans, exceptions, invite exceptions) needs no privileges.
                let list = ChannelLists.modes[mode.rawValue]!
                for entry in channel.lists[mode.rawValue] {
                    out.send(
                        client,
                        numeric(
                            state,
                            client, list.item, channel.name, entry.mask, entry.setBy,
                            String(Int(entry.at.timeIntervalSince1970))))
                }
                out.send(client, numeric(state, client, list.end, channel.name, "End of \(list.name)"))
            case .change(let steps):
                let before = beforeChange(state, channel)
                // A user of another node: that node checked the change before it told us.
                let isOp = status?.op == true || state[client].isOper || client.isRemote
                var applied: [ModeChange] = []
                var deniedSent = false
                for step in steps {
                    // Refused already: the parameters a refused change lacks are no news to it.
                    if deniedSent, case .problem(.missingParameter) = step { continue }
                    if !isOp && Self.needsOp(step) {
                        if !deniedSent {
                            out.send(
                                client,
                                numeric(state, client, .chanOPrivsNeeded, channel.name, "You're not channel operator"))
                            deniedSent = true
                        }
                        continue
                    }
                    switch step {
                    case .problem(let problem): reportModeProblem(state, problem, client, channel, out: &out)
                    case .change(let change):
                        if let done = applyMode(&state, change, client, channel, out: &out) { applied.append(done) }
                    }
                }
                if !applied.isEmpty {
                    persistIfRegistered(&state, channel)
                    let change = userMessage(state, client, "MODE", [channel.name] + ModeChange.serialize(applied))
                    out.send(state, channel, change)
                    tellNetwork(state, changed: channel, from: before, by: client)
                }
            }
        }
    }

    /// Whether a step of MODE is refused to a non-operator: all but unknown letters and a
    /// missing nick or mask (answered, or ignored, for anyone).
    private static func needsOp(_ step: ModeChange.Step) -> Bool {
        switch step {
        case .problem(.unknown): false
        case .problem(.missingParameter(let letter, _)): letter == "k" || letter == "l"
        default: true
        }
    }

    private func reportModeProblem(
        _ state: ChatState, _ problem: ModeChange.Problem, _ client: Client, _ channel: ChannelState, out: inout Outbox
    ) {
        switch problem {
        case .unknown(let letter):
            out.send(
                client,
                numeric(
                    state, client, .unknownMode, String(letter), "is an unknown mode char to me for \(channel.name)"))
        case .missingParameter(let letter, _):
            let what: String? =
                switch letter {
                case "k": "a key"
                case "l": "a number"
                case "o", "v": "a nick"
                default: nil  // a list mode without a mask: ignored
                }
            if let what {
                out.send(client, numeric(state, client, .needMoreParams, "MODE", "+\(letter) needs \(what)"))
            }
        case .invalidKey:
            out.send(
                client,
                numeric(
                    state,
                    client, .invalidModeParam, channel.name, "k", "*", "A key must not be empty or contain spaces"))
        case .invalidLimit(let text):
            out.send(
                client,
                numeric(
                    state,
                    client, .invalidModeParam, channel.name, "l", text.isEmpty ? "*" : text,
                    "A limit must be a positive number"))
        case .overLimit:
            break  // past MODES=: ignored, as servers do
        }
    }

    /// Applies one change an operator asked for; the change as applied, or nil if it changed nothing.
    private func applyMode(
        _ state: inout ChatState, _ change: ModeChange, _ client: Client, _ channel: ChannelState,
        out: inout Outbox
    ) -> ModeChange? {
        switch change {
        case .flag(let flag, let on):
            guard on != channel.modes.flags.contains(flag) else { return nil }
            if on { channel.modes.flags.insert(flag) } else { channel.modes.flags.remove(flag) }
            return change
        case .setKey(let key):
            guard channel.modes.key == nil else {
                out.send(client, numeric(state, client, .keySet, channel.name, "Channel key already set"))
                return nil
            }
            channel.modes.key = key
            return change
        case .clearKey:
            guard channel.modes.key != nil else { return nil }
            channel.modes.key = nil
            return change
        case .setLimit(let limit):
            channel.modes.limit = limit
            return change
        case .clearLimit:
            guard channel.modes.limit != nil else { return nil }
            channel.modes.limit = nil
            return change
        case .member(let mode, let nick, let adding):
            guard let target = state.nicks[IRCNames.fold(nick)] else {
                out.send(client, numeric(state, client, .noSuchNick, nick, "No such nick/channel"))
                return nil
            }
            guard var memberStatus = channel.members[target.id] else {
                out.send(
                    client, numeric(state, client, .userNotInChannel, nick, channel.name, "They aren't on that channel")
                )
                return nil
            }
            if mode == .op {
                memberStatus.op = adding
                // Taken away, then given by someone: no longer the account's.
                if !adding { memberStatus.opByAccount = false }
            } else {
                memberStatus.voice = adding
            }
            for device in [target] + state.otherDevices(of: target) { channel.members[device.id] = memberStatus }
            return .member(mode, nick: state[target].nick, adding: adding)
        case .list(let mode, let raw, let adding):
            let letter = mode.rawValue
            let mask = ChannelLists.normalize(raw)
            guard adding else {
                return channel.lists.remove(letter, mask) ? .list(mode, mask: mask, adding: false) : nil
            }
            if channel.lists[letter].count >= IRCLimits.bansPerChannel {
                out.send(
                    client,
                    numeric(
                        state,
                        client, .banListFull, channel.name, String(letter),
                        "C\(ChannelLists.modes[letter]!.name.dropFirst()) is full "
                            + "(the limit is \(IRCLimits.bansPerChannel))"))
                return nil
            }
            // A user of another node is never taken for an operator here: the addresses it
            // sees are its own node's.
            let entry = ChannelLists.Entry(
                mask: mask, setBy: state[client].prefix, at: Date(), byOper: state[client].isOper && !client.isRemote)
            return channel.lists.add(letter, entry) ? .list(mode, mask: mask, adding: true) : nil
        }
    }
}
