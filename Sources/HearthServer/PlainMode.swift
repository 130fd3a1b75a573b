import Foundation
import HearthBot
import HearthProtocol
import NIOCore

/// Plain mode for `nc`: lines are bot commands (`!…`), slash commands (`/join`) or chat
/// for the current channel. Input is turned into the same IRC commands the core runs;
/// output is rendered by `PlainRenderer`.
extension Core {
    static let plainHelp = [
        "Chat: /join #channel [key], /part [#channel], /msg NICK TEXT, /me ACTION, /topic [TEXT],",
        "      /who [#channel], /names, /list, /whois NICK, /away [TEXT], /quit [MESSAGE].",
        "      Any other line is chat for your current channel; //text sends a line starting with /.",
    ]

    static func plainGreeting(nick: String, network: String) -> [String] {
        [
            "Welcome to \(network)! You are \(nick) — a guest until you !register NAME PASSWORD or !login NAME PASSWORD.",
            "Type !help for the bot's commands, /join #lobby to chat, /help for chat commands, /quit to leave.",
        ]
    }

    func startPlainMode(_ client: Client) {
        withState { out in
            client.mode = .plain
            client.user = "plain"
            client.realname = "plain-mode user"
            setNick(client, to: freeGuestNick(), out: &out)
            client.registered = true
            announcePresence(client, online: true, out: &out)
            for line in Self.plainGreeting(nick: client.nick, network: config.networkName) { notice(client, line, out: &out) }
        }
    }

    func plainSay(_ client: Client, _ lines: [String]) {
        withState { out in for line in lines { notice(client, line, out: &out) } }
    }

    func handlePlainLine(_ client: Client, _ bytes: ByteBuffer) {
        let raw = bytes.readableBytesView
        if raw.contains(0) {
            plainSay(client, ["error: that line contains a NUL byte; nothing was sent."])
            return
        }
        if raw.contains(13) {
            plainSay(client, ["error: that line contains a carriage return inside it; nothing was sent."])
            return
        }
        guard var line = String(validating: raw, as: UTF8.self) else {
            plainSay(client, ["error: that line is not valid UTF-8; nothing was sent."])
            return
        }
        if line.utf8.count > IRCLimits.maxBodyBytes - 2 {
            plainSay(client, ["error: that line is too long (the limit is \(IRCLimits.maxBodyBytes - 2) bytes); nothing was sent."])
            return
        }
        line = String(line.drop { $0 == " " })
        guard !line.isEmpty else { return }
        if line.hasPrefix("//") {
            plainChat(client, String(line.dropFirst()))
        } else if line.hasPrefix("/") {
            plainSlash(client, line)
        } else if line.hasPrefix("!") {
            let current = client.currentChannel
            if let current, !bot.isSecret(line) {
                send(client, command: "PRIVMSG", target: current, text: line)
            } else {
                runBot(client, text: line, channel: nil, requireBang: true)
            }
        } else if lock.withLock({ client.linesToBot }) {
            runBot(client, text: line, channel: nil, requireBang: false)
        } else {
            plainChat(client, line)
        }
    }

    func plainChat(_ client: Client, _ text: String) {
        guard let current = client.currentChannel else {
            plainSay(client, ["You're not in a channel yet: /join #lobby to chat, or !help for the bot's commands."])
            return
        }
        send(client, command: "PRIVMSG", target: current, text: text)
    }

    static let slashCommands = ["join", "part", "leave", "msg", "query", "me", "topic", "who", "names", "list", "whois", "away", "quit", "exit", "help", "nick", "notice"]

