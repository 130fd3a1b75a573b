import Foundation
import HearthKit
import HearthProtocol
import NIOCore

/// Turns the IRC messages a connection would receive into plain text lines.
enum PlainRenderer {
    /// Rendered text without control characters, so nobody can move a terminal's cursor
    /// or recolour it (mIRC colour codes included). `nickKey`: the receiver's folded nick;
    /// `quoting` finds a recent line of a channel by msgid (for reactions, replies and edits).
    static func render(
        _ message: IRCMessage, forNickKey nickKey: String, quoting: Quoting = { _, _ in nil }
    ) -> String? {
        guard let text = renderRaw(message, forNickKey: nickKey, quoting: quoting) else { return nil }
        guard text.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) else { return text }
        // Only the bot's own replies to this connection may carry ANSI styling (`!set color on`).
        let fromBot =
            message.source?.hasPrefix(Bot.nick + "!") == true
            && message.params.first.map(IRCNames.fold) == nickKey
        return stripControls(text, keepANSIStyle: fromBot)
    }

    /// Drops C0 controls and DEL; a colour code (^C with up to two digits, optionally
    /// ",NN") goes with its digits.
    static func stripControls(_ text: String, keepANSIStyle: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        func dropDigits() {
            for _ in 0..<2 where scalars.first.map({ $0.properties.numericType != nil && $0.isASCII }) == true {
                scalars = scalars.dropFirst()
            }
        }
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1b}" && keepANSIStyle && scalars.first == "[" {
                // SGR only: ESC [ digits/semicolons m
                let body = scalars.dropFirst().prefix { ("0"..."9").contains($0) || $0 == ";" }
                if scalars.dropFirst(1 + body.count).first == "m" {
                    out.append(scalar)
                    out.append(contentsOf: scalars.prefix(2 + body.count))
                    scalars = scalars.dropFirst(2 + body.count)
                }
            } else if scalar == "\u{3}" {
                dropDigits()
                if scalars.first == ",", let next = scalars.dropFirst().first, next.isASCII,
                    next.properties.numericType != nil
                {
                    scalars = scalars.dropFirst()
                    dropDigits()
                }
            } else if scalar.value >= 32 && scalar.value != 127 {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func renderRaw(
        _ message: IRCMessage, forNickKey nickKey: String, quoting: Quoting = { _, _ in nil }
    ) -> String? {
        let p = message.params
        let sourceNick = message.source.map { String($0.prefix { $0 != "!" }) } ?? ""
        let isSelf = IRCNames.fold(sourceNick) == nickKey
        let fromServer = message.source == nil || !(message.source!.contains("!"))
        switch message.command {
        case "PRIVMSG", "NOTICE":
            guard p.count >= 2 else { return nil }
            var text = p[1]
            var action = false
            if text.hasPrefix("\u{1}ACTION ") {
                text = String(text.dropFirst(8).dropLast(text.hasSuffix("\u{1}") ? 1 : 0))
                action = true
            }
            if let ref = message.tag(KeptTags.reply), !ref.isEmpty {
                text = replying(to: quoting(p[0], ref), text)
            }
            if IRCNames.isChannel(p[0]) {
                return action ? "[\(p[0])] * \(sourceNick) \(text)" : "[\(p[0])] <\(sourceNick)> \(text)"
            }
            if fromServer || IRCNames.fold(sourceNick) == Bot.nick { return text }
            // Sent by this user's other device.
            if isSelf && IRCNames.fold(p[0]) != nickKey { return "[to \(p[0])] \(text)" }
            if message.command == "NOTICE" { return "-\(sourceNick)- \(text)" }
            return action ? "[pm] * \(sourceNick) \(text)" : "[pm] <\(sourceNick)> \(text)"
        case "TAGMSG":
            guard let target = p.first, let emoji = message.tag(KeptTags.react), !emoji.isEmpty else { return nil }
            let line = message.tag(KeptTags.reply).flatMap { quoting(target, $0) }
            return where_(target, nickKey) + reacted(isSelf ? "You" : sourceNick, emoji, to: line)
        case "EDIT":
            guard let target = p.first, let text = message.tag(Core.editTextTag) else { return nil }
            return where_(target, nickKey) + "* \(isSelf ? "You" : sourceNick) edited: \(text)"
        case "JOIN":
            return isSelf
                ? "You joined \(p[0]). Everything you type now goes there (/part to leave)."
                : "[\(p[0])] * \(sourceNick) joined"
        case "PART":
            let reason = p.count > 1 ? " (\(p[1]))" : ""
            return isSelf ? "You left \(p[0])." : "[\(p[0])] * \(sourceNick) left\(reason)"
        case "QUIT":
            return "* \(sourceNick) quit" + (p.first.map { " (\($0))" } ?? "")
        case "NICK":
            return IRCNames.fold(p[0]) == nickKey
                ? "You are now known as \(p[0])." : "* \(sourceNick) is now known as \(p[0])"
        case "KICK":
            guard p.count >= 2 else { return nil }
            let reason = p.count > 2 ? " (\(p[2]))" : ""
            if IRCNames.fold(p[1]) == nickKey {
                return "You were kicked from \(p[0]) by \(sourceNick)\(reason)."
            }
            return "[\(p[0])] * \(p[1]) was kicked by \(sourceNick)\(reason)"
        case "TOPIC":
            return "[\(p[0])] * \(sourceNick) set the topic: \(p.count > 1 ? p[1] : "")"
        case "MODE":
            return "* \(sourceNick) sets mode \(p.dropFirst().joined(separator: " ")) on \(p[0])"
        case "INVITE":
            return "* \(sourceNick) invites you to \(p.count > 1 ? p[1] : "?") — type /join \(p.count > 1 ? p[1] : "")"
        case "ERROR":
            return nil
        case "PONG", "PING":
            return nil
        default:
            return renderNumeric(message)
        }
    }

    static func renderNumeric(_ message: IRCMessage) -> String? {
        guard let numeric = Numeric(rawValue: message.command) else { return nil }
        let p = Array(message.params.dropFirst())  // drop the target nick
        let last = p.last ?? ""
        switch numeric {
        case .topic: return "Topic of \(p[0]): \(last)"
        case .noTopic: return "\(p[0]) has no topic."
        case .namReply: return "In \(p[1]): \(last)"
        case .listStart: return "Channels (users, topic):"
        case .list: return "  \(p[0]) (\(p[1]))\(last.isEmpty ? "" : " — \(last)")"
        case .listEnd: return "End of channel list. /join #name to enter one."
        case .whoReply:
            return
                "  \(p[4]) (\(p[1])@\(p[2]))\(p[5].hasPrefix("G") ? " [away]" : "") in \(p[0]) — "
                + "\(last.drop { $0 != " " }.dropFirst())"
        case .whoisUser: return "\(p[0]) is \(p[1])@\(p[2]) (\(last))"
        case .whoisChannels: return "\(p[0]) is in: \(last)"
        case .whoisAccount: return "\(p[0]) is logged in as \(p[1])"
        case .whoisIdle: return "\(p[0]) has been idle \(p[1])s"
        case .away: return "\(p[0]) is away: \(last)"
        case .unaway, .nowAway, .inviting: return numeric == .inviting ? "Invited \(p[0]) to \(p[1])." : last
        case .channelModeIs: return "\(p[0]) modes: \(p.dropFirst().joined(separator: " "))"
        case .banList: return "  ban \(p[1]) (by \(p.count > 2 ? p[2] : "?"))"
        case .umodeIs: return "Your modes: \(last)"
        case .isupport, .welcome, .yourHost, .created, .myInfo, .endOfNames, .endOfWho, .endOfWhois, .whoisServer,
            .topicWhoTime, .creationTime, .endOfBanList:
            return nil
        default:
            if numeric.isError {
                let subject = p.count > 1 ? "\(p[0]): " : ""
                return "error: \(subject)\(last)"
            }
            return last
        }
    }
}
