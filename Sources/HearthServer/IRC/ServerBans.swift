import Foundation
import HearthProtocol
import HearthStore

/// What moderation keeps beside the chat: the operators' server bans (UBAN, KLINE, DLINE) and
/// what registered channels keep across restarts — their mask lists and access lists.
struct Moderation {
    /// Bans as read from the store (an expired one stops matching at once; the store deletes it).
    var serverBans: [ServerBan] = []
    /// Registered channel (folded) → its +b/+e/+I lists as last saved, restored when it is made again.
    var keptLists: [String: ChannelLists] = [:]
    /// Registered channel (folded) → account id → op or voice given on join (`!channel access`).
    var access: [String: [Int64: ChannelAccess.Level]] = [:]
}

/// UBAN's words: a target (an address or CIDR network, a `nick!user@host` mask, or an account)
/// and a duration (`90s`, `30m`, `2h`, `7d`, `1w`, or several: `1h30m`).
enum ServerBanSyntax {
    /// The longest a ban may be given for (longer: give none, it lasts until removed).
    static let maxDuration: TimeInterval = 366 * 86400
    /// The longest reason kept (it is shown to everyone the ban keeps out).
    static let maxReasonLength = 300

    /// The normalized target and its kind; nil when it is none of the three.
    static func target(_ raw: String) -> (target: String, kind: ServerBan.Kind)? {
        if let range = IPRange(raw) { return (range.description, .address) }
        if raw.contains(where: { "!@*?".contains($0) }) {
            let mask = IRCNames.normalizeMask(raw)
            guard !mask.contains(" "), mask.count <= 200 else { return nil }
            return (IRCNames.fold(mask), .mask)
        }
        return IRCNames.isValidNick(raw) ? (IRCNames.fold(raw), .account) : nil
    }

    /// Seconds for a duration such as `1h30m`; nil when it is not one or is past `maxDuration`.
    static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        var total: TimeInterval = 0
        var number = ""
        for character in text.lowercased() {
            if character.isASCII && character.isNumber {
                number.append(character)
            } else if let unit = units[character], let value = Int(number), number.count <= 6 {
                total += TimeInterval(value) * unit
                number = ""
            } else {
                return nil
            }
        }
        guard number.isEmpty, total > 0, total <= maxDuration else { return nil }
        return total
    }
}

extension ChatState {
    /// The ban in force that matches `client` now, if any.
    func serverBan(on client: Client, now: Date) -> ServerBan? {
        moderation.serverBans.first { $0.isActive(at: now) && matches($0, client) }
    }

    private func matches(_ ban: ServerBan, _ client: Client) -> Bool {
        switch ban.kind {
        case .address:
            return IPRange(ban.target)?.contains(client.address) ?? false
        case .account:
            return self[client].account.map { ban.bans(accountKey: IRCNames.fold($0.name)) } ?? false
        case .mask:
            // Operators see real addresses, so a mask matches the address as well as the host shown.
            let user = self[client]
            return IRCNames.globMatch(ban.target, user.prefix)
                || IRCNames.globMatch(ban.target, "\(user.nick)!\(user.user)@\(client.address)")
        }
    }
}

extension Core {
    /// Reads the bans in force (at start, and when another node changed them) and ends the
    /// connections here that a ban now matches.
    func loadServerBans() async throws {
        let bans = try await store.serverBans(now: config.clock.now())
        chat.withLock { state in state.moderation.serverBans = bans }
        enforceServerBans()
    }

    /// Ends a connection a ban matches (at registration); true when it did.
    func refuseIfServerBanned(_ client: Client) -> Bool {
        let now = config.clock.now()
        guard let ban = chat.withLock({ state in state.serverBan(on: client, now: now) }) else { return false }
        endBanned(client, ban)
        return true
    }

