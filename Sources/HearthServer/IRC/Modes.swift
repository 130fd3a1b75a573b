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
            guard IRCNames.fold(target) == client.nickKey else {
                if state.nicks[IRCNames.fold(target)] == nil {
                    out.send(client, numeric(client, .noSuchNick, target, "No such nick/channel"))
                } else {
                    out.send(client, numeric(client, .usersDontMatch, "Can't change mode for other users"))
                }
                return
            }
            guard let change else {
                out.send(client, numeric(client, .umodeIs, userModes(client)))
                return
            }
            var adding = true
            var applied = ""
            var lastSign: Character = " "
            func record(_ mode: Character) {
                let sign: Character = adding ? "+" : "-"
                if sign != lastSign {
                    applied.append(sign)
                    lastSign = sign
                }
                applied.append(mode)
            }
            for ch in change {
                switch ch {
                case "+": adding = true
                case "-": adding = false
                case "i":
                    if client.invisible != adding {
                        client.invisible = adding
                        record("i")
                    }
                case "w":
                    if client.wallops != adding {
                        client.wallops = adding
                        record("w")
                    }
                case "B":
                    if client.isBot != adding {
                        client.isBot = adding
                        record("B")
                    }
                case "o":
                    // Operator status is gained with OPER only; it can be dropped here.
                    if !adding && client.isOper {
                        client.isOper = false
                        record("o")
                    }
                default:
                    out.send(client, numeric(client, .umodeUnknownFlag, "Unknown MODE flag \(ch)"))
                }
            }
            if !applied.isEmpty {
                out.send(client, userMessage(client, "MODE", [client.nick, applied]))
            }
        }
    }

    func userModes(_ client: Client) -> String {
        "+" + (client.isBot ? "B" : "") + (client.invisible ? "i" : "") + (client.isOper ? "o" : "")
            + (client.wallops ? "w" : "")
    }

    func channelMode(_ client: Client, _ name: String, _ args: [String]) {
        withState { state, out in
            // A channel the client may not see (secret, or a family's) does not exist for it.
            guard let channel = state.channels[IRCNames.fold(name)], !state.hidden(channel, from: client) else {
                out.send(client, numeric(client, .noSuchChannel, name, "No such channel"))
                return
            }
            let status = channel.members[client.id]
            guard let modeText = args.first else {
                out.send(
                    client,
                    numeric(client, .channelModeIs, params: [channel.name] + channel.modeString(showKey: status != nil))
                )
                out.send(
                    client,
                    numeric(client, .creationTime, channel.name, String(Int(channel.createdAt.timeIntervalSince1970))))
                return
            }
            var params = args.dropFirst()[...]
            // A bare list query (bans, exceptions, invite exceptions) needs no privileges.
            let asked = modeText.trimmingCharacters(in: CharacterSet(charactersIn: "+"))
            if asked.count == 1, let list = ChannelLists.modes[asked.first!], params.isEmpty {
                for entry in channel.lists[asked.first!] {
                    out.send(
                        client,
                        numeric(
                            client, list.item, channel.name, entry.mask, entry.setBy,
                            String(Int(entry.at.timeIntervalSince1970))))
                }
                out.send(client, numeric(client, list.end, channel.name, "End of \(list.name)"))
                return
            }
            // A user of another node: that node checked the change before it told us.
            let isOp = status?.op == true || client.isOper || client.isRemote
            var adding = true
            var appliedModes = ""
            var appliedParams: [String] = []
            var lastSign: Character = " "
            var paramChanges = 0
            var deniedSent = false
            func record(_ mode: Character, _ param: String? = nil) {
                let sign: Character = adding ? "+" : "-"
                if sign != lastSign {
                    appliedModes.append(sign)
                    lastSign = sign
                }
                appliedModes.append(mode)
                if let param { appliedParams.append(param) }
            }
            func denied() -> Bool {
                if isOp { return false }
                if !deniedSent {
                    out.send(client, numeric(client, .chanOPrivsNeeded, channel.name, "You're not channel operator"))
                    deniedSent = true
                }
                return true
            }
            for ch in modeText {
                switch ch {
                case "+": adding = true
                case "-": adding = false
                case "i", "m", "n", "s", "t":
                    if denied() { continue }
                    if adding != channel.flags.contains(ch) {
                        if adding { channel.flags.insert(ch) } else { channel.flags.remove(ch) }
                        record(ch)
                    }
                case "k":
                    if denied() { continue }
                    if adding {
                        guard let key = params.popFirst() else {
                            out.send(client, numeric(client, .needMoreParams, "MODE", "+k needs a key"))
                            continue
                        }
                        guard !key.isEmpty, !key.contains(" ") else {
                            out.send(
                                client,
                                numeric(
                                    client, .invalidModeParam, channel.name, "k", "*",
                                    "A key must not be empty or contain spaces"))
                            continue
                        }
                        if channel.channelKey != nil {
                            out.send(client, numeric(client, .keySet, channel.name, "Channel key already set"))
                            continue
                        }
                        channel.channelKey = String(key.prefix(IRCLimits.keyLength))
                        record("k", channel.channelKey)
                    } else {
                        _ = params.popFirst()
                        if channel.channelKey != nil {
                            channel.channelKey = nil
                            record("k", "*")
                        }
                    }
                case "l":
                    if denied() { continue }
                    if adding {
                        guard let text = params.popFirst() else {
                            out.send(client, numeric(client, .needMoreParams, "MODE", "+l needs a number"))
                            continue
                        }
                        guard let limit = Int(text), limit > 0 else {
                            out.send(
                                client,
                                numeric(
                                    client, .invalidModeParam, channel.name, "l", text.isEmpty ? "*" : text,
                                    "A limit must be a positive number"))
                            continue
                        }
                        channel.limit = limit
                        record("l", String(limit))
                    } else if channel.limit != nil {
                        channel.limit = nil
                        record("l")
                    }
                case "o", "v":
                    guard let nick = params.popFirst() else {
                        out.send(client, numeric(client, .needMoreParams, "MODE", "+\(ch) needs a nick"))
                        continue
                    }
                    if denied() { continue }
                    paramChanges += 1
                    if paramChanges > IRCLimits.modesPerCommand { continue }
                    guard let target = state.nicks[IRCNames.fold(nick)] else {
                        out.send(client, numeric(client, .noSuchNick, nick, "No such nick/channel"))
                        continue
                    }
                    guard var memberStatus = channel.members[target.id] else {
                        out.send(
                            client,
                            numeric(client, .userNotInChannel, nick, channel.name, "They aren't on that channel"))
                        continue
                    }
                    if ch == "o" {
                        memberStatus.op = adding
                        // Taken away, then given by someone: no longer the account's.
                        if !adding { memberStatus.opByAccount = false }
                    } else {
                        memberStatus.voice = adding
                    }
                    for device in [target] + state.otherDevices(of: target) {
                        channel.members[device.id] = memberStatus
                    }
                    record(ch, target.nick)
                case "b", "e", "I":
                    guard let raw = params.popFirst() else { continue }
                    if denied() { continue }
                    paramChanges += 1
                    if paramChanges > IRCLimits.modesPerCommand { continue }
                    let mask = ChannelLists.normalize(raw)
                    if adding {
                        if channel.lists[ch].count >= IRCLimits.bansPerChannel {
                            out.send(
                                client,
                                numeric(
                                    client, .banListFull, channel.name, String(ch),
                                    "C\(ChannelLists.modes[ch]!.name.dropFirst()) is full "
                                        + "(the limit is \(IRCLimits.bansPerChannel))"))
                            continue
                        }
                        // A user of another node is never taken for an operator here: the
                        // addresses it sees are its own node's.
                        let entry = ChannelLists.Entry(
                            mask: mask, setBy: client.prefix, at: Date(), byOper: client.isOper && !client.isRemote)
                        if channel.lists.add(ch, entry) {
                            record(ch, mask)
                        }
                    } else if channel.lists.remove(ch, mask) {
                        record(ch, mask)
                    }
                default:
                    out.send(
                        client,
                        numeric(client, .unknownMode, String(ch), "is an unknown mode char to me for \(channel.name)"))
                }
            }
            if !appliedModes.isEmpty {
                persistIfRegistered(&state, channel)
                let change = userMessage(client, "MODE", [channel.name, appliedModes] + appliedParams)
                out.send(channel, change)
                tellNetwork(command: change, by: client)
            }
        }
    }
}
