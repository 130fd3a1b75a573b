import Foundation
import HearthCrypto
import HearthKit
import HearthProtocol
import NIOCore

/// Plain mode for `nc`: lines are bot commands (`!…`), slash commands (`/join`) or chat
/// for the current channel. Input is turned into the same IRC commands the core runs;
/// output is rendered by `PlainRenderer`.
extension Core {
    static let plainHelp = [
        "Chat: /join #channel [key], /part [#channel], /msg NICK TEXT, /me ACTION, /topic [TEXT],",
        "      /who [#channel], /names, /list, /whois NICK, /away [TEXT], /quit [MESSAGE],",
        "      /cancel (while the bot collects your lines, e.g. a recipe: they are chat again),",
        "      /react N|NICK EMOJI and /reply N|NICK TEXT (N: 1 = the channel's latest line, 2 = the one",
        "      before; a nick: that nick's latest line), e.g. /react 1 👍 or /reply bob sounds good.",
        "      Any other line is chat for your current channel; //text sends a line starting with /.",
    ]

    static func plainGreeting(nick: String, network: String) -> [String] {
        [
            "Welcome to \(network)! You are \(nick) — a guest until you !register NAME PASSWORD or !login NAME "
                + "PASSWORD.",
            "Type !help for the bot's commands, /join #lobby to chat, /help for chat commands, /quit to leave.",
        ]
    }

    func startPlainMode(_ client: Client) {
        if config.serverPassword != nil {
            // A private server: the first line is its password.
            withState { state, out in
                state[client].mode = .plain
                client.awaitingServerPassword = true
                out.send(
                    client, IRCMessage(command: "NOTICE", params: ["*", "This server is private: type its password."]))
            }
            return
        }
        welcomePlain(client)
    }

    /// A plain-mode connection's answer to "type its password".
    private func checkServerPassword(_ client: Client, _ line: String) {
        client.awaitingServerPassword = false
        if let required = config.serverPassword, Sodium.constantTimeEqual(required, line) {
            welcomePlain(client)
            return
        }
        withState { _, out in
            out.send(client, IRCMessage(command: "NOTICE", params: ["*", "That is not this server's password. Bye."]))
        }
        quit(client, reason: "Bad server password")
    }

    private func welcomePlain(_ client: Client) {
        withState { state, out in
            state[client].mode = .plain
            state[client].user = "plain"
            state[client].realname = "plain-mode user"
            let guest = state.freeGuestNick()
            setNick(&state, client, to: guest, out: &out)
            state[client].registered = true
            metrics.registrations[.plain]?.increment()
            notePeakUsers(&state)
            announcePresence(&state, client, online: true, out: &out)
            claimGuestNick(state, client)
            for line in Self.plainGreeting(nick: state[client].nick, network: config.networkName) {
                notice(state, client, line, out: &out)
            }
        }
        logEvent("registered (plain mode)", client)
    }

    func plainSay(_ client: Client, _ lines: [String]) {
        withState { state, out in for line in lines { notice(state, client, line, out: &out) } }
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
            plainSay(
                client,
                ["error: that line is too long (the limit is \(IRCLimits.maxBodyBytes - 2) bytes); nothing was sent."])
            return
        }
        if client.awaitingServerPassword {
            checkServerPassword(client, line)
            return
        }
        line = String(line.drop { $0 == " " })
        guard !line.isEmpty else { return }
        if line.hasPrefix("//") {
            plainChat(client, String(line.dropFirst()))
        } else if line.hasPrefix("/") {
            plainSlash(client, line)
        } else if line.hasPrefix("!") {
            let current = chat.withLock { state in state[client].currentChannel }
            if let current, !bot.isSecret(line) {
                send(client, command: "PRIVMSG", target: current, text: line)
            } else {
                runBot(client, text: line, channel: nil, requireBang: true)
            }
        } else if chat.withLock({ state in state[client].linesToBot }) {
            guard stillCollecting(client) else {
                let minutes = Int(Self.captureIdleTimeout / 60)
                plainSay(
                    client,
                    ["(The bot was collecting your lines but had none for \(minutes) minutes: they are chat again.)"])
                return plainChat(client, line)
            }
            runBot(client, text: line, channel: nil, requireBang: false)
        } else {
            plainChat(client, line)
        }
    }

    /// How long the bot may collect a plain-mode user's lines (`SessionEffect.captureLines`, a
    /// recipe being written) with none coming: then they are chat again, so a line meant for a
    /// channel hours later is not taken.
    static let captureIdleTimeout: TimeInterval = 10 * 60

    /// Whether the bot still collects `client`'s lines (and it takes this one now).
    private func stillCollecting(_ client: Client) -> Bool {
        let now = config.clock.now()
        return chat.withLock { state in
            guard now.timeIntervalSince(state[client].linesToBotTouched) <= Self.captureIdleTimeout else {
                state[client].linesToBot = false
                return false
            }
            state[client].linesToBotTouched = now
            return true
        }
    }

    func plainChat(_ client: Client, _ text: String) {
        guard let current = chat.withLock({ state in state[client].currentChannel }) else {
            plainSay(client, ["You're not in a channel yet: /join #lobby to chat, or !help for the bot's commands."])
            return
        }
        send(client, command: "PRIVMSG", target: current, text: text)
    }

    static let slashCommands = [
        "join", "part", "leave", "msg", "query", "me", "topic", "who", "names", "list", "whois", "away", "quit", "exit",
        "help", "nick", "notice", "cancel", "react", "reply",
    ]

    func plainSlash(_ client: Client, _ line: String) {
        let body = line.dropFirst()
        let name = body.prefix { $0 != " " }.lowercased()
        let rest = String(body.dropFirst(name.count).drop { $0 == " " })
        let words = rest.split(separator: " ").map(String.init)
        func run(_ command: String, _ params: [String]) {
            handleIRC(client, IRCMessage(command: command, params: params))
        }
        func needs(_ usage: String) { plainSay(client, ["usage: \(usage)"]) }
        let current = chat.withLock { state in state[client].currentChannel.flatMap { state.channels[$0]?.name } }
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
        case "react", "reply": plainReact(client, words, rest: rest, reply: name == "reply")
        case "cancel":
            // Stops the bot collecting this connection's lines (what it has is kept).
            let was = chat.withLock { state in
                defer { state[client].linesToBot = false }
                return state[client].linesToBot
            }
            plainSay(
                client,
                [
                    was
                        ? "Your lines are chat again; the bot stopped collecting them (what it has is kept)."
                        : "Nothing to cancel: your lines are chat already."
                ])
        case "quit", "exit":
            plainSay(client, ["Bye!"])
            quit(client, reason: rest.isEmpty ? nil : rest)
        case "help": plainSay(client, Self.plainHelp + ["Bot commands: type !help."])
        case "nick":
            plainSay(
                client,
                ["In plain mode your nick is your account name: !register NAME PASSWORD or !login NAME PASSWORD."])
        default:
            let suggestions = Suggest.closest(to: name, in: Self.slashCommands)
            let hint =
                suggestions.isEmpty
                ? "type /help for chat commands"
                : "did you mean \(suggestions.map { "/" + $0 }.joined(separator: " or "))?"
            plainSay(client, ["unknown command /\(name) — \(hint)"])
        }
    }
}
