import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// Logging a connection in and out: its account, its nick, its peers told.
extension Core {
    func logIn(_ state: inout ChatState, _ client: Client, _ account: AccountRef, tokenHash: String?, out: inout Outbox)
    {
        if let old = state[client].account, old.id != account.id {
            // Another account now: no longer a device of the old one's user, nor in its channels.
            if !detachDevice(&state, client, tell: true, out: &out) { leaveAccountChannels(&state, client, out: &out) }
        }
        state[client].account = account
        state[client].tokenHash = tokenHash
        // The other nodes learn the account before the rename and joins the login brings: with the
        // account still unknown there, the device became a second "ann" instead of one more device.
        if state[client].registered { tellNetwork(state, user: client) }
        if state[client].mode == .irc {
            out.send(
                client,
                numeric(
                    state, client, .loggedIn, state[client].prefix, account.name,
                    "You are now logged in as \(account.name)"))
        }
        sendToPeers(
            &state, of: client, withCap: "account-notify", userMessage(state, client, "ACCOUNT", [account.name]),
            out: &out)
        for key in state[client].channels {
            if let channel = state.channels[key] { grantHistory(state, client, channel) }
        }
        // An always-on presence kept under another nick (from before the rule, or when the name was
        // taken): the device joins it there rather than becoming a second user.
        claimNick(&state, client, Self.presenceNick(state, account), out: &out)
    }

    /// Gives a logged-in connection its account's nick; a guest squatting on it moves aside.
    func claimNick(_ state: inout ChatState, _ client: Client, _ name: String, out: inout Outbox) {
        let key = IRCNames.fold(name)
        if state[client].nickKey == key {
            if state[client].nick != name { setNick(&state, client, to: name, out: &out) }
            return
        }
        if let holder = state.nicks[key], holder !== client {
            if state[holder].account != nil && state[holder].account?.id == state[client].account?.id {
                if state.canShareNick(client, with: holder) {
                    attachDevice(&state, client, to: holder, out: &out)
                } else {
                    notice(
                        state,
                        client,
                        "\(state[holder].nick) is in use on \(Self.maxDevicesPerUser) connections already; this one "
                            + "stays \(state[client].nick).",
                        out: &out)
                }
                return
            }
            if holder.isRemote {
                // Only its own node may rename a user; that is rare enough to leave to the user.
                notice(
                    state,
                    client,
                    "\(state[holder].nick) is in use on another node; this connection stays \(state[client].nick).",
                    out: &out
                )
                return
            }
            let guest = state.freeGuestNick()
            setNick(&state, holder, to: guest, out: &out)
            notice(
                state,
                holder, "The nick \(name) belongs to an account that just logged in; you are now \(guest).", out: &out)
        }
        setNick(&state, client, to: name, out: &out)
    }

    func logOut(_ state: inout ChatState, _ client: Client, note: String?, out: inout Outbox) {
        guard let account = state[client].account else { return }
        state[client].account = nil
        state[client].tokenHash = nil
        // First the other nodes hear it is no one's device now, then its new nick: renamed while still
        // in the group there, it took the whole user (the devices that stayed) with it.
        if state[client].registered { tellNetwork(state, user: client) }
        if state[client].isBot {
            state[client].isBot = false
            if state[client].mode == .irc {
                out.send(
                    client,
                    IRCMessage(source: state[client].prefix, command: "MODE", params: [state[client].nick, "-B"]))
            }
        }
        sendToPeers(
            &state, of: client, withCap: "account-notify", userMessage(state, client, "ACCOUNT", ["*"]), out: &out)
        if state[client].mode == .irc {
            out.send(client, numeric(state, client, .loggedOut, state[client].prefix, "You are now logged out"))
        }
        // A device sharing the account's nick leaves the user's channels and the nick.
        let detached = detachDevice(&state, client, tell: true, out: &out)
        if !detached { leaveAccountChannels(&state, client, out: &out) }
        if detached || state[client].isPlain || state[client].nickKey == IRCNames.fold(account.name) {
            let guest = state.freeGuestNick()
            setNick(&state, client, to: guest, out: &out)
        }
        if let note { notice(state, client, note, out: &out) }
    }

    /// The connection stops being its account: it leaves, with a PART everyone sees, each
    /// channel only that account let it into (a family's, a registered channel it owns or whose
    /// modes admit that account), so a logged-out phone reads and writes there no more; where
    /// it stays, it gives up, with a MODE everyone sees, the status the account gave it (a
    /// registered channel's owner's operator status). Its own node does it for a user of another
    /// node.
    func leaveAccountChannels(_ state: inout ChatState, _ client: Client, out: inout Outbox) {
        guard !client.isRemote else { return }
        for key in state[client].channels {
            guard let channel = state.channels[key], let status = channel.members[client.id] else { continue }
            if status.byAccount {
                let part = userMessage(state, client, "PART", [channel.name, "Logged out"])
                // Plain lines are rendered when written, after the nick has changed: its own PART
                // would read as someone else's leaving, so it is told in words.
                leave(&state, client, channel, part, except: state[client].isPlain ? client : nil, out: &out)
                if state[client].isPlain { notice(state, client, "You left \(channel.name).", out: &out) }
            } else if status.op && status.opByAccount {
                channel.members[client.id]?.op = false
                channel.members[client.id]?.opByAccount = false
                let deop = userMessage(state, client, "MODE", [channel.name, "-o", state[client].nick])
                out.send(state, channel, deop)
                tellNetwork(command: deop, by: client)
            }
        }
    }
}
