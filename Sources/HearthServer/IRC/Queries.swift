import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol

/// WHO, WHOIS, LIST, ISON, USERHOST, AWAY, OPER, KILL, SETNAME.
extension Core {
    func setname(_ client: Client, _ message: IRCMessage) {
        let name = message.params[0]
        guard name.utf8.count <= IRCLimits.realnameLength else {
            withState { _, out in
                out.send(
                    client,
                    IRCMessage(
                        source: serverName, command: "FAIL",
                        params: [
                            "SETNAME", "INVALID_REALNAME",
                            "Realname is too long (the limit is \(IRCLimits.realnameLength) bytes)",
                        ]))
            }
            return
        }
        withState { state, out in
            state[client].realname = name
            sendToPeers(
                &state, of: client, withCap: "setname", includeSelf: true,
                userMessage(state, client, "SETNAME", [name]),
                out: &out)
        }
    }

    func who(_ client: Client, _ message: IRCMessage) {
        let mask = message.params.first ?? "*"
        // WHOX (`WHO mask %fields[,token]`): the fields asked for, in WHOX's fixed order.
        let whox = message.params.count > 1 && message.params[1].hasPrefix("%") ? WhoxFields(message.params[1]) : nil
        withState { state, out in
            func row(_ member: Client, _ channelName: String, _ status: MemberStatus?) {
                var flags = state[member].away == nil ? "H" : "G"
                if state[member].isOper { flags += "*" }
                if state[member].isBot { flags += "B" }
                flags += status?.prefixes(all: state[client].caps.contains("multi-prefix")) ?? ""
                let server = member.remote?.server ?? serverName
                guard let whox else {
                    out.send(
                        client,
                        numeric(
                            state,
                            client, .whoReply, channelName, state[member].user, state[member].host, server,
                            state[member].nick, flags,
                            "0 \(state[member].realname)"))
                    return
                }
                let idle = String(max(0, Int(Date().timeIntervalSince(state[member].lastMessageAt))))
                // An address is shown only to its owner and to operators (as WHOIS would).
                let showsAddress = seesAddress(state, of: member, viewer: client)
                let values: [Character: String] = [
                    "c": channelName, "u": state[member].user, "i": showsAddress ? member.address : "255.255.255.255",
                    "h": state[member].host, "s": server, "n": state[member].nick, "f": flags,
                    "d": member.isRemote ? "1" : "0",
                    "l": idle, "a": state[member].account?.name ?? "0", "o": "n/a", "r": state[member].realname,
                ]
                out.send(client, numeric(state, client, .whoxReply, params: whox.reply(values)))
            }
            if IRCNames.isChannel(mask) {
                if let channel = state.channels[IRCNames.fold(mask)],
                    !state.hidden(channel, from: client)
                {
                    for member in state.distinctMembers(channel) {
                        row(member, channel.name, channel.members[member.id])
                    }
                }
            } else if let target = state.nicks[IRCNames.fold(mask)] {
                row(target, "*", nil)
            } else {
                let shared = Set(state.peers(of: client).map(\.id))
                // Users of other nodes of a network too.
                for other in Array(state.clients.values) + Array(state.remoteUsers.values)
                where state[other].registered && IRCNames.globMatch(mask, state[other].nick) {
                    if state[other].invisible && !shared.contains(other.id) && other !== client && !state[client].isOper
                    {
                        continue
                    }
                    row(other, "*", nil)
                }
            }
            out.send(client, numeric(state, client, .endOfWho, mask, "End of /WHO list."))
        }
    }