    func plainSlash(_ client: Client, _ line: String) {
        let body = line.dropFirst()
        let name = body.prefix { $0 != " " }.lowercased()
        let rest = String(body.dropFirst(name.count).drop { $0 == " " })
        let words = rest.split(separator: " ").map(String.init)
        func run(_ command: String, _ params: [String]) {
            handleIRC(client, IRCMessage(command: command, params: params))
        }
        func needs(_ usage: String) { plainSay(client, ["usage: \(usage)"]) }
        let current = client.currentChannel.flatMap { key in lock.withLock { channels[key]?.name } }
        switch name {
        case "join":
            guard let channel = words.first else { return needs("/join #channel [key] — e.g. /join #lobby") }
            run("JOIN", [channel.hasPrefix("#") ? channel : "#" + channel] + words.dropFirst().prefix(1))
        case "part", "leave":
            if let first = words.first, first.hasPrefix("#") {
                run("PART", [first] + (words.count > 1 ? [words.dropFirst().joined(separator: " ")] : []))
            } else if let current {
                run("PART", [current] + (rest.isEmpty ? [] : [rest]))
            } else {
                needs("/part #channel — you are not in a channel")
            }
        case "msg", "query", "notice":
            guard words.count >= 2 else { return needs("/msg NICK TEXT — e.g. /msg alice hi there") }
            let text = String(rest.dropFirst(words[0].count).drop { $0 == " " })
            send(client, command: name == "notice" ? "NOTICE" : "PRIVMSG", target: words[0], text: text)
        case "me":
            guard let current, !rest.isEmpty else { return needs("/me ACTION — in a channel, e.g. /me waves") }
            send(client, command: "PRIVMSG", target: current, text: "\u{1}ACTION \(rest)\u{1}")
        case "topic":
            guard let current else { return needs("/topic [TEXT] — join a channel first") }
            run("TOPIC", [current] + (rest.isEmpty ? [] : [rest]))
        case "who":
            guard let target = words.first ?? current else { return needs("/who #channel") }
            run("WHO", [target])
        case "names":
            guard let target = words.first ?? current else { return needs("/names #channel") }
            run("NAMES", [target])
        case "list": run("LIST", words.prefix(1).map { $0 })
        case "whois":
            guard let nick = words.first else { return needs("/whois NICK") }
            run("WHOIS", [nick])
        case "away": run("AWAY", rest.isEmpty ? [] : [rest])
        case "quit", "exit":
            plainSay(client, ["Bye!"])
            quit(client, reason: rest.isEmpty ? nil : rest)
        case "help": plainSay(client, Self.plainHelp + ["Bot commands: type !help."])
        case "nick":
            plainSay(client, ["In plain mode your nick is your account name: !register NAME PASSWORD or !login NAME PASSWORD."])
        default:
            let suggestions = Suggest.closest(to: name, in: Self.slashCommands)
            let hint = suggestions.isEmpty ? "type /help for chat commands" : "did you mean \(suggestions.map { "/" + $0 }.joined(separator: " or "))?"
            plainSay(client, ["unknown command /\(name) — \(hint)"])
        }
    }
}

/// Turns the IRC messages a connection would receive into plain text lines.
enum PlainRenderer {
    /// Rendered text without control characters, so nobody can move a terminal's cursor
    /// or recolour it (mIRC colour codes included).
    static func render(_ message: IRCMessage, for client: Client) -> String? {
        guard let text = renderRaw(message, for: client) else { return nil }
        guard text.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) else { return text }
        // Only the bot's own replies to this connection may carry ANSI styling (`!set color on`).
        let fromBot = message.source?.hasPrefix(Bot.nick + "!") == true && message.params.first.map(IRCNames.fold) == client.nickKey
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
                if scalars.first == ",", let next = scalars.dropFirst().first, next.isASCII, next.properties.numericType != nil {
                    scalars = scalars.dropFirst()
                    dropDigits()
                }
            } else if scalar.value >= 32 && scalar.value != 127 {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func renderRaw(_ message: IRCMessage, for client: Client) -> String? {
        let p = message.params
        let sourceNick = message.source.map { String($0.prefix { $0 != "!" }) } ?? ""
        let isSelf = IRCNames.fold(sourceNick) == client.nickKey
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
            if IRCNames.isChannel(p[0]) {
                return action ? "[\(p[0])] * \(sourceNick) \(text)" : "[\(p[0])] <\(sourceNick)> \(text)"
            }
            if fromServer || IRCNames.fold(sourceNick) == Bot.nick { return text }
            // Sent by this user's other device.
            if isSelf && IRCNames.fold(p[0]) != client.nickKey { return "[to \(p[0])] \(text)" }
            if message.command == "NOTICE" { return "-\(sourceNick)- \(text)" }
            return action ? "[pm] * \(sourceNick) \(text)" : "[pm] <\(sourceNick)> \(text)"
        case "JOIN":
            return isSelf ? "You joined \(p[0]). Everything you type now goes there (/part to leave)." : "[\(p[0])] * \(sourceNick) joined"
        case "PART":
            let reason = p.count > 1 ? " (\(p[1]))" : ""
            return isSelf ? "You left \(p[0])." : "[\(p[0])] * \(sourceNick) left\(reason)"
        case "QUIT":
            return "* \(sourceNick) quit" + (p.first.map { " (\($0))" } ?? "")
        case "NICK":
            return IRCNames.fold(p[0]) == client.nickKey ? "You are now known as \(p[0])." : "* \(sourceNick) is now known as \(p[0])"
        case "KICK":
            guard p.count >= 2 else { return nil }
            let reason = p.count > 2 ? " (\(p[2]))" : ""
            if IRCNames.fold(p[1]) == client.nickKey { return "You were kicked from \(p[0]) by \(sourceNick)\(reason)." }
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
        case .whoReply: return "  \(p[4]) (\(p[1])@\(p[2]))\(p[5].hasPrefix("G") ? " [away]" : "") in \(p[0]) — \(last.drop { $0 != " " }.dropFirst())"
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
