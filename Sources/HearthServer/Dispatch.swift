import Foundation
import HearthBot
import HearthProtocol
import NIOCore

extension Core {
    /// Commands an IRC client may send before registration. A first line starting with one
    /// of these (upper-case, as clients send them) selects IRC mode; anything else is plain.
    static let preRegistration: Set<String> = ["CAP", "NICK", "USER", "PASS", "AUTHENTICATE", "PING", "PONG", "QUIT"]

    /// Handles one line. Work that must wait (SQL, Argon2id, the bot) goes through `later`,
    /// and the connection holds further lines until it completes, so order is kept.
    func handleLine(_ client: Client, _ bytes: ByteBuffer) {
        if client.mode == .undecided || (client.mode == .plain && client.plainLines == 0) {
            let text = String(decoding: bytes.readableBytesView, as: UTF8.self)
            if text.allSatisfy({ $0 == " " }) { return }
            if Self.startsWithIRCCommand(text) {
                // Also undoes a plain-mode greeting sent to a client that was slow to speak.
                withState { out in
                    if client.mode == .plain {
                        if client.registered { announcePresence(client, online: false, out: &out) }
                        if nicks[client.nickKey] === client { nicks[client.nickKey] = nil }
                        client.nickKey = ""
                        client.nick = "*"
                        client.user = "user"
                        client.registered = false
                    }
                    client.mode = .irc
                }
            } else if client.mode == .undecided {
                startPlainMode(client)
            }
        }
        if client.mode == .plain {
            client.plainLines += 1
            handlePlainLine(client, bytes)
            return
        }
        let message: IRCMessage
        do {
            message = try IRCMessage.parse(bytes.readableBytesView)
        } catch {
            parseFailed(client, error, raw: bytes)
            return
        }
        handleIRC(client, message)
    }

    static func startsWithIRCCommand(_ text: String) -> Bool {
        var words = text.split(separator: " ", omittingEmptySubsequences: true)[...]
        if words.first?.hasPrefix("@") == true { words = words.dropFirst() }
        if words.first?.hasPrefix(":") == true { words = words.dropFirst() }
        guard let first = words.first else { return false }
        return preRegistration.contains(String(first))
    }

    func parseFailed(_ client: Client, _ error: IRCParseError, raw: ByteBuffer) {
        switch error {
        case .empty:
            return
        case .bodyTooLong, .tagsTooLong:
            reply(client, .inputTooLong, error.explanation)
        case .invalidCommand:
            let word = String(decoding: raw.readableBytesView.prefix(40), as: UTF8.self).split(separator: " ").first ?? ""
            reply(client, .unknownCommand, String(word), "Unknown command")
        case .invalidUTF8, .containsNUL, .containsCR, .missingCommand, .tooManyParams:
            withState { out in
                if client.caps.contains("standard-replies") {
                    let code = error == .invalidUTF8 ? "INVALID_UTF8" : "INVALID_MESSAGE"
                    out.send(client, IRCMessage(source: serverName, command: "FAIL", params: ["*", code, error.explanation]))
                } else {
                    notice(client, error.explanation, out: &out)
                }
            }
        }
    }

    func handleIRC(_ client: Client, _ message: IRCMessage) {
        let command = message.command
        if let label = message.tag("label"), client.caps.contains("labeled-response"), client.caps.contains("batch"),
            client.registered
        {
            client.label = label
            client.capturing = true
        }
        defer { client.capturing = false }
        if !client.registered && !Self.preRegistration.contains(command) {
            reply(client, .notRegistered, "You have not registered")
            return
        }
        if message.tag("batch") != nil {
            addToMultiline(client, message)
            return
        }
        switch command {
        case "BATCH": batch(client, message)
        case "PRIVMSG", "NOTICE": privmsg(client, message)
        case "TAGMSG": tagmsg(client, message)
        case "SETNAME": setname(client, message)
        case "MONITOR": monitor(client, message)
        case "CHATHISTORY": chathistory(client, message)
        case "REDACT": redact(client, message)
        case "MARKREAD": markread(client, message)
        case "CAP": cap(client, message)
        case "NICK": nick(client, message)
        case "USER": user(client, message)
        case "PASS": pass(client, message)
        case "AUTHENTICATE": authenticate(client, message)
        case "PING":
            guard let token = message.params.first else {
                reply(client, .noOrigin, "No origin specified")
                return
            }
            withState { $0.send(client, IRCMessage(source: serverName, command: "PONG", params: [serverName, token])) }
        case "PONG": break
        case "QUIT": quit(client, reason: message.params.first)
        case "JOIN": join(client, message)
        case "PART": part(client, message)
        case "TOPIC": topic(client, message)
        case "NAMES": names(client, message)
        case "WHO": who(client, message)
        case "WHOIS": whois(client, message)
        case "LIST": list(client, message)
        case "MODE": mode(client, message)
        case "KICK": kick(client, message)
        case "INVITE": invite(client, message)
        case "AWAY": away(client, message)
        case "OPER": oper(client, message)
        case "MOTD": withState { motd(client, out: &$0) }
        case "LUSERS": withState { lusers(client, out: &$0) }
        case "VERSION": reply(client, .version, version, serverName, "Hearth IRC server")
        case "TIME": reply(client, .time, serverName, Date().formatted(.iso8601))
        case "ISON": ison(client, message)
        case "USERHOST": userhost(client, message)
        case "KILL": kill(client, message)
        default:
            reply(client, .unknownCommand, command, "Unknown command")
        }
        return
    }

    /// Runs async work, then `then` back on the client's event loop. The connection holds
    /// its further lines until this (and anything `then` starts) has finished.
    func later<T: Sendable>(
        _ client: Client, _ work: @escaping @Sendable () async -> T, then: @escaping @Sendable (T) -> Void
    ) {
        let loop = client.eventLoop
        // Chained, so several async steps from one line (e.g. PRIVMSG hearth,#a :!x) run in order.
        let previous = client.pending ?? loop.makeSucceededVoidFuture()
        let labeled = client.label != nil
        client.pending = previous.flatMap { loop.makeFutureWithTask { await work() } }.map { value in
            // A connection that went away meanwhile must not get a nick or a channel seat back.
            guard !client.closing, self.isConnected(client) else { return }
            client.capturing = labeled && client.label != nil
            defer { client.capturing = false }
            then(value)
        }
    }

    func isConnected(_ client: Client) -> Bool {
        lock.withLock { clients[client.id] != nil }
    }

    func quit(_ client: Client, reason: String?) {
        let text = reason.map { "Quit: \($0)" } ?? "Client Quit"
        withState { out in
            out.send(client, IRCMessage(command: "ERROR", params: ["Closing Link: \(client.host) (\(text))"]))
        }
        client.closing = true
        remove(client, reason: text)
        client.batcher.close(client)
    }
}