    /// Ends every registered connection of this node that a ban matches (after a ban is added).
    /// An IRC operator's own is spared: banning one's own network must not lock one out.
    func enforceServerBans() {
        let now = config.clock.now()
        let banned = chat.withLock { state in
            state.clients.values.compactMap { client in
                state[client].registered && !state[client].isOper
                    ? state.serverBan(on: client, now: now).map { (client, $0) } : nil
            }
        }
        for (client, ban) in banned { endBanned(client, ban) }
        // Always-on stand-ins a ban matches quit too, and are not kept for the next start.
        let store = self.store
        withState { state, out in
            for (id, standIn) in state.alwaysOn.standIns {
                guard let ban = state.serverBan(on: standIn, now: now) else { continue }
                standInQuits(&state, accountID: id, reason: "Banned: \(ban.reason)", out: &out)
                presenceWrites.add { try? await store.dropAlwaysOnPresence(accountID: id) }
            }
        }
    }

    private func endBanned(_ client: Client, _ ban: ServerBan) {
        logger.info("server ban \(ban.target) ends connection \(client.id)")
        withState { state, out in
            out.send(client, numeric(state, client, .yourBannedCreep, "You are banned from this server: \(ban.reason)"))
        }
        end(client, killed: "Banned: \(ban.reason)")
    }

    /// `UBAN ADD <target> [DURATION <duration>] [<reason>...]`, `UBAN DEL <target>`, `UBAN LIST`,
    /// `UBAN INFO <target>` (Ergo's syntax).
    func uban(_ client: Client, _ message: IRCMessage) {
        let args = Array(message.params.dropFirst())
        switch message.params[0].uppercased() {
        case "ADD":
            guard let raw = args.first else { return banFail(client, "NEED_MORE_PARAMS", "UBAN ADD needs a target") }
            var rest = Array(args.dropFirst())
            if rest.first?.uppercased() == "REQUIRE-SASL" {
                return banFail(client, "UNSUPPORTED", "REQUIRE-SASL is not supported here: ban the address outright")
            }
            var duration: TimeInterval?
            if rest.first?.uppercased() == "DURATION" {
                guard rest.count >= 2, let seconds = ServerBanSyntax.duration(rest[1]) else {
                    return banFail(
                        client, "INVALID_DURATION",
                        "A duration is like 30m, 2h, 7d or 1h30m, at most \(Int(ServerBanSyntax.maxDuration / 86400))d")
                }
                duration = seconds
                rest.removeFirst(2)
            }
            addServerBan(client, raw, duration: duration, reason: rest.joined(separator: " "), command: message)
        case "DEL":
            guard let raw = args.first else { return banFail(client, "NEED_MORE_PARAMS", "UBAN DEL needs a target") }
            removeServerBan(client, raw, command: message)
        case "LIST":
            listServerBans(client)
        case "INFO":
            guard let raw = args.first else { return banFail(client, "NEED_MORE_PARAMS", "UBAN INFO needs a target") }
            serverBanInfo(client, raw)
        default:
            banFail(client, "UNKNOWN_COMMAND", "UBAN ADD|DEL|LIST|INFO")
        }
    }

    /// `KLINE [<duration>] <mask> [:<reason>]` and `DLINE [<duration>] <address>[/<bits>] [:<reason>]`.
    func kline(_ client: Client, _ message: IRCMessage) {
        var args = message.params
        var duration: TimeInterval?
        if args.count >= 2, let seconds = ServerBanSyntax.duration(args[0]) {
            duration = seconds
            args.removeFirst()
        }
        if message.command == "DLINE" && IPRange(args[0]) == nil {
            return banFail(client, "INVALID_TARGET", "DLINE takes an address or a network such as 203.0.113.0/24")
        }
        let reason = args.dropFirst().joined(separator: " ")
        addServerBan(client, args[0], duration: duration, reason: reason, command: message)
    }

    /// `UNKLINE <mask>` and `UNDLINE <address>`.
    func unkline(_ client: Client, _ message: IRCMessage) {
        removeServerBan(client, message.params[0], command: message)
    }

