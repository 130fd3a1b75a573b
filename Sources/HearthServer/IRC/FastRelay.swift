import Foundation
import HearthKit
import HearthProtocol
import HearthStore
import NIOCore

/// The fast path for the commonest line: PRIVMSG or NOTICE from one user to another on this
/// node. The outgoing line is written from the sender's prefix and slices of the input straight
/// into the recipient's output (or its loop's hand-over bytes): no `IRCMessage`, no `String` for
/// the text, no outbox. Whatever needs more than a relay — a reply (no such nick, blocked, away),
/// the bot, another node, devices sharing a nick, plain mode, a text that must be shortened,
/// tags from the client, channels — goes to the full path, which this must match byte for byte.
extension Core {
    /// Relays `raw` (one line without CR LF) and returns true, or returns false having changed
    /// nothing (also for a client that is not a registered IRC-mode user). `route` is set to the
    /// sender's route when it took the chat lock, so the full path need not take it again.
    func relayFast(_ client: Client, _ raw: UnsafeRawBufferPointer, route: inout LineRoute?) -> Bool {
        guard let line = RelayLine.scan(raw) else { return false }
        let target = UnsafeRawBufferPointer(rebasing: raw[line.target])
        // Channels keep the full path: measured, a relay saved nothing beside 10 to 200 deliveries.
        if target[0] == UInt8(ascii: "#") { return false }
        let key = IRCNames.fold(String(decoding: target, as: UTF8.self))
        if key == Bot.nick || key == "nickserv" { return false }
        let text = UnsafeRawBufferPointer(rebasing: raw[line.text])
        let (delivered, read) = chat.withLock { state -> (Int?, LineRoute) in
            let route = state.route(of: client)
            return (relay(&state, client, route, line, key: key, text: text), route)
        }
        route = read
        guard let delivered else { return false }
        client.batcher.countRelayed(line.command, deliveries: delivered)
        return true
    }

    /// The relay itself, under the lock: how many messages it wrote, or nil to decline.
    private func relay(
        _ state: inout ChatState, _ client: Client, _ route: LineRoute, _ line: RelayLine, key: String,
        text: UnsafeRawBufferPointer
    ) -> Int? {
        guard route.registered, route.mode == .irc, let recipient = state.nicks[key],
            state[recipient].registered, recipient !== client, !recipient.hasNoConnection, !state[recipient].isPlain,
            state.deviceGroups.isEmpty, !state.isBlocked(client, by: recipient),
            line.command == .notice || state[recipient].away == nil
        else { return nil }
        let source = state[client].prefix
        guard RelayedMessage.fits(source: source, line.command, target: state[recipient].nick, text) else {
            return nil
        }
        state[client].lastMessageAt = Date()
        let echo = state[client].echoes
        let senderMask = state[client].tagMask
        let recipientMask = state[recipient].tagMask
        let wanted = UserMessageTags.wanted(by: recipientMask, sender: senderMask, echo: echo)
        // Conversations between two accounts are kept (guests have no lasting identity).
        let account = state[client].account
        let kept = account.flatMap { from in state[recipient].account.map { (from.id, $0.id) } }
        let message = RelayedMessage(
            tags: UserMessageTags(isBot: state[client].isBot, account: account, wanted: wanted, keep: kept != nil),
            source: source, command: line.command, target: state[recipient].nick, text: text)
        let tags = message.tags.mask
        let variant = UserMessageTags.variant(tags, for: recipientMask)
        if recipient.eventLoop.inEventLoop {
            recipient.batcher.write(recipient, message, variant: variant)
        } else {
            recipient.batcher.handOver(to: recipient, message, variant: variant, from: client.eventLoop)
        }
        if let kept, let msgid = message.tags.msgid {
            recordConversation(
                kept, source: source, msgid: msgid, command: line.commandName,
                text: String(decoding: text, as: UTF8.self), at: message.tags.now)
        }
        guard echo else { return 1 }
        client.batcher.write(client, message, variant: UserMessageTags.variant(tags, for: senderMask))
        return 2
    }
}

/// A relayed message: `:source COMMAND target :text` as the serializer writes a user message,
/// after the tags each receiver's caps select (`UserMessageTags`: the rules are the full path's).
struct RelayedMessage {
    let tags: UserMessageTags
    let source: String
    let command: RelayLine.Command
    let target: String
    let text: UnsafeRawBufferPointer

    /// Whether the body is within the limit as it is (the full path shortens the text otherwise).
    static func fits(source: String, _ command: RelayLine.Command, target: String, _ text: UnsafeRawBufferPointer)
        -> Bool
    {
        let fixed = source.utf8.count + target.utf8.count + (command == .privmsg ? 7 : 6) + 5
        return fixed + text.count <= IRCLimits.maxBodyBytes - 2
    }

    func write(into buffer: inout ByteBuffer, variant: TagMask) {
        tags.write(into: &buffer, variant: variant)
        buffer.writeStaticString(":")
        buffer.writeString(source)
        buffer.writeStaticString(command == .privmsg ? " PRIVMSG " : " NOTICE ")
        buffer.writeString(target)
        buffer.writeStaticString(" :")
        buffer.writeBytes(text)
        buffer.writeStaticString("\r\n")
    }
}
