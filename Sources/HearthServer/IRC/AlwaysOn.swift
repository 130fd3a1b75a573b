import Foundation
import HearthKit
import HearthProtocol
import HearthStore
import Synchronization

/// Always-on accounts (Ergo's bouncer feature): when the last device of such an account leaves,
/// a stand-in takes its place — a `Client` with no connection, marked away — so the user stays
/// in its channels and keeps its nick. The next device to log in takes the stand-in's place
/// unseen (`attachDevice`), and each device gets what was said while it was gone, from history,
/// from where it last left (a read marker per device, `AlwaysOnRules.deviceTarget`). The store
/// keeps each stand-in, so a restart brings them back before anyone connects.
struct AlwaysOnTable {
    /// Accounts' own choices, learnt at login and from `!set always-on` (absent: the operator's).
    var choices: [Int64: Bool] = [:]
    /// Stand-ins of accounts with no device connected, by account.
    var standIns: [Int64: Client] = [:]

    func isOn(_ accountID: Int64, default operatorDefault: Bool) -> Bool {
        choices[accountID] ?? operatorDefault
    }
}

/// Writes that must land in the order they were made (a presence kept, then dropped), each
/// after the one before; `drain` waits for the last, so shutdown closes the store only after.
final class OrderedWrites: Sendable {
    private let last = Mutex<Task<Void, Never>?>(nil)

    func add(_ write: @escaping @Sendable () async -> Void) {
        last.withLock { previous in
            let before = previous
            previous = Task {
                await before?.value
                await write()
            }
        }
    }

    func drain() async { await last.withLock { $0 }?.value }
}

extension Client {
    /// An always-on account's stand-in: no connection of its own, and not another node's user.
    var isStandIn: Bool { if case .remote = socket { !isRemote } else { false } }
    /// Nothing written to it goes anywhere: a user of another node, or a stand-in.
    var hasNoConnection: Bool { if case .remote = socket { true } else { false } }
}

extension Core {
    /// The away message a stand-in shows.
    static let alwaysOnAway = "Away: no device connected (always on)"
    /// Most missed lines replayed to a returning device; earlier ones are left to CHATHISTORY.
    static let maxReplayedLines = 1000

    /// A login name's account and device (`alice@phone`); nil when the device's name is bad.
    static func deviceLogin(_ name: String) -> (account: String, device: String)? { AlwaysOnRules.splitLogin(name) }
    static let deviceNameRule =
        "a device's name (after @) is 1 to \(AlwaysOnRules.maxDeviceNameLength) letters, digits, - or _"

    func isAlwaysOn(_ state: ChatState, _ accountID: Int64) -> Bool {
        state.alwaysOn.isOn(accountID, default: config.alwaysOn)
    }

    /// Ergo's rule: an always-on account's nick is its name, so each device that logs in finds
    /// the one presence (another nick would split it in two once the last device left).
    static let alwaysOnNickRule = "You must use your account name as your nickname while your account is always-on"

    /// The nick an account's always-on presence goes by: its stand-in's (kept from before the
    /// rule, or when the name was taken), else the account's name.
    static func presenceNick(_ state: ChatState, _ account: AccountRef) -> String {
        state.alwaysOn.standIns[account.id].map { state[$0].nick } ?? account.name
    }

    /// A device of an always-on account logging in under another nick takes the presence's, as
    /// Ergo does, and so joins it rather than becoming a second user. Before the welcome the nick
    /// is only noted: `completeRegistration` attaches it to whoever holds it.
    func takePresenceNick(_ state: inout ChatState, _ client: Client, _ account: AccountRef, out: inout Outbox) {
        guard isAlwaysOn(state, account.id) else { return }
        let nick = Self.presenceNick(state, account)
        let key = IRCNames.fold(nick)
        guard state[client].nickKey != key else { return }
        if state[client].registered { return claimNick(&state, client, nick, out: &out) }
        if state.nicks[state[client].nickKey] === client { state.nicks[state[client].nickKey] = nil }
        (state[client].nick, state[client].nickKey) = (nick, key)
        if state.nicks[key] == nil { state.nicks[key] = client }
    }

    /// Whether `client`'s account is always-on and `key` is neither its name nor its presence's nick.
    func mustKeepAccountNick(_ client: Client, _ key: String) -> Bool {
        chat.withLock { state in
            guard let account = state[client].account, isAlwaysOn(state, account.id) else { return false }
            return IRCNames.fold(account.name) != key && IRCNames.fold(Self.presenceNick(state, account)) != key
        }
    }

