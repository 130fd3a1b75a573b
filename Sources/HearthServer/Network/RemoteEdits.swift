import HearthProtocol
import HearthStore

/// Edits and redactions made on another node (its user's node checked and stored them): shown
/// to this node's clients as a local EDIT or REDACT would be.
extension Core {
    /// Shows `line`, an EDIT as clients with the cap read it, to this node's clients in its audience.
    func showRemoteEdit(
        _ state: inout ChatState, _ line: IRCMessage, from origin: RemoteOrigin, history: String,
        out: inout Outbox
    ) {
        guard let author = state.remoteUsers[origin], let target = line.params.first else { return }
        if let channel = state.channels[IRCNames.fold(target)], IRCNames.isChannel(target) {
            if let ref = line.tag(Self.editTargetTag), let text = line.tag(Self.editTextTag) {
                channel.recent.edit(ref, text: text)
            }
            for receiver in channel.order where !receiver.hasNoConnection {
                out.send(receiver, editLine(state, receiver, line))
            }
            return
        }
        for receiver in conversationAudience(state, history) where !state.isBlocked(author, by: receiver) {
            var shown = line
            shown.params = [privateEditTarget(state, receiver, author: author, to: target)]
            out.send(receiver, editLine(state, receiver, shown))
        }
    }

    /// Shows `line`, a REDACT, to this node's clients in its audience that asked for redactions.
    func showRemoteRedaction(
        _ state: inout ChatState, _ line: IRCMessage, from origin: RemoteOrigin, history: String,
        out: inout Outbox
    ) {
        guard state.remoteUsers[origin] != nil, let target = line.params.first else { return }
        let audience =
            IRCNames.isChannel(target)
            ? state.channels[IRCNames.fold(target)]?.order ?? [] : conversationAudience(state, history)
        let interested = audience.filter { !$0.hasNoConnection && state[$0].caps.contains(Self.redactionCap) }
        if !interested.isEmpty { out.send(interested, line) }
    }

    /// This node's connections of either account of a conversation (`HistoryRecord.conversation`).
    private func conversationAudience(_ state: ChatState, _ history: String) -> [Client] {
        let ids = HistoryRecord.conversationAccounts(history)
        return state.clients.values.filter { client in
            !client.isRemote && state[client].registered && state[client].account.map { ids.contains($0.id) } == true
        }
    }
}
