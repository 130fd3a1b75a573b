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
    /// nothing. For registered IRC-mode clients only.
    func relayFast(_ client: Client, _ raw: UnsafeRawBufferPointer) -> Bool {
        guard let line = RelayLine.scan(raw) else { return false }
        let target = UnsafeRawBufferPointer(rebasing: raw[line.target])
        let key = IRCNames.fold(String(decoding: target, as: UTF8.self))
        let text = UnsafeRawBufferPointer(rebasing: raw[line.text])
        if target[0] == UInt8(ascii: "#") {
            // A command for the bot (or one carrying a secret) is the full path's.
            return !line.looksLikeCommand && relayToChannel(client, line, key: key, text: text)
        }
        if key == Bot.nick || key == "nickserv" { return false }
        let delivered = lock.withLock { () -> Int? in
            guard let recipient = nicks[key], recipient.registered, recipient !== client, !recipient.isRemote,
                !recipient.isPlain, deviceGroups.isEmpty, !isBlocked(client, by: recipient),
                line.command == .notice || recipient.away == nil
            else { return nil }
            guard RelayedMessage.fits(source: client.prefix, line.command, target: recipient.nick, text) else {
                return nil
            }
            client.lastMessageAt = Date()
            let echo = client.echoes
            let wanted = recipient.tagMask.union(echo ? client.tagMask : [])
            // Conversations between two accounts are kept (guests have no lasting identity).
            let kept = client.account.flatMap { from in recipient.account.map { (from.id, $0.id) } }
            let message = RelayedMessage(
                tags: RelayTags(client, wanted: wanted, keep: kept != nil), source: client.prefix,
                command: line.command, target: recipient.nick, text: text)
            let tags = message.tags.mask
            let variant = recipient.tagMask.intersection(tags)
            if recipient.eventLoop.inEventLoop {
                recipient.batcher.write(recipient, message, variant: variant)
            } else {
                recipient.batcher.handOver(to: recipient, message, variant: variant)
            }
            if let (from, to) = kept, let msgid = message.tags.msgid {
                recordHistory(
                    HistoryRecord(
                        target: HistoryRecord.conversation(from, to), msgid: msgid, source: client.prefix,
                        accountID: from, command: line.commandName, text: String(decoding: text, as: UTF8.self),
                        createdAt: message.tags.now))
            }
            guard echo else { return 1 }
            client.batcher.write(client, message, variant: client.tagMask.intersection(tags))
            return 2
        }
        guard let delivered else { return false }
        client.batcher.countRelayed(line.command, deliveries: delivered)
        return true
    }
}

extension Core {
    /// A channel message, relayed as `Core.send` would: to every member but the sender, with
    /// the tags each asked for, one buffer per tag variant shared by all members, handed to
    /// each other loop once; kept in history; echoed. Channels with members in plain mode or on
    /// other nodes, and senders it refuses, take the full path.
    private func relayToChannel(
        _ client: Client, _ line: RelayLine, key: String, text: UnsafeRawBufferPointer
    ) -> Bool {
        var local: Outbox.Delivery?
        let delivered = lock.withLock { () -> Int? in
            guard let channel = channels[key], channel.remoteCount == 0, channelRefusal(client, channel) == nil
            else { return nil }
            let members = channel.membersByLoop()
            guard members.plain.isEmpty,
                RelayedMessage.fits(source: client.prefix, line.command, target: channel.name, text)
            else { return nil }
            client.lastMessageAt = Date()
            let echo = client.echoes
            let message = RelayedMessage(
                tags: RelayTags(client, wanted: members.tagMask.union(echo ? client.tagMask : []), keep: true),
                source: client.prefix, command: line.command, target: channel.name, text: text)
            let mask = message.tags.mask
            var wires: [ByteBuffer?] = []
            func wire(_ variant: TagMask) -> ByteBuffer {
                let index = Int(variant.rawValue)
                if wires.count <= index { wires += Array(repeating: nil, count: index + 1 - wires.count) }
                if let made = wires[index] { return made }
                var buffer = ByteBufferAllocator().buffer(capacity: 64 + text.count)
                message.write(into: &buffer, variant: variant)
                wires[index] = buffer
                return buffer
            }
            var count = 0
            for group in members.irc {
                let delivery: Outbox.Delivery
                if mask.isEmpty || group.masks == [[]] {
                    delivery = .many(wire([]), group.clients, except: client)
                } else {
                    for member in group.masks { _ = wire(member.intersection(mask)) }
                    delivery = .tagged(wires, mask, group.clients, except: client)
                }
                count += group.clients.count - (group.clients.contains { $0 === client } ? 1 : 0)
                if group.loop.inEventLoop { local = delivery } else { group.clients[0].batcher.handOver(delivery) }
            }
            if let msgid = message.tags.msgid {
                recordHistory(
                    HistoryRecord(
                        target: channel.historyKey, msgid: msgid, source: client.prefix,
                        accountID: client.account?.id, command: line.commandName,
                        text: String(decoding: text, as: UTF8.self), createdAt: message.tags.now))
            }
            guard echo else { return count }
            client.batcher.write(client, message, variant: client.tagMask.intersection(mask))
            return count + 1
        }
        guard let delivered else { return false }
        local?.write()
        client.batcher.countRelayed(line.command, deliveries: delivered)
        return true
    }
}

/// A relayed message: `:source COMMAND target :text` as the serializer writes a user message,
/// after the tags each receiver's caps select.
struct RelayedMessage {
    let tags: RelayTags
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

/// The tags a relayed message carries (as `Core.userMessage` makes them: time, msgid, bot,
/// account), made only when some receiver asked for them or history keeps the message.
struct RelayTags {
    let now: Date
    private var time: String?
    private(set) var msgid: String?
    private var bot = false
    private var account: String?
    /// The tag bits present; each receiver sees its own caps' share of them.
    private(set) var mask: TagMask = []

    init(_ client: Client, wanted: TagMask, keep: Bool) {
        now = wanted.contains(.serverTime) || keep ? MessageStamp.now() : Date(timeIntervalSince1970: 0)
        if wanted.contains(.serverTime) {
            time = MessageStamp.time(now)
            mask.insert(.serverTime)
        }
        // A msgid is made only when someone sees it or history keeps it.
        if keep || wanted.contains(.messageTags) { msgid = MessageStamp.msgid() }
        if wanted.contains(.messageTags) {
            bot = client.isBot
            mask.insert(.messageTags)
        }
        if wanted.contains(.accountTag), let name = client.account?.name {
            account = IRCMessage.escapeTagValue(name)
            mask.insert(.accountTag)
        }
    }

    /// The tag section `variant` (a receiver's caps within `mask`) selects, if any.
    func write(into buffer: inout ByteBuffer, variant: TagMask) {
        if !variant.isEmpty {
            var first = true
            func tag(_ key: StaticString, _ value: String?) {
                buffer.writeStaticString(first ? "@" : ";")
                first = false
                buffer.writeStaticString(key)
                if let value {
                    buffer.writeStaticString("=")
                    buffer.writeString(value)
                }
            }
            if variant.contains(.serverTime), let time { tag("time", time) }
            if variant.contains(.messageTags), let msgid {
                tag("msgid", msgid)
                if bot { tag("bot", nil) }
            }
            if variant.contains(.accountTag), let account { tag("account", account) }
            if !first { buffer.writeStaticString(" ") }
        }
    }
}
