import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol
import HearthStore
import NIOCore

/// CAP, NICK, USER, PASS, SASL and the welcome burst.
extension Core {
    static let supportedCaps = [
        "account-notify", "account-tag", "away-notify", "batch", "cap-notify", "chghost",
        "draft/account-registration", "draft/channel-rename", "draft/chathistory", "draft/event-playback",
        "draft/extended-isupport", "draft/message-edit",
        "draft/message-redaction", "draft/metadata-2", "draft/metadata-3", "draft/multiline",
        "draft/pre-away", "draft/read-marker", "draft/webpush", "echo-message", "extended-join",
        "extended-monitor", "invite-notify", "labeled-response", "message-tags", "multi-prefix",
        "no-implicit-names", "sasl",
        "server-time", "setname", "soju.im/search", "standard-replies", "userhost-in-names",
    ]

    func capValue(_ cap: String, version: Int) -> String {
        guard version >= 302 else { return cap }
        if cap == "sasl" { return "sasl=" + Self.saslMechanisms.joined(separator: ",") }
        if cap == Self.multilineCap { return Self.multilineCapValue }
        if cap == Self.accountRegistrationCap { return accountRegistrationCapValue }
        if Self.metadataCaps.contains(cap) { return metadataCapValue(cap) }
        return cap
    }

    /// Most bytes of caps in one CAP LS line (the rest of the line is under 60 bytes).
    static let capBytesPerLine = 400

