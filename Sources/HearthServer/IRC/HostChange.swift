import HearthAccounts
import HearthKit
import HearthProtocol

/// CHGHOST: an operator gives a user another displayed host (say `gran.family`) in place of the
/// cloak, until that connection ends. Peers with the IRCv3 `chghost` capability see
/// `:nick!user@old CHGHOST user new`; the others see the user quit and join again with its
/// channel status, the fallback the spec describes. Only the shown host changes: limits, bans
/// set by operators and Closing Link keep the real address.
extension Core {
    /// What a displayed host may hold besides ASCII letters and digits (as InspIRCd's default
    /// `hostchars`, and `/` for vhosts like `family/gran`).
    static let hostPunctuation = Set(".-_/".unicodeScalars)

    /// Why `host` cannot be shown as a user's host, or nil.
    static func hostProblem(_ host: String) -> String? {
        guard !host.isEmpty, host.utf8.count <= IRCLimits.hostLength else {
            return "A host is 1 to \(IRCLimits.hostLength) bytes long"
        }
        let scalars = host.unicodeScalars
        func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
        }
        guard scalars.allSatisfy({ isAlphanumeric($0) || hostPunctuation.contains($0) }) else {
            return "A host may hold only ASCII letters, digits and . - _ /"
        }
        guard isAlphanumeric(scalars.first!), isAlphanumeric(scalars.last!) else {
            return "A host starts and ends with a letter or digit"
        }
        // Others would take it for the user's real address.
        if HostCloak.isAddress(host) { return "A host may not be an IP address" }
        return nil
    }

    /// `CHGHOST <nick> <host>` (operators; 481 comes from the command table). On a network
    /// every node applies it to its view (`replay`), so a user of another node can be changed.
    func chghost(_ client: Client, _ message: IRCMessage) {
        let (nick, host) = (message.params[0], message.params[1])
        withState { state, out in
            if let problem = Self.hostProblem(host) {
                out.send(
                    client,
                    IRCMessage(source: serverName, command: "FAIL", params: ["CHGHOST", "INVALID_HOST", nick, problem]))
                return
            }
            guard let target = state.nicks[IRCNames.fold(nick)], state[target].registered else {
                out.send(client, numeric(state, client, .noSuchNick, nick, "No such nick/channel"))
                return
            }
            changeHost(&state, target, to: host, out: &out)
            notice(state, client, "\(Words.possessive(state[target].nick)) displayed host is now \(host)", out: &out)
            tellNetwork(command: IRCMessage(command: "CHGHOST", params: [state[target].nick, host]), by: client)
        }
    }

    /// Shows `user` (every device of it) as `host` from now on and tells whoever sees it.
    func changeHost(_ state: inout ChatState, _ user: Client, to host: String, out: inout Outbox) {
        let devices = [user] + state.otherDevices(of: user)
        guard devices.contains(where: { state[$0].host != host }) else { return }
        let old = state[user].prefix
        for device in devices { state[device].host = host }
        // The user's devices and its peers (and extended-monitor watchers) that asked.
        let change = userMessage(state, user, source: old, "CHGHOST", [state[user].user, host])
        sendToPeers(&state, of: user, withCap: "chghost", includeSelf: true, change, out: &out)
        for device in devices where !state[device].isPlain && !device.isRemote {
            out.send(device, numeric(state, device, .visibleHost, host, "is now your displayed host"))
        }
        // The others see a reconnection. Plain-mode peers are spared it: they are shown no hosts.
        let fallback = state.peers(of: user).filter { peer in
            !state[peer].caps.contains("chghost") && !state[peer].isPlain && !devices.contains { $0 === peer }
        }
        guard !fallback.isEmpty else { return }
        out.send(fallback, userMessage(state, user, source: old, "QUIT", ["Changing hostname"]))
        for key in state[user].channels {
            guard let channel = state.channels[key], let status = channel.members[user.id] else { continue }
            let members = fallback.filter { channel.members[$0.id] != nil }
            if !members.isEmpty { rejoin(state, user, channel, status, for: members, out: &out) }
        }
    }

    /// The JOIN (extended where asked), channel status and away state that `members` would see
    /// if `user` joined `channel` anew.
    private func rejoin(
        _ state: ChatState, _ user: Client, _ channel: ChannelState, _ status: MemberStatus, for members: [Client],
        out: inout Outbox
    ) {
        let join = userMessage(state, user, "JOIN", [channel.name])
        var extended = join
        extended.params += [state[user].account?.name ?? "*", state[user].realname]
        let wantsExtended = members.filter { state[$0].caps.contains("extended-join") }
        out.send(members.filter { !state[$0].caps.contains("extended-join") }, join)
        out.send(wantsExtended, extended)
        let letters = (status.op ? "o" : "") + (status.voice ? "v" : "")
        if !letters.isEmpty {
            let params = [channel.name, "+" + letters] + Array(repeating: state[user].nick, count: letters.count)
            out.send(members, IRCMessage(source: serverName, command: "MODE", params: params))
        }
        if let away = state[user].away {
            out.send(
                members.filter { state[$0].caps.contains("away-notify") }, userMessage(state, user, "AWAY", [away]))
        }
    }
}