    /// `client`, the last connection of an always-on account, is leaving: a stand-in with its id
    /// takes its nick and channel places, and peers see it go away instead of quitting. False
    /// (nothing done) when the account is not always-on.
    func keepPresent(_ state: inout ChatState, _ client: Client, out: inout Outbox) -> Bool {
        guard let account = state[client].account, !client.hasNoConnection, state[client].registered,
            isAlwaysOn(state, account.id), state.alwaysOn.standIns[account.id] == nil,
            state.serverBan(on: client, now: config.clock.now()) == nil  // a banned user leaves for good
        else { return false }
        let standIn = makeStandIn(&state, id: client.id, like: state[client])
        state.alwaysOn.standIns[account.id] = standIn
        for key in state[client].channels {
            guard let channel = state.channels[key], let status = channel.members[client.id] else { continue }
            // Same id: the channel's entry is the stand-in's now; other nodes keep the same member.
            channel.remove(client)
            channel.add(standIn, status)
            state[standIn].channels.append(key)
        }
        state[client].channels = []
        if state.nicks[state[client].nickKey] === client { state.nicks[state[client].nickKey] = standIn }
        let away = userMessage(state, standIn, "AWAY", [Self.alwaysOnAway])
        let told = state.peers(of: standIn).filter { state[$0].caps.contains("away-notify") }
        if !told.isEmpty { out.send(told, away) }
        tellNetwork(command: IRCMessage(command: "AWAY", params: [Self.alwaysOnAway]), by: standIn)
        savePresence(state, standIn)
        return true
    }

    /// A stand-in as `user` was (nick, user, host, real name, account), registered and away.
    private func makeStandIn(_ state: inout ChatState, id: Int, like user: ChatUser) -> Client {
        let standIn = Client(
            id: id, socket: .remote(remotePlace.loop), eventLoop: remotePlace.loop, address: user.host,
            batcher: remotePlace.batcher, user: ChatUser(host: user.host, mode: .irc))
        state[standIn].nick = user.nick
        state[standIn].nickKey = user.nickKey
        state[standIn].user = user.user
        state[standIn].realname = user.realname
        state[standIn].account = user.account
        state[standIn].isBot = user.isBot
        state[standIn].away = Self.alwaysOnAway
        state[standIn].registered = true
        return standIn
    }

    /// A device of the account came back (it was attached to the stand-in's place): the stand-in
    /// goes, unseen but for the end of its away, and other nodes forget it.
    func dismissStandIn(_ state: inout ChatState, _ standIn: Client, for client: Client, out: inout Outbox) {
        guard let account = state[standIn].account, state.alwaysOn.standIns[account.id] === standIn else { return }
        state.alwaysOn.standIns[account.id] = nil
        let key = state[standIn].nickKey
        var group = state.deviceGroups[key] ?? []
        group.removeAll { $0 === standIn }
        state.deviceGroups[key] = group.count > 1 ? group : nil
        if state.nicks[key] === standIn { state.nicks[key] = client }
        for channelKey in state[standIn].channels { state.channels[channelKey]?.remove(standIn) }
        state[standIn].channels = []
        state[standIn].registered = false
        tellNetwork(standIn) { .quit($0, reason: "Back") }
        releaseNetworkNick(key, session: standIn.id)
        if state[client].away == nil {
            sendToPeers(
                &state, of: client, withCap: "away-notify", userMessage(state, client, "AWAY", []), out: &out)
            // Other nodes' members see the user back too (they saw the stand-in go away).
            tellNetwork(command: IRCMessage(command: "AWAY", params: []), by: client)
        }
    }

    /// The last device of an always-on account quit with its account turned off, or the account
    /// logged out everywhere: its stand-in quits as the user would have.
    func standInQuits(_ state: inout ChatState, accountID: Int64, reason: String, out: inout Outbox) {
        guard let standIn = state.alwaysOn.standIns.removeValue(forKey: accountID) else { return }
        tellNetwork(standIn) { .quit($0, reason: reason) }
        releaseNetworkNick(state[standIn].nickKey, session: standIn.id)
        rememberNick(&state, standIn)
        out.send(state.peers(of: standIn), userMessage(state, standIn, "QUIT", [reason]))
        announcePresence(&state, standIn, online: false, out: &out)
        for key in state[standIn].channels { removeMember(&state, standIn, from: key) }
        state[standIn].channels = []
        state[standIn].registered = false
        if state.nicks[state[standIn].nickKey] === standIn { state.nicks[state[standIn].nickKey] = nil }
    }

