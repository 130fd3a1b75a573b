import Foundation
import HearthProtocol

/// Reactions, replies and edits as plain-mode text: "[#chan] * alice reacted 👍 to bob: …",
/// "<alice> ↪ replying to bob: … — text", "* alice edited: text".
extension PlainRenderer {
    typealias Quoting = (_ target: String, _ msgid: String) -> RecentLine?

    /// Characters of a quoted line shown before "…".
    static let excerptLength = 40

    static func excerpt(_ text: String) -> String {
        text.count <= excerptLength ? text : String(text.prefix(excerptLength)) + "…"
    }

    static func reacted(_ who: String, _ emoji: String, to line: RecentLine?) -> String {
        guard let line else { return "* \(who) reacted \(emoji) to an earlier message" }
        return "* \(who) reacted \(emoji) to \(line.nick): \(excerpt(line.text))"
    }

    static func replying(to line: RecentLine?, _ text: String) -> String {
        guard let line else { return "↪ replying to an earlier message — \(text)" }
        return "↪ replying to \(line.nick): \(excerpt(line.text)) — \(text)"
    }

    /// "[#chan] " for a channel, "[pm] " for a private conversation.
    static func where_(_ target: String, _ nickKey: String) -> String {
        IRCNames.isChannel(target) ? "[\(target)] " : "[pm] "
    }
}

/// `/react REF EMOJI` and `/reply REF TEXT` in plain mode, in the current channel. REF is N (1 =
/// the latest line, 2 = the one before…), a nick (that nick's latest line) or a msgid; only the
/// channel's last `RecentLines.capacity` lines can be picked.
extension Core {
    func plainReact(_ client: Client, _ words: [String], rest: String, reply: Bool) {
        let usage =
            reply
            ? "/reply N|NICK TEXT — e.g. /reply bob sounds good (N: 1 = the latest line)"
            : "/react N|NICK EMOJI — e.g. /react 1 👍 (N: 1 = the latest line, or a nick's latest)"
        guard words.count >= 2 else { return plainSay(client, ["usage: \(usage)"]) }
        let picked = chat.withLock { state -> (channel: String, line: RecentLine?)? in
            guard let key = state[client].currentChannel, let channel = state.channels[key] else { return nil }
            return (channel.name, channel.recent.pick(words[0]))
        }
        guard let picked else { return plainSay(client, ["\(usage) — join a channel first"]) }
        guard let line = picked.line else {
            return plainSay(
                client,
                [
                    "error: no recent line \(words[0]) in \(picked.channel) (pick 1 for the latest, 2 for the one "
                        + "before, or a nick)"
                ])
        }
        if reply {
            let text = String(rest.dropFirst(words[0].count).drop { $0 == " " })
            send(
                client, command: "PRIVMSG", target: picked.channel, text: text,
                clientTags: [
                    IRCTag(KeptTags.reply, line.msgid)
                ])
        } else {
            let tags = [IRCTag(KeptTags.react, words[1]), IRCTag(KeptTags.reply, line.msgid)]
            handleIRC(client, IRCMessage(tags: tags, command: "TAGMSG", params: [picked.channel]))
        }
    }
}