    /// The caps in lines of at most `capBytesPerLine` bytes.
    static func capLines(_ caps: [String]) -> [String] {
        var lines: [String] = []
        var line = ""
        for cap in caps {
            if !line.isEmpty && line.utf8.count + 1 + cap.utf8.count > capBytesPerLine {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + cap
        }
        return lines + [line]
    }

    func cap(_ client: Client, _ message: IRCMessage) {
        let sub = message.params.first?.uppercased() ?? ""
        let (registered, target) = chat.withLock { state in
            (state[client].registered, state[client].registered ? state[client].nick : "*")
        }
        func capReply(_ params: [String]) -> IRCMessage {
            IRCMessage(source: serverName, command: "CAP", params: [target] + params)
        }
        switch sub {
        case "LS":
            let version = Int(message.params.dropFirst().first ?? "") ?? 0
            if !registered { client.capNegotiating = true }
            // CAP LS 302 turns cap-notify on implicitly.
            if version >= 302 { _ = chat.withLock { state in state[client].caps.insert("cap-notify") } }
            let caps = Self.supportedCaps.map { capValue($0, version: version) } + stsCap(client, version: version)
            // CAP LS 302 may take several lines (all but the last marked `*`): one would pass 512 bytes.
            let lines = version >= 302 ? Self.capLines(caps) : [caps.joined(separator: " ")]
            withState { _, out in
                for (index, line) in lines.enumerated() {
                    out.send(client, capReply(index < lines.count - 1 ? ["LS", "*", line] : ["LS", line]))
                }
            }
        case "LIST":
            withState { state, out in
                out.send(client, capReply(["LIST", state[client].caps.sorted().joined(separator: " ")]))
            }
        case "REQ":
            if !registered { client.capNegotiating = true }
            let requested = (message.params.dropFirst().first ?? "").split(separator: " ").map(String.init)
            let known = requested.allSatisfy {
                Self.supportedCaps.contains($0.hasPrefix("-") ? String($0.dropFirst()) : $0)
            }
            let text = requested.joined(separator: " ")
            if known && !requested.isEmpty {
                withState { state, out in
                    for cap in requested {
                        if cap.hasPrefix("-") {
                            state[client].caps.remove(String(cap.dropFirst()))
                        } else {
                            state[client].caps.insert(cap)
                        }
                    }
                    // Channels cache their members' tag masks.
                    for key in state[client].channels { state.channels[key]?.invalidateMembers() }
                    out.send(client, capReply(["ACK", text]))
                }
            } else {
                withState { _, out in out.send(client, capReply(["NAK", text])) }
            }
        case "END":
            if !registered {
                client.capNegotiating = false
                if client.saslInProgress {
                    client.saslInProgress = false
                    client.saslBuffer = ""
                    reply(client, .saslAborted, "SASL authentication aborted")
                }
                tryCompleteRegistration(client)
            }
        default:
            reply(client, .invalidCapCmd, sub.isEmpty ? "*" : sub, "Invalid CAP subcommand")
        }
    }

    func nick(_ client: Client, _ message: IRCMessage) {
        guard let wanted = checkNick(client, message.params.first) else { return }
        client.wantedNick = wanted
        let key = IRCNames.fold(wanted)
        let me = snapshot(client)
        if key == me.nickKey {
            // Case change only, if the nick is still the one read (another loop may have renamed
            // it since: a ghosting login, an account renamed): else it would bypass the checks.
            guard wanted != me.nick else { return }
            withState { state, out in
                guard state[client].nickKey == key else { return }
                setNick(&state, client, to: wanted, out: &out)
            }
            return
        }
        if mustKeepAccountNick(client, key) {
            // Before the welcome a client holding the presence's nick simply keeps it, as Ergo
            // replaces it too; one left without a nick (refused one) must hear why, or it waits forever.
            let keepsPresenceNick = !me.registered && !me.nickKey.isEmpty && !mustKeepAccountNick(client, me.nickKey)
            if !keepsPresenceNick { reply(client, .unknownError, "NICK", Self.alwaysOnNickRule) }
            return
        }
        if !me.registered, waitsForAccount(client, wanted, key) { return }
        if attachAsDevice(client, key) { return }
        if let problem = nickTaken(key, by: client) {
            reply(client, .nicknameInUse, wanted, problem)
            return
        }
        if me.isPlain {
            return
        }
        if !me.registered {
            // Claim it now; the account reservation is checked when registration completes,
            // after SASL or PASS had their chance to log in.
            withState { state, out in setNick(&state, client, to: wanted, out: &out) }
            tryCompleteRegistration(client)
            return
        }
        claimNick(client, wanted, key)
    }

    /// `wanted` when it may be a nick; otherwise nil, with `client` told why.
    private func checkNick(_ client: Client, _ wanted: String?) -> String? {
        guard let wanted, !wanted.isEmpty else {
            reply(client, .noNicknameGiven, "No nickname given")
            return nil
        }
        guard IRCNames.isValidNick(wanted) else {
            reply(
                client, .erroneousNickname, wanted,
                "Erroneous nickname: use letters, digits and - _ [ ] { } | ^ ` \\, at most \(IRCLimits.nickLength)")
            return nil
        }
        return wanted
    }

    /// While registering, a nick an account's user holds may be the same account's next device:
    /// it is set aside, decided after SASL or PASS had their chance. True when it is.
    private func waitsForAccount(_ client: Client, _ wanted: String, _ key: String) -> Bool {
        let heldByAccount = chat.withLock { state in
            state.nicks[key].map { Self.isAccountNick(state, key, of: $0) && state[$0].registered } == true
        }
        guard heldByAccount else { return false }
        withState { state, _ in
            if state.nicks[state[client].nickKey] === client { state.nicks[state[client].nickKey] = nil }
            state[client].nick = wanted
            state[client].nickKey = key
        }
        tryCompleteRegistration(client)
        return true
    }

    /// A registered connection taking the nick of its account's user joins it as another device.
    private func attachAsDevice(_ client: Client, _ key: String) -> Bool {
        guard let holder = chat.withLock({ state in state.nicks[key] }) else { return false }
        return withState { state, out -> Bool in
            guard state.canShareNick(client, with: holder), state[client].registered,
                Self.isAccountNick(state, key, of: holder)
            else {
                return false
            }
            attachDevice(&state, client, to: holder, out: &out)
            return true
        }
    }

    /// A registered user's new nick: refused when an account reserves it, or in a network when
    /// another node's user holds it (the database decides); otherwise set.
    private func claimNick(_ client: Client, _ wanted: String, _ key: String) {
        let store = self.store
        let network = self.network
        let accountID = chat.withLock { state in state[client].account?.id }
        let claim = network.map {
            NetworkNick(nickKey: key, node: $0.name, session: client.id, accountID: accountID)
        }
        later(
            client,
            { () async -> (Stored<Account>?, NetworkNicks.Answer) in
                // In a network the nick must be free on every node: the database decides.
                guard let network, let claim else { return ((try? await store.account(nameKey: key)), .claimed) }
                return await Self.networkClaim(claim, owner: { try await store.account(nameKey: key) }, network)
            }
        ) { owner, answer in
            if answer == .unavailable {
                self.reply(client, .nickUnavailable, wanted, Self.unavailable)
                return
            }
            let claimed = answer == .claimed
            if let owner, owner.id != self.chat.withLock({ state in state[client].account?.id }) {
                self.reply(
                    client, .nicknameInUse, wanted,
                    "Nickname is reserved by a registered account; log in as \(owner.name) to use it")
                return
            }
            let renamed = self.withState { state, out -> Bool in
                if claimed && state.nickTaken(key, by: client) == nil {
                    self.setNick(&state, client, to: wanted, out: &out)
                    return true
                }
                out.send(client, self.numeric(state, client, .nicknameInUse, wanted, "Nickname is already in use"))
                return false
            }
            if !renamed && claimed && network != nil { self.releaseNetworkNick(key, session: client.id) }
        }
    }

    /// 437's text: the network's database did not answer in time (`NetworkNicks.answerWait`).
    static let unavailable =
        "Nick is temporarily unavailable: the network's database is not answering; try again in a moment"

    /// The account that reserves a nick, and the network's answer to `claim`, both within
    /// `NetworkNicks.answerWait` (the database may be away: then nothing is decided).
    static func networkClaim(
        _ claim: NetworkNick, owner: @escaping @Sendable () async throws -> Stored<Account>?, _ network: NetworkNode
    ) async -> (Stored<Account>?, NetworkNicks.Answer) {
        let deadline = ContinuousClock.now + NetworkNicks.answerWait
        guard case .success(let owner) = await NetworkNicks.first(before: deadline, owner) else {
            return (nil, .unavailable)
        }
        // A nick an account reserves is not claimed for anyone else.
        guard owner == nil || owner?.id == claim.accountID else { return (owner, .claimed) }
        return (owner, await network.nicks.claim(claim, before: deadline))
    }

    /// Whether `key` is the nick of `holder`'s account (the nick its devices share).
    static func isAccountNick(_ state: ChatState, _ key: String, of holder: Client) -> Bool {
        state[holder].account.map { IRCNames.fold($0.name) == key } ?? false
    }

    /// Why `key` is not free for `client`, or nil.
    func nickTaken(_ key: String, by client: Client) -> String? {
        chat.withLock { state in state.nickTaken(key, by: client) }
    }

    func user(_ client: Client, _ message: IRCMessage) {
        if client.gotUser || chat.withLock({ state in state[client].registered }) {
            reply(client, .alreadyRegistered, "You may not reregister")
            return
        }
        // An empty username or realname is not a USER line (RFC 2812, modern.ircdocs.horse).
        guard !message.params[0].isEmpty, !message.params[3].isEmpty else {
            reply(client, .needMoreParams, "USER", "Not enough parameters")
            return
        }
        let username = String(message.params[0].filter { $0 != "@" && $0 != "!" }.prefix(IRCLimits.userLength))
        chat.withLock { state in
            state[client].user = username.isEmpty ? "user" : "~" + username.prefix(IRCLimits.userLength - 1)
            state[client].realname = IRCMessage.truncate(message.params[3], toBytes: IRCLimits.realnameLength)
        }
        client.gotUser = true
        tryCompleteRegistration(client)
    }

    func pass(_ client: Client, _ message: IRCMessage) {
        if chat.withLock({ state in state[client].registered }) {
            reply(client, .alreadyRegistered, "You may not reregister")
            return
        }
        let value = message.params[0]
        client.pass = value
    }

    /// Finishes registration once NICK and USER are in and CAP negotiation is over:
    /// PASS login (token or name:password), nick reservation, then the welcome burst.
    func tryCompleteRegistration(_ client: Client) {
        guard client.gotUser, !client.capNegotiating, !client.saslInProgress,
            chat.withLock({ state in !state[client].registered && !state[client].nickKey.isEmpty })
        else { return }
        guard var pass = client.pass ?? (config.serverPassword == nil ? nil : "") else {
            completeLogin(client, pass: nil)
            return
        }
        client.pass = nil
        if let required = config.serverPassword {
            // A private server: PASS is its password, optionally followed by ":" and a login.
            if Sodium.constantTimeEqual(required, pass) {
                completeLogin(client, pass: nil)
            } else if pass.hasPrefix(required + ":"),
                Sodium.constantTimeEqual(required, String(pass.prefix(required.count)))
            {
                pass.removeFirst(required.count + 1)
                completeLogin(client, pass: pass)
            } else {
                reply(
                    client, .passwdMismatch, "Password incorrect: this server is private; give its password with PASS")
                quit(client, reason: "Bad server password")
            }
            return
        }
        completeLogin(client, pass: pass)
    }

    /// The rest of registration, once the server password (if any) was given.
    private func completeLogin(_ client: Client, pass: String?) {
        let (key, loggedIn) = chat.withLock { state in (state[client].nickKey, state[client].account?.id) }
        let address = client.address
        let services = bot.services
        let accounts = services.accounts
        let store = self.store
        let network = self.network
        let session = client.id
        // One server, no login, nothing waiting, and a nick no account holds: decided here (the
        // store's read and the hops to it and back were most of a registration's time).
        if pass == nil, network == nil, client.pending == nil, store.reservedNames?.surelyFree(key) == true {
            finishLogin(client, pass: nil, (.none, nil, [], .claimed))
            return
        }
        // Hold further lines until this is decided.
        later(
            client,
            { () async -> (PassLogin, AccountRef?, [SessionEffect], NetworkNicks.Answer) in
                // In a network the login answers within `answerWait`, as the nick's claim does (the
                // database may be away); on one server the store's own timeout bounds it.
                let deadline = network.map { _ in ContinuousClock.now + NetworkNicks.answerWait }
                var outcome = PassLogin.none
                if let pass, loggedIn == nil {
                    outcome = await Self.passLogin(pass, accounts: accounts, address: address, before: deadline)
                }
                if case .unavailable = outcome { return (outcome, nil, [], NetworkNicks.Answer.unavailable) }
                let login = outcome.login
                let effects =
                    login != nil ? ((try? await services.loginEffects(login!.0, tokenHash: login!.1)) ?? []) : []
                // In a network the nick must be free on every node: the database decides.
                var (owner, answer): (Stored<Account>?, NetworkNicks.Answer) = (nil, .claimed)
                if let network {
                    let claim = NetworkNick(
                        nickKey: key, node: network.name, session: session, accountID: login?.0.id ?? loggedIn)
                    (owner, answer) = await Self.networkClaim(
                        claim, owner: { try await store.account(nameKey: key) }, network)
                } else {
                    owner = try? await store.account(nameKey: key)
                }
                return (outcome, owner.map { AccountRef(id: $0.id, name: $0.name) }, effects, answer)
            }
        ) { result in self.finishLogin(client, pass: pass, result) }
    }

    /// Registration once the login (if any) and the nick's owner are known.
    private func finishLogin(
        _ client: Client, pass: String?, _ result: (PassLogin, AccountRef?, [SessionEffect], NetworkNicks.Answer)
    ) {
        let (outcome, owner, effects, answer) = result
        let claimed = answer == .claimed
        switch outcome {
        case .refused:
            reply(
                client, .passwdMismatch, "Password incorrect: that resume token or name:password was not accepted")
        case .unavailable:
            // Neither logged in nor refused: the same PASS is tried again with the next NICK.
            client.pass = pass.map { login in config.serverPassword.map { $0 + ":" + login } ?? login }
            let fail = ["PASS", "TEMPORARILY_UNAVAILABLE", Self.loginUnavailable]
            let line = IRCMessage(source: serverName, command: "FAIL", params: fail)
            withState { _, out in out.send(client, line) }
        case .loggedIn(let account, let hash):
            protocolLogin(client, account, tokenHash: hash, effects: effects)
        case .none:
            break
        }
        let sharing = chat.withLock { state -> Bool in
            guard let holder = state.nicks[state[client].nickKey], holder !== client else { return true }
            // The account's name, or the nick its always-on presence kept (`takePresenceNick`).
            return state.canShareNick(client, with: holder)
                && (Self.isAccountNick(state, state[client].nickKey, of: holder) || holder.isStandIn)
        }
        let reserved = owner != nil && owner?.id != chat.withLock({ state in state[client].account?.id })
        if reserved || !sharing || !claimed {
            refuseNick(client, reserved: reserved, answer: answer)
            return
        }
        completeRegistration(client)
    }

    /// What a PASS of a resume token or `name:password` did.
    enum PassLogin: Sendable {
        /// Not a login (no `name:` before the password).
        case none
        case loggedIn(AccountRef, tokenHash: String?)
        /// A wrong password or token, or too many tries.
        case refused
        /// The database did not answer (in time): nothing was decided.
        case unavailable

        var login: (AccountRef, String?)? {
            if case .loggedIn(let account, let hash) = self { return (account, hash) }
            return nil
        }
    }

    /// The FAIL PASS text while the database is away.
    static let loginUnavailable =
        "Cannot log in now: the database is not answering; nothing was decided, try again in a moment"

    /// A PASS of a resume token or `name:password`, checked before `deadline` when given. An
    /// account's refusal is `refused`; the database failing or not answering is `unavailable`.
    private static func passLogin(
        _ pass: String, accounts: AccountService, address: String, before deadline: ContinuousClock.Instant?
    ) async -> PassLogin {
        let check: @Sendable () async throws -> PassLogin = {
            if SecretCodes.looksLikeResumeToken(pass) {
                let (account, hash) = try await accounts.checkToken(pass, address: address)
                return .loggedIn(AccountRef(id: account.id, name: account.name), tokenHash: hash)
            }
            guard let colon = pass.firstIndex(of: ":") else { return .none }
            let (name, password) = (String(pass[..<colon]), String(pass[pass.index(after: colon)...]))
            let account = try await accounts.checkPassword(name: name, password: password, address: address)
            return .loggedIn(AccountRef(id: account.id, name: account.name), tokenHash: nil)
        }
        let result: Result<PassLogin, any Error>?
        if let deadline {
            result = await NetworkNicks.first(before: deadline, check)
        } else {
            do { result = .success(try await check()) } catch { result = .failure(error) }
        }
        switch result {
        case .success(let outcome)?: return outcome
        case .failure(let error)?: return error is AccountError ? .refused : .unavailable
        case nil: return .unavailable
        }
    }

    /// Registration cannot take the nick it asked for: it is reserved, shared too often, taken on
    /// another node, or the network's database is away. The client stays unregistered, without a nick.
    private func refuseNick(_ client: Client, reserved: Bool, answer: NetworkNicks.Answer) {
        let claimed = answer == .claimed
        withState { state, out in
            let nickKey = state[client].nickKey
            if state.nicks[nickKey] === client { state.nicks[nickKey] = nil }
            if claimed { self.releaseNetworkNick(nickKey, session: client.id) }
            defer {
                state[client].nickKey = ""
                state[client].nick = "*"
            }
            if answer == .unavailable {
                let nick = state[client].nick
                out.send(client, self.numeric(state, client, .nickUnavailable, nick, Self.unavailable))
                return
            }
            let why =
                reserved
                ? "Nickname is reserved by a registered account;"
                    + " log in with SASL or PASS, or choose another nick"
                : !claimed
                    ? "Nickname is already in use"
                    : "Nickname is already in use (on at most \(Self.maxDevicesPerUser) connections at once)"
            out.send(client, self.numeric(state, client, .nicknameInUse, state[client].nick, why))
        }
    }

    func completeRegistration(_ client: Client) {
        if refuseIfServerBanned(client) { return }
        withState { state, out in
            guard state.clients[client.id] != nil else { return }
            state[client].registered = true
            metrics.registrations[state[client].isPlain ? .plain : .irc]?.increment()
            notePeakUsers(&state)
            // Another device of a user who is online already: attached after the welcome.
            let holder = state.nicks[state[client].nickKey].flatMap { $0 === client ? nil : $0 }
            if holder == nil {
                state.nicks[state[client].nickKey] = client
                announcePresence(&state, client, online: true, out: &out)
            }
            tellNetwork(state, user: client)
            // draft/pre-away: an AWAY sent while registering reaches the other nodes now.
            if let away = state[client].away {
                tellNetwork(command: IRCMessage(command: "AWAY", params: [away]), by: client)
            }
            defer { if let holder { attachDevice(&state, client, to: holder, out: &out) } }
            defer {
                if holder == nil, let account = state[client].account {
                    joinGuardedChannels(&state, client, accountID: account.id)
                }
            }
            func send(_ n: Numeric, _ params: String...) { out.send(client, numeric(state, client, n, params: params)) }
            send(.welcome, "Welcome to the \(config.networkName) IRC network, \(state[client].prefix)")
            send(.yourHost, "Your host is \(serverName), running version \(version)")
            send(.created, createdText)
            send(.myInfo, serverName, version, "Biow", "CMRbeIiklmnostv", "beIklov")
            sendISupport(state, client, out: &out)
            lusers(&state, client, out: &out)
            motd(state, client, out: &out)
            if !state[client].isPlain && state[client].host != client.address {
                send(.visibleHost, state[client].host, "is now your displayed host")
            }
            metadataBurst(&state, client, out: &out)
        }
        logEvent("registered", client)
        deliverKept(client)
    }

    /// A login through SASL or PASS: like the bot's login, but the client keeps the nick it
    /// chose (it is checked against reservations when registration completes).
    func protocolLogin(_ client: Client, _ account: AccountRef, tokenHash: String?, effects: [SessionEffect]) {
        let registered = withState { state, out -> Bool in
            state[client].account = account
            state[client].tokenHash = tokenHash
            out.send(
                client,
                numeric(
                    state, client, .loggedIn, state[client].prefix, account.name,
                    "You are now logged in as \(account.name)"))
            if state[client].registered {
                sendToPeers(
                    &state, of: client, withCap: "account-notify",
                    userMessage(state, client, "ACCOUNT", [account.name]),
                    out: &out)
                tellNetwork(state, user: client)  // SASL after registration: the other nodes learn it too
            }
            for effect in effects {
                if case .login = effect { continue }
                apply(&state, effect, for: client, out: &out)
            }
            takePresenceNick(&state, client, account, out: &out)
            return state[client].registered
        }
        // Before registration, completeRegistration delivers them after the welcome.
        if registered { deliverKept(client) }
    }

    func lusers(_ state: inout ChatState, _ client: Client, out: inout Outbox) {
        // Users counts everyone, users of other nodes of a network included.
        let users = state.counts.users
        let invisible = state.counts.invisible
        let local = users - state.remoteUsers.count
        // Always-on stand-ins are users here but no connection: not counted as clients.
        let connected = local - state.alwaysOn.standIns.count
        let unknown = state.clients.count - connected
        notePeakUsers(&state)
        let servers = 1 + Set(state.remoteUsers.keys.map(\.node)).count
        func send(_ n: Numeric, _ params: String...) { out.send(client, numeric(state, client, n, params: params)) }
        let onServers = "on \(servers) server\(servers == 1 ? "" : "s")"
        send(.luserClient, "There are \(users - invisible) users and \(invisible) invisible \(onServers)")
        send(.luserOp, String(state.counts.opers), "operator(s) online")
        send(.luserUnknown, String(unknown), "unknown connection(s)")
        send(.luserChannels, String(state.channels.count), "channels formed")
        send(.luserMe, "I have \(connected) clients and \(servers - 1) servers")
        let (localPeak, globalPeak) = state.peakUsers
        send(.localUsers, String(local), String(localPeak), "Current local users \(local), max \(localPeak)")
        send(.globalUsers, String(users), String(globalPeak), "Current global users \(users), max \(globalPeak)")
    }

    /// Keeps the most users seen at once, here and in the network (LUSERS).
    func notePeakUsers(_ state: inout ChatState) {
        let users = state.counts.users
        state.peakUsers = (
            max(state.peakUsers.local, users - state.remoteUsers.count), max(state.peakUsers.global, users)
        )
    }

    func motd(_ state: ChatState, _ client: Client, out: inout Outbox) {
        if config.motd.isEmpty {
            out.send(client, numeric(state, client, .noMotd, "MOTD File is missing"))
            return
        }
        out.send(client, numeric(state, client, .motdStart, "- \(serverName) Message of the day - "))
        for line in config.motd { out.send(client, numeric(state, client, .motd, "- \(line)")) }
        out.send(client, numeric(state, client, .endOfMotd, "End of /MOTD command."))
    }
}
