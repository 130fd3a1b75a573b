import Foundation
import HearthProtocol
import HearthStore

/// Nick claims that heal (issue 37), on the core's side: what this node's connections hold,
/// users renamed after a collision, and KILL across nodes.
extension Core {
    /// This node's connections' nicks as claims, for a sweep or a claim made again.
    func localNicks() -> LocalNicks {
        guard let network else { return LocalNicks() }
        return chat.withLock { state in
            var nicks = LocalNicks(nextSession: state.nextID)
            for client in state.localUsers where !client.isRemote && !state[client].nickKey.isEmpty {
                let claim = NetworkNick(
                    nickKey: state[client].nickKey, node: network.name, session: client.id,
                    accountID: state[client].account?.id)
                if state[client].registered { nicks.held.append(claim) } else { nicks.pending.append(claim) }
            }
            return nicks
        }
    }

    /// Users whose nick another node's user took while this node was out: each gets its new
    /// nick (claimed already) and a notice saying why, before the other nodes hear of it; the
    /// user who holds the nick now takes its place in this node's table.
    func renameCollided(_ renames: [Int: String]) {
        withState { state, out in
            for (session, nick) in renames {
                guard let client = state.clients[session], state[client].registered else { continue }
                let (old, oldKey) = (state[client].nick, state[client].nickKey)
                setNick(&state, client, to: nick, out: &out)
                let text =
                    "Your nick \(old) was taken by another user while this server was cut off from the network;"
                    + " you are now \(nick). Use /NICK to choose another."
                out.send(client, IRCMessage(source: serverName, command: "NOTICE", params: [nick, text]))
                guard state.nicks[oldKey] == nil,
                    let holder = state.remoteUsers.values.first(where: {
                        state[$0].nickKey == oldKey && state[$0].registered
                    })
                else { continue }
                state.nicks[oldKey] = holder
                announcePresence(&state, holder, online: true, out: &out)
            }
        }
    }

    /// An operator of another node killed `session` of this node: the session ends here, and
    /// its QUIT goes to everyone as any other.
    func killedElsewhere(session: Int, reason: String) {
        guard let target = chat.withLock({ state in state.clients[session] }) else { return }
        end(target, killed: reason)
    }
}