    func whois(_ client: Client, _ message: IRCMessage) {
        guard let nick = message.params.last, !nick.isEmpty else {
            reply(client, .noNicknameGiven, "No nickname given")
            return
        }
        let key = IRCNames.fold(nick)
        withState { state, out in
            if key == Bot.nick {
                out.send(
                    client,
                    numeric(
                        state,
                        client, .whoisUser, Bot.nick, Bot.nick, serverName, "*", "Hearth bot — /msg \(Bot.nick) help"))
                out.send(client, numeric(state, client, .whoisServer, Bot.nick, serverName, config.description))
                out.send(client, numeric(state, client, .endOfWhois, Bot.nick, "End of /WHOIS list."))
                return
            }
            guard let target = state.nicks[key], state[target].registered else {
                out.send(client, numeric(state, client, .noSuchNick, nick, "No such nick/channel"))
                out.send(client, numeric(state, client, .endOfWhois, nick, "End of /WHOIS list."))
                return
            }
            out.send(
                client,
                numeric(
                    state, client, .whoisUser, state[target].nick, state[target].user, state[target].host, "*",
                    state[target].realname))
            if state[target].host != target.address && seesAddress(state, of: target, viewer: client) {
                out.send(
                    client,
                    numeric(
                        state,
                        client, .whoisActually, state[target].nick, "\(state[target].user)@\(target.address)",
                        target.address,
                        "Actual user@host, Actual IP"))
            }
            let visible = state[target].channels.compactMap { key -> String? in
                guard let channel = state.channels[key] else { return nil }
                if state.hidden(channel, from: client) && target !== client { return nil }
                return (channel.members[target.id]?.prefixes(all: false) ?? "") + channel.name
            }
            if !visible.isEmpty {
                out.send(
                    client, numeric(state, client, .whoisChannels, state[target].nick, visible.joined(separator: " ")))
            }
            out.send(
                client,
                numeric(
                    state, client, .whoisServer, state[target].nick, target.remote?.server ?? serverName,
                    config.description))
            if state[target].isOper {
                out.send(client, numeric(state, client, .whoisOperator, state[target].nick, "is an IRC operator"))
            }
            if state[target].isBot {
                out.send(
                    client, numeric(state, client, .whoisBot, state[target].nick, "is a bot on \(config.networkName)"))
            }
            if let away = state[target].away {
                out.send(client, numeric(state, client, .away, state[target].nick, away))
            }
            if let account = state[target].account {
                out.send(
                    client, numeric(state, client, .whoisAccount, state[target].nick, account.name, "is logged in as"))
            }
            let idle = Int(Date().timeIntervalSince(state[target].lastMessageAt))
            out.send(
                client,
                numeric(
                    state,
                    client, .whoisIdle, state[target].nick, String(idle),
                    String(Int(target.connectedAt.timeIntervalSince1970)), "seconds idle, signon time"))
            whoisMetadata(state, client, target, out: &out)
            out.send(client, numeric(state, client, .endOfWhois, state[target].nick, "End of /WHOIS list."))
        }
    }

    func list(_ client: Client, _ message: IRCMessage) {
        let filters = ListFilters(message.params.first)
        let now = Date()
        withState { state, out in
            if filters.tooManyMasks {
                let why = "At most \(ListFilters.maxMasks) masks in one LIST"
                let params = ["LIST", "TOO_MANY_MASKS", why]
                out.send(client, IRCMessage(source: serverName, command: "FAIL", params: params))
                return
            }
            out.send(client, numeric(state, client, .listStart, "Channel", "Users  Name"))
            for channel in state.channels.values.sorted(by: { $0.key < $1.key }) {
                if state.hidden(channel, from: client) { continue }
                let topicSet = channel.topic.isEmpty ? nil : channel.topicSetAt
                let count = state.userCount(channel)
                let created = channel.createdAt
                guard filters.admits(name: channel.name, users: count, created: created, topicSet: topicSet, now: now)
                else { continue }
                out.send(
                    client, numeric(state, client, .list, channel.name, String(count), channel.topic)
                )
            }
            out.send(client, numeric(state, client, .listEnd, "End of /LIST"))
        }
    }

    func ison(_ client: Client, _ message: IRCMessage) {
        let wanted = message.params.flatMap { $0.split(separator: " ").map(String.init) }
        withState { state, out in
            let online = wanted.compactMap { nick -> String? in
                if IRCNames.fold(nick) == Bot.nick { return Bot.nick }
                return state.nicks[IRCNames.fold(nick)].flatMap { state[$0].registered ? state[$0].nick : nil }
            }
            out.send(client, numeric(state, client, .ison, online.joined(separator: " ")))
        }
    }

    func userhost(_ client: Client, _ message: IRCMessage) {
        withState { state, out in
            let entries = message.params.prefix(IRCLimits.userhostTargets).compactMap { nick -> String? in
                guard let target = state.nicks[IRCNames.fold(nick)], state[target].registered else { return nil }
                return state[target].nick + (state[target].isOper ? "*" : "") + "="
                    + (state[target].away == nil ? "+" : "-") + state[target].user
                    + "@" + state[target].host
            }
            out.send(client, numeric(state, client, .userhost, entries.joined(separator: " ")))
        }
    }

