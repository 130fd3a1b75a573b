import Foundation
import HearthProtocol
import HearthStore

/// REDACT (IRCv3 draft/message-redaction): delete your own message — or, as a channel
/// operator, anyone's in your channel — from history, and tell clients that show it.
extension Core {
    static let redactionCap = "draft/message-redaction"

    func redact(_ client: Client, _ message: IRCMessage) {
        let target = message.params[0]
        let msgid = message.params[1]
        let reason = message.params.count > 2 ? message.params[2] : nil
        let (isOp, account) = chat.withLock { state in
            (
                state.channels[IRCNames.fold(target)]?.members[client.id]?.op == true || state[client].isOper,
                state[client].account
            )
        }
        let store = self.store
        later(
            client,
            { () -> (String?, String) in
                guard let keys = await self.historyTargets(client, target) else { return (nil, "INVALID_TARGET") }
                await self.flushHistory()
                guard let record = try? await store.historyMessage(targets: keys, msgid: msgid) else {
                    return (nil, "UNKNOWN_MSGID")
                }
                let own = account != nil && record.accountID == account?.id
                guard own || (isOp && IRCNames.isChannel(target)) else { return (nil, "REDACT_FORBIDDEN") }
                try? await store.deleteHistoryMessage(targets: keys, msgid: msgid)
                return (keys[0], "")
            }
        ) { (key, code) in
            guard key != nil else {
                let text =
                    [
                        "INVALID_TARGET": "You can't redact messages in \(target)",
                        "UNKNOWN_MSGID": "No message \(msgid) in \(target)",
                        "REDACT_FORBIDDEN": "You may only redact your own messages",
                    ][code] ?? "Redaction failed"
                self.withState { _, out in
                    out.send(
                        client,
                        IRCMessage(
                            source: self.serverName, command: "FAIL",
                            // An invalid target names no message (IRCv3 message-redaction).
                            params: ["REDACT", code, target] + (code == "INVALID_TARGET" ? [] : [msgid]) + [text]))
                }
                return
            }
            self.withState { state, out in
                let redaction = self.userMessage(
                    state, client, "REDACT", [target, msgid] + (reason.map { [$0] } ?? []))
                var audience: [Client]
                if let channel = state.channels[IRCNames.fold(target)] {
                    audience = channel.order
                } else {
                    // Both sides of the conversation: every connection of either account.
                    let ids = HistoryRecord.conversationAccounts(key ?? "")
                    audience = state.clients.values.filter { state[$0].account.map { ids.contains($0.id) } ?? false }
                }
                if !audience.contains(where: { $0 === client }) { audience.append(client) }
                let interested = audience.filter { state[$0].caps.contains(Self.redactionCap) }
                if !interested.isEmpty { out.send(interested, redaction) }
                self.tellNetwork(client) { .redact($0, history: key ?? "", line: redaction) }
            }
        }
    }
}