    /// `!set always-on`, or a login telling the account's choice. Turned off with no device
    /// connected, the stand-in quits and the store forgets it.
    func setAlwaysOn(_ state: inout ChatState, accountID: Int64, choice: Bool?, out: inout Outbox) {
        let wasOn = isAlwaysOn(state, accountID)
        state.alwaysOn.choices[accountID] = choice
        if isAlwaysOn(state, accountID) {
            if !wasOn { takeAccountNick(&state, accountID: accountID, out: &out) }
            return
        }
        standInQuits(&state, accountID: accountID, reason: "Always-on turned off", out: &out)
        let store = self.store
        presenceWrites.add { try? await store.dropAlwaysOnPresence(accountID: accountID) }
    }

    /// Always-on turned on: the account's connections under another nick take its name
    /// (`alwaysOnNickRule`).
    private func takeAccountNick(_ state: inout ChatState, accountID: Int64, out: inout Outbox) {
        for other in state.clients.values where state[other].registered {
            guard let account = state[other].account, account.id == accountID else { continue }
            claimNick(&state, other, account.name, out: &out)
        }
    }

    /// A device of an always-on account left: where it got to, for its replay when it is back.
    func noteDeviceLeft(_ state: ChatState, _ client: Client) {
        guard let account = state[client].account, !client.hasNoConnection, state[client].registered,
            isAlwaysOn(state, account.id)
        else { return }
        let (store, target, now) = (self.store, AlwaysOnRules.deviceTarget(client.device), Date())
        Task { _ = try? await store.advanceReadMarker(accountID: account.id, target: target, to: now) }
    }

    /// Brings back the stand-ins the store kept (before the listeners accept anyone): each is in
    /// its channels again, away. An account whose choice is off now, or whose nick someone holds,
    /// is forgotten.
    func loadAlwaysOn() async throws {
        let kept = try await store.alwaysOnPresences()
        let operatorDefault = config.alwaysOn
        var dropped: [Int64] = []
        withState { state, out in
            for entry in kept {
                let presence = entry.presence
                let key = IRCNames.fold(presence.nick)
                guard entry.choice ?? operatorDefault, state.nicks[key] == nil else {
                    dropped.append(presence.accountID)
                    continue
                }
                if let choice = entry.choice { state.alwaysOn.choices[presence.accountID] = choice }
                var user = ChatUser(host: presence.host, mode: .irc)
                (user.nick, user.nickKey, user.user, user.realname) = (
                    presence.nick, key, presence.user, presence.realname
                )
                user.account = AccountRef(id: presence.accountID, name: entry.accountName)
                let standIn = makeStandIn(&state, id: state.newClientID(), like: user)
                // Banned from the server since it was kept: it does not come back.
                if state.serverBan(on: standIn, now: config.clock.now()) != nil {
                    dropped.append(presence.accountID)
                    continue
                }
                state.alwaysOn.standIns[presence.accountID] = standIn
                state.nicks[key] = standIn
                renamedInNetwork(state, standIn, from: "", tell: false)
                tellNetwork(state, user: standIn)
                tellNetwork(command: IRCMessage(command: "AWAY", params: [Self.alwaysOnAway]), by: standIn)
                for name in presence.channels.prefix(IRCLimits.channelsPerUser) {
                    restoreMember(&state, standIn, channel: name)
                }
            }
            _ = out
        }
        for id in dropped { try await store.dropAlwaysOnPresence(accountID: id) }
    }

    /// Puts a restored stand-in in a channel, making the channel if nobody is in it.
    private func restoreMember(_ state: inout ChatState, _ standIn: Client, channel name: String) {
        let folded = IRCNames.fold(name)
        guard IRCNames.isValidChannel(name), state.guarded[folded] == nil else { return }
        let existing = state.channels[folded]
        let channel = existing ?? newChannel(&state, name: name, folded: folded, claim: nil)
        // Banned from the channel while away (a registered channel keeps its bans): not put back.
        if channel.isBanned(state, standIn) { return }
        if existing == nil { state.channels[folded] = channel }
        let owner = state.registered[folded].map { $0.ownerId == state[standIn].account?.id } ?? false
        channel.add(standIn, MemberStatus(op: owner, opByAccount: owner))
        state[standIn].channels.append(folded)
        grantHistory(state, standIn, channel)
        tellNetwork(joined: standIn, channel, op: owner)
    }
}