    func away(_ client: Client, _ message: IRCMessage) {
        let text = message.params.first.flatMap {
            $0.isEmpty ? nil : IRCMessage.truncate($0, toBytes: IRCLimits.awayLength)
        }
        if !chat.withLock({ $0[client].registered }) { return awayBeforeRegistration(client, text) }
        tellNetwork(command: IRCMessage(command: "AWAY", params: text.map { [$0] } ?? []), by: client)
        withState { state, out in
            state[client].away = text
            sendToPeers(
                &state, of: client, withCap: "away-notify", userMessage(state, client, "AWAY", text.map { [$0] } ?? []),
                out: &out)
            sendAwayAnswer(state, client, out: &out)
        }
    }

    func oper(_ client: Client, _ message: IRCMessage) {
        let name = message.params[0]
        let password = message.params[1]
        guard let expected = config.operators[name] else {
            reply(client, .noOperHost, "No O-lines for your host")
            return
        }
        let passwords = self.passwords
        let throttle = bot.services.throttle
        let address = client.address
        later(
            client,
            { () -> Result<Bool, LoginThrottle.Refusal> in
                let attempt: LoginThrottle.Attempt
                do throws(LoginThrottle.Refusal) {
                    attempt = try await throttle.start(operator: name, address: address)
                } catch {
                    return .failure(error)
                }
                let ok: Bool
                if expected.hasPrefix("$argon2") {
                    ok = (try? await passwords.verify(password, hash: expected)) ?? false
                } else {
                    ok = Sodium.constantTimeEqual(expected, password)
                }
                throttle.finish(attempt, success: ok)
                return .success(ok)
            }
        ) { outcome in
            guard case .success(let ok) = outcome else {
                if case .failure(let refusal) = outcome {
                    self.reply(
                        client, .passwdMismatch, "Too many failed OPER attempts; try again in \(refusal.seconds)s")
                }
                return
            }
            guard ok else {
                self.reply(client, .passwdMismatch, "Password incorrect")
                return
            }
            self.withState { state, out in
                // Killed since the password was checked: it is gone, not an operator.
                guard state.clients[client.id] != nil else { return }
                state[client].isOper = true
                out.send(client, self.numeric(state, client, .youreOper, "You are now an IRC operator"))
                out.send(client, self.userMessage(state, client, "MODE", [state[client].nick, "+o"]))
            }
        }
    }

    func kill(_ client: Client, _ message: IRCMessage) {
        let nick = message.params[0]
        let reason = message.params.count > 1 ? message.params[1] : "no reason"
        // Every device of the user goes.
        let targets = chat.withLock { state in state.connections(nickKey: IRCNames.fold(nick)) }
        guard !targets.isEmpty else {
            reply(client, .noSuchNick, nick, "No such nick/channel")
            return
        }
        let text = chat.withLock { state in "Killed (\(state[client].nick) (\(reason)))" }
        for target in targets {
            if let origin = target.remote {
                // Its own node ends the session; its QUIT comes back from there, once.
                network?.publish(.kill(NetworkUser(origin), reason: text))
            } else {
                end(target, killed: text)
            }
        }
    }

    /// Ends a connection of this node that an operator killed (here or on another node).
    func end(_ target: Client, killed text: String) {
        withState { _, out in
            out.send(target, IRCMessage(command: "ERROR", params: ["Closing Link: \(target.address) (\(text))"]))
        }
        remove(target, reason: text)
        target.batcher.close(target)
    }
}

/// The fields a WHOX request asks for (`%tcuihsnfdlaor,token`), answered in that fixed order.
struct WhoxFields {
    static let order: [Character] = Array("tcuihsnfdlaor")
    let fields: Set<Character>
    let token: String

    init(_ spec: String) {
        let parts = spec.dropFirst().split(separator: ",", maxSplits: 1)
        fields = Set(parts.first ?? "")
        // The token is at most 3 digits; anything else is not echoed.
        let token = parts.count > 1 ? String(parts[1].prefix(3)) : ""
        self.token = token.isEmpty || !token.allSatisfy(\.isNumber) ? "0" : token
    }

    func reply(_ values: [Character: String]) -> [String] {
        Self.order.filter(fields.contains).map { $0 == "t" ? token : (values[$0] ?? "*") }
    }
}
