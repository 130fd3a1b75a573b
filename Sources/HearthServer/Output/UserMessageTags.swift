import Foundation
import HearthKit
import HearthProtocol
import NIOCore

/// The delivery rules of a message a user sends (PRIVMSG, NOTICE, JOIN, NICK, …), in one place
/// for its three writers: `Core.userMessage` makes an `IRCMessage` of them, which `Outbox`
/// serialises once per variant; `FastRelay` writes them as bytes straight into the recipient's
/// output. Which tags a message carries (those some receiver's caps ask for, and a msgid history
/// keeps), which cap each needs, what echo-message adds, and which share each receiver gets.
struct UserMessageTags {
    /// The tags to make: those the receivers' caps ask for, and with echo-message the sender's
    /// own (it gets the message back).
    @inline(__always)
    static func wanted(by receivers: TagMask, sender: TagMask, echo: Bool) -> TagMask {
        echo ? receivers.union(sender) : receivers
    }

    /// The share of a message's tags (`carried`) a receiver whose caps select `receiver` gets.
    @inline(__always)
    static func variant(_ carried: TagMask, for receiver: TagMask) -> TagMask {
        receiver.intersection(carried)
    }

    /// When it was sent (the `time` tag and history agree to the millisecond); not read when
    /// neither needs it.
    let now: Date
    private var time: String?
    private(set) var msgid: String?
    private var bot = false
    private var account: String?
    /// `account` escaped for the wire once, not per receiver.
    private var accountWire: String?
    /// The tag bits present.
    private(set) var mask: TagMask = []

    /// `wanted`: what some receiver asked for; `keep`: history keeps the message (it needs a
    /// msgid whoever sees it). `msgid` and `at` when the caller made them already.
    init(isBot: Bool, account: AccountRef?, wanted: TagMask, keep: Bool, msgid: String? = nil, at: Date? = nil) {
        now = at ?? (wanted.contains(.serverTime) || keep ? MessageStamp.now() : Date(timeIntervalSince1970: 0))
        if wanted.contains(.serverTime) {
            time = MessageStamp.time(now)
            mask.insert(.serverTime)
        }
        // A msgid is made only when someone sees it or history keeps it.
        if keep || wanted.contains(.messageTags) { self.msgid = msgid ?? MessageStamp.msgid() }
        if wanted.contains(.messageTags) {
            bot = isBot
            mask.insert(.messageTags)
        }
        if wanted.contains(.accountTag), let name = account?.name {
            self.account = name
            accountWire = IRCMessage.escapeTagValue(name)
            mask.insert(.accountTag)
        }
    }

    /// As IRC tags, in the order they are written; the sender's own client-only tags go with
    /// `msgid` (message-tags).
    func ircTags(clientTags: [IRCTag] = []) -> [IRCTag] {
        var tags: [IRCTag] = []
        if let time { tags.append(IRCTag("time", time)) }
        if mask.contains(.messageTags) {
            if let msgid { tags.append(IRCTag("msgid", msgid)) }
            if bot { tags.append(IRCTag("bot")) }
            tags += clientTags
        }
        if let account { tags.append(IRCTag("account", account)) }
        return tags
    }

    /// The tag section `variant` (a receiver's share of `mask`) selects, written as the
    /// serializer writes `ircTags()` filtered for it (FastRelayTests compares the bytes).
    func write(into buffer: inout ByteBuffer, variant: TagMask) {
        guard !variant.isEmpty else { return }
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
        if variant.contains(.accountTag), let accountWire { tag("account", accountWire) }
        if !first { buffer.writeStaticString(" ") }
    }
}
