import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// What the bot's answers do to connections (`SessionEffect`), applied inside the chat lock.
extension Core {
    /// Applies `effect` here and tells the other nodes: the one path for a chat command's answer
    /// and a web form's (`client` nil), so `!logout all` and "sign out everywhere" reach every node.
    func applyEverywhere(_ state: inout ChatState, _ effect: SessionEffect, for client: Client?, out: inout Outbox) {
        apply(&state, effect, for: client, out: &out)
        tellNetwork(state, effect: effect, by: client)
    }

    /// `client` is nil for a web form's command: it has no connection to log in or out.
    func apply(_ state: inout ChatState, _ effect: SessionEffect, for client: Client?, out: inout Outbox) {
        switch effect {
        case .login(let account, let tokenHash):
            if let client { logIn(&state, client, account, tokenHash: tokenHash, out: &out) }
        case .logout:
            if let client { logOut(&state, client, note: nil, out: &out) }
        case .logoutEverywhere(let id, let keep):
            if keep == nil { standInQuits(&state, accountID: id, reason: "Logged out", out: &out) }
            for other in state.clients.values where state[other].account?.id == id && other.id != keep {
                logOut(
                    &state, other, note: other === client ? nil : "You were logged out from another connection.",
                    out: &out)
            }
        case .notify(let id, let text):
            notify(&state, accountID: id, text: text, out: &out)
        case .blocks(let id, let blocked):
            state.blocking[id] = blocked.isEmpty ? nil : blocked
        case .channelOwned(let record):
            state.registered[record.nameKey] = record
            if let channel = state.channels[record.nameKey] {
                renewHistoryKey(&state, channel)
                keepLists(&state, channel)
            }
        case .channelDropped(let key):
            state.registered[key] = nil
            forgetKeptLists(&state, nameKey: key)
            retireHistory(&state, of: key, keepFor: client.flatMap { state[$0].account }.map { [$0.id] } ?? [])
        case .channelAccess(let key, let id, let level):
            state.moderation.access[key, default: [:]][id] = level
        case .remind(let id, let at, let text):
            scheduleReminder(accountID: id, at: at, text: text)
        case .push(let note):
            push(note)
        case .captureLines(let id, let on):
            for other in state.clients.values where state[other].account?.id == id {
                state[other].linesToBot = on
                state[other].linesToBotTouched = config.clock.now()
            }
        case .guardedChannel(let guest):
            guardChannel(&state, guest, out: &out)
        case .joinChannels(let id, let names):
            for other in state.clients.values where state[other].account?.id == id && state[other].registered {
                for name in names { other.eventLoop.execute { self.joinOne(other, name: name, key: nil) } }
            }
        case .channelMessage(let key, let text):
            guard let channel = state.channels[key] else { return }
            sayInChannel(text, channel, state, out: &out)
        case .accountGone(let id):
            standInQuits(&state, accountID: id, reason: "Account deleted", out: &out)
            let owned = state.registered.filter { $0.value.ownerId == id }.keys
            state.registered = state.registered.filter { $0.value.ownerId != id }
            for key in owned {
                forgetKeptLists(&state, nameKey: key)  // the next owner of the name inherits no grants
                retireHistory(&state, of: key, keepFor: [])
            }
            state.blocking[id] = nil
        case .profile(let id, let fields):
            loadProfile(&state, accountID: id, fields)
        case .botFlag(let id, let isBot):
            setBotFlag(&state, accountID: id, isBot, out: &out)
        case .alwaysOn(let id, let choice):
            setAlwaysOn(&state, accountID: id, choice: choice, out: &out)
        case .renamed(let id, let newName):
            renameAccount(&state, accountID: id, to: newName, out: &out)
        }
    }

    /// A family's channel: its topic is the family's, and whoever is no longer a member leaves.
    private func guardChannel(_ state: inout ChatState, _ guest: GuardedChannel, out: inout Outbox) {
        let key = IRCNames.fold(guest.name)
        state.guarded[key] = guest
        guard let channel = state.channels[key] else { return }
        channel.topic = guest.topic
        for member in channel.order where !(state[member].account.map { guest.members.contains($0.id) } ?? false) {
            leave(
                &state, member, channel,
                userMessage(state, member, "PART", [channel.name, "No longer in \(guest.owner)"]), out: &out)
        }
    }

    /// `!set bot on|off`: every connection of the account changes, and IRC ones see their +B/-B.
    private func setBotFlag(_ state: inout ChatState, accountID id: Int64, _ isBot: Bool, out: inout Outbox) {
        for other in state.clients.values where state[other].account?.id == id && state[other].isBot != isBot {
            state[other].isBot = isBot
            if state[other].mode == .irc && state[other].registered {
                out.send(
                    other,
                    IRCMessage(
                        source: state[other].prefix, command: "MODE", params: [state[other].nick, isBot ? "+B" : "-B"]))
            }
        }
    }

    /// An account's new name: its connections are told (900, account-notify to peers), and one that
    /// went by the old name takes the new one.
    private func renameAccount(_ state: inout ChatState, accountID id: Int64, to newName: String, out: inout Outbox) {
        for other in state.clients.values where state[other].account?.id == id {
            let oldKey = IRCNames.fold(state[other].account!.name)
            state[other].account!.name = newName
            if state[other].mode == .irc {
                out.send(
                    other,
                    numeric(
                        state, other, .loggedIn, state[other].prefix, newName, "You are now logged in as \(newName)"))
            }
            sendToPeers(
                &state, of: other, withCap: "account-notify", userMessage(state, other, "ACCOUNT", [newName]), out: &out
            )
            if state[other].nickKey == oldKey { claimNick(&state, other, newName, out: &out) }
        }
    }
}
