import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// The bot seen from the chat: a command runs off the event loop, its answer goes to the
/// channel it was said in (group sessions) or privately, and its effects are applied.
/// An answer said in a channel to everyone there is kept in its history like anyone's line (else
/// history and replays read one-sided: the `!shop`s without their answers); one sent to the
/// caller alone is not, and a long answer goes to the caller alone.
extension Core {
    /// The most lines a command's answer may put in a channel; a longer one (a listing) is sent
    /// to the caller privately.
    static let maxChannelReplyLines = 4

    func botMessage(to target: String, _ text: String) -> IRCMessage {
        IRCMessage(source: botPrefix, command: "PRIVMSG", params: [target, text])
    }

    /// The bot's line to everyone in `channel`, kept in its history as theirs are.
    func sayInChannel(_ text: String, _ channel: ChannelState, _ state: ChatState, out: inout Outbox) {
        out.send(state, channel, botMessage(to: channel.name, text))
        recordHistory(
            HistoryRecord(
                target: channel.historyKey, msgid: MessageStamp.msgid(), source: botPrefix, command: "PRIVMSG",
                text: text, createdAt: Date()))
    }

    /// Asks the bot; its answer goes to the channel (group sessions) or privately.
    func runBot(_ client: Client, text: String, channel channelKey: String?, requireBang: Bool) {
        let caller = chat.withLock { state in
            state.caller(client, channel: channelKey.flatMap { state.channels[$0]?.name })
        }
        later(client, { [bot] in await bot.handle(text, caller: caller, presence: self, requireBang: requireBang) }) {
            response in
            guard let response else { return }
            if response.lineIsChat, self.chat.withLock({ state in state[client].isPlain }) {
                self.plainChat(client, text)
            }
            self.withState { state, out in
                // Notices to the caller come after the answer they follow from (a first-visit bonus
                // after "your account is ready"); every other effect before it (a login changes the
                // nick it is sent to).
                var notices: [SessionEffect] = []
                for effect in response.effects {
                    if case .notify(let id, _) = effect, id == state[client].account?.id {
                        notices.append(effect)
                        continue
                    }
                    self.applyEverywhere(&state, effect, for: client, out: &out)
                }
                let lines = response.lines.flatMap { TextSplitter.split($0) }
                if channelKey == nil, let failure = response.failure, state[client].caps.contains("standard-replies") {
                    // A private failure as a standard reply, for clients that show them as errors.
                    for line in lines {
                        out.send(
                            client,
                            IRCMessage(
                                source: self.serverName, command: "FAIL", params: [failure.command, failure.code, line])
                        )
                    }
                } else if let channelKey, let channel = state.channels[channelKey], channel.members[client.id] != nil,
                    lines.count <= Self.maxChannelReplyLines
                {
                    // (A caller the command took out of the channel gets the answer privately.)
                    for line in lines {
                        self.sayInChannel(line, channel, state, out: &out)
                        if channel.remoteCount > 0 { self.forwardBotLine(line, to: channel.name) }
                    }
                } else {
                    for line in lines { out.send(client, self.botMessage(to: state[client].nick, line)) }
                }
                for line in response.privateLines.flatMap({ TextSplitter.split($0) }) {
                    out.send(client, self.botMessage(to: state[client].nick, line))
                }
                for effect in notices {
                    self.applyEverywhere(&state, effect, for: client, out: &out)
                }
            }
            if response.effects.contains(where: { if case .login = $0 { return true } else { return false } }) {
                self.deliverKept(client)
            }
        }
    }
}
