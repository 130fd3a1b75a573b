import Foundation
import HearthProtocol
import HearthStore

/// The client-only tags history keeps with a message: IRCv3's `+draft/react` and
/// `+draft/reply` client tags (ircv3.net/specs/client-tags/react and …/reply). Others
/// (`+typing`) are relayed as before but not kept. Stored as the wire's tag section.
enum KeptTags {
    static let react = "+draft/react"
    static let reply = "+draft/reply"
    /// CAP that asks for events (TAGMSG, TOPIC) in CHATHISTORY batches (IRCv3 chathistory's
    /// `draft/event-playback`); without it a client gets the messages only.
    static let eventPlaybackCap = "draft/event-playback"

    /// The tags of `tags` that history keeps, in their order.
    @inline(__always)
    static func kept(_ tags: [IRCTag]) -> [IRCTag] {
        tags.isEmpty ? [] : tags.filter { $0.key == react || $0.key == reply }
    }

    /// `tags` as the stored text: `key=escaped-value;key`.
    static func encode(_ tags: [IRCTag]) -> String {
        tags.map { tag in tag.value.map { "\(tag.key)=\(IRCMessage.escapeTagValue($0))" } ?? tag.key }
            .joined(separator: ";")
    }

    /// The stored text as tags again (none when it is empty or unreadable).
    static func decode(_ text: String) -> [IRCTag] {
        guard !text.isEmpty, let message = try? IRCMessage.parse("@\(text) X", maxTagBytes: IRCLimits.maxTagBytes)
        else { return [] }
        return message.tags
    }

    static func value(_ key: String, in tags: [IRCTag]) -> String? {
        tags.first { $0.key == key }?.value
    }

    /// Whether a TAGMSG with these tags is a reaction, which history keeps.
    static func isReaction(_ tags: [IRCTag]) -> Bool {
        tags.contains { $0.key == react && !($0.value ?? "").isEmpty }
    }

    /// A client asking history to keep a TAGMSG whatever its tags (as Ergo's `+draft/persist`).
    static let persist = "+draft/persist"

    /// The tags history keeps of a TAGMSG: a reaction's or reply's, or all its client tags
    /// when the sender asked for it to persist. Nil when it is not kept.
    static func keptTagmsg(_ tags: [IRCTag]) -> [IRCTag]? {
        if tags.contains(where: { $0.key == persist }) { return tags }
        return isReaction(tags) ? kept(tags) : nil
    }
}

extension HistoryRecord {
    /// `kept`: the client tags history keeps (`KeptTags.kept`); a reply's or reaction's target
    /// becomes `refMsgid`.
    init(
        target: String, msgid: String, source: String, accountID: Int64?, command: String, text: String,
        createdAt: Date, kept: [IRCTag]
    ) {
        self.init(
            target: target, msgid: msgid, source: source, accountID: accountID, command: command, text: text,
            createdAt: createdAt, tags: kept.isEmpty ? "" : KeptTags.encode(kept),
            refMsgid: kept.isEmpty ? nil : KeptTags.value(KeptTags.reply, in: kept))
    }
}