    private func addServerBan(
        _ client: Client, _ raw: String, duration: TimeInterval?, reason: String, command: IRCMessage
    ) {
        guard let (target, kind) = ServerBanSyntax.target(raw) else {
            return banFail(
                client, "INVALID_TARGET", "\(raw) is not an address, a network, a nick!user@host mask or an account")
        }
        guard reason.count <= ServerBanSyntax.maxReasonLength else {
            return banFail(
                client, "INVALID_REASON", "A reason is at most \(ServerBanSyntax.maxReasonLength) characters")
        }
        let now = config.clock.now()
        let ban = ServerBan(
            target: target, kind: kind, reason: reason.isEmpty ? "No reason given" : reason,
            setBy: chat.withLock { state in state[client].nick }, createdAt: now,
            expiresAt: duration.map { now.addingTimeInterval($0) })
        let store = self.store
        later(client, { () -> Bool in (try? await store.addServerBan(ban)) != nil }) { saved in
            guard saved else { return self.banFail(client, "INTERNAL_ERROR", "The ban could not be saved") }
            self.withState { state, out in
                state.moderation.serverBans.removeAll { $0.target == target || !$0.isActive(at: now) }
                state.moderation.serverBans.append(ban)
                self.notice(state, client, "Banned \(target) (\(kind.rawValue)) \(Self.describe(ban))", out: &out)
            }
            self.tellNetwork(command: command, by: client)
            self.enforceServerBans()
        }
    }

    private func removeServerBan(_ client: Client, _ raw: String, command: IRCMessage) {
        guard let (target, _) = ServerBanSyntax.target(raw) else {
            return banFail(client, "INVALID_TARGET", "\(raw) is not an address, a network, a mask or an account")
        }
        let store = self.store
        later(client, { try? await store.removeServerBan(target: target) }) { removed in
            guard let removed else { return self.banFail(client, "INTERNAL_ERROR", "The ban could not be removed") }
            self.withState { state, out in
                state.moderation.serverBans.removeAll { $0.target == target }
                self.notice(state, client, removed ? "Removed the ban on \(target)" : "No ban on \(target)", out: &out)
            }
            if removed { self.tellNetwork(command: command, by: client) }
        }
    }

    private func listServerBans(_ client: Client) {
        let now = config.clock.now()
        withState { state, out in
            let bans = state.moderation.serverBans.filter { $0.isActive(at: now) }
            for ban in bans {
                notice(state, client, "\(ban.target) (\(ban.kind.rawValue)) \(Self.describe(ban))", out: &out)
            }
            notice(state, client, bans.count == 1 ? "1 server ban" : "\(bans.count) server bans", out: &out)
        }
    }

    private func serverBanInfo(_ client: Client, _ raw: String) {
        let now = config.clock.now()
        withState { state, out in
            let target = ServerBanSyntax.target(raw)?.target
            guard let ban = state.moderation.serverBans.first(where: { $0.target == target && $0.isActive(at: now) })
            else { return notice(state, client, "No ban on \(target ?? raw)", out: &out) }
            notice(state, client, "\(ban.target) (\(ban.kind.rawValue)) \(Self.describe(ban))", out: &out)
        }
    }

    /// "— spam (set by oper at …, until …)", as LIST, INFO and ADD show a ban.
    private static func describe(_ ban: ServerBan) -> String {
        let until = ban.expiresAt.map { "until \($0.formatted(.iso8601))" } ?? "until removed"
        return "— \(ban.reason) (set by \(ban.setBy) at \(ban.createdAt.formatted(.iso8601)), \(until))"
    }

    private func banFail(_ client: Client, _ code: String, _ text: String) {
        withState { _, out in
            out.send(client, IRCMessage(source: serverName, command: "FAIL", params: ["UBAN", code, text]))
        }
    }
}
