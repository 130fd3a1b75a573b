import Foundation
import HearthStore

extension ChatState {
    /// This node's users as the network sees them: its connections and its always-on stand-ins
    /// (no connection, but a nick and places in channels that other nodes must learn of too).
    var localUsers: [Client] { Array(clients.values) + Array(alwaysOn.standIns.values) }
}

extension Core {
    /// Keeps where `standIn` is now (made by `keepPresent`, or taken out of a channel by a KICK
    /// since), so that a restart brings it back there and nowhere else. Under the lock.
    func savePresence(_ state: ChatState, _ standIn: Client) {
        guard let account = state[standIn].account, state.alwaysOn.standIns[account.id] === standIn else { return }
        let presence = AlwaysOnPresence(
            accountID: account.id, nick: state[standIn].nick, user: state[standIn].user, host: state[standIn].host,
            realname: state[standIn].realname,
            channels: state[standIn].channels.compactMap { state.channels[$0]?.name }, since: Date())
        let (store, logger) = (self.store, self.logger)
        presenceWrites.add {
            do { try await store.keepAlwaysOnPresence(presence) } catch {
                logger.error("keeping \(account.name)'s always-on presence failed: \(error)")
            }
        }
    }

    /// The stand-in of this node with connection id `session`, if any.
    func standIn(_ state: ChatState, session: Int) -> Client? {
        state.alwaysOn.standIns.values.first { $0.id == session }
    }
}
