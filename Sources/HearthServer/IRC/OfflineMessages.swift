import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// Private messages to accounts that are offline: kept, and delivered at the next login.
extension Core {
    /// A private message to someone not online: kept if they have an account (and the
    /// sender is logged in), otherwise 401.
    func keepForLater(_ client: Client, target: String, text: String) {
        guard let sender = chat.withLock({ state in state[client].account }), IRCNames.isValidNick(target) else {
            let guest = chat.withLock { state in state[client].account } == nil && IRCNames.isValidNick(target)
            reply(
                client, .noSuchNick, target,
                guest
                    ? "No such nick/channel (log in to leave messages for people who are offline)"
                    : "No such nick/channel")
            return
        }
        let store = self.store
        later(
            client,
            {
                try? await store.keepOfflineMessage(
                    recipientKey: IRCNames.fold(target), senderID: sender.id, senderName: sender.name, text: text)
            }
        ) { result in
            switch result {
            case .stored:
                self.pushKeptMessage(from: sender, toKey: IRCNames.fold(target), text: text)
                self.withState { state, out in
                    self.notice(
                        state,
                        client, "\(target) is offline; they will get your message when they next log in.", out: &out)
                }
            case .inboxFull:
                self.withState { state, out in
                    self.notice(
                        state,
                        client,
                        "\(target) is offline and has \(StoreLimits.maxOfflineMessages) messages waiting already; "
                            + "yours was not kept.",
                        out: &out)
                }
            case .blocked:
                self.reply(client, .cannotSendToUser, target, "\(target) does not accept messages from you")
            case .noSuchAccount, nil:
                self.reply(client, .noSuchNick, target, "No such nick/channel")
            }
        }
    }

    /// Delivers the messages kept while the account was offline, with their original time.
    func deliverKept(_ client: Client) {
        replayMissed(client)
        guard let account = chat.withLock({ state in state[client].account }) else { return }
        let store = self.store
        later(client, { (try? await store.takeOfflineMessages(for: account.id)) ?? [] }) { messages in
            guard !messages.isEmpty else { return }
            self.withState { state, out in
                self.replay(
                    state,
                    client,
                    messages.map {
                        (
                            "\($0.senderName)!\($0.senderName)@\(self.serverName)", "PRIVMSG", state[client].nick,
                            $0.text,
                            $0.createdAt
                        )
                    },
                    out: &out)
            }
        }
    }
}
