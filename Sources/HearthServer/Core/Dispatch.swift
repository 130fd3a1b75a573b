import Foundation
import HearthKit
import HearthProtocol
import NIOCore

extension Core {
    /// Handles one line. Work that must wait (SQL, Argon2id, the bot) goes through `later`,
    /// and the connection holds further lines until it completes, so order is kept. Returns what
    /// the line was routed by, as read when it started (the connection keeps its flood tier).
    @discardableResult
    func handleLine(_ client: Client, _ bytes: ByteBuffer) -> LineRoute {
        // PRIVMSG and NOTICE to one user are relayed from the bytes when nothing more is needed
        // (its one lock also checks that the sender is a registered IRC-mode user, and reads the
        // route when it declines, so a line takes the chat lock once before its handler).
        var read: LineRoute?
        if bytes.withUnsafeReadableBytes({ relayFast(client, $0, route: &read) }) { return read! }
        let route = read ?? chat.withLock { state in state.route(of: client) }
        var routed = route
        var mode = route.mode
        if mode == .undecided || (mode == .plain && client.plainLines == 0) {
            let text = String(decoding: bytes.readableBytesView, as: UTF8.self)
            if text.allSatisfy({ $0 == " " }) { return route }
            if Self.startsWithIRCCommand(text) {
                // Also undoes a plain-mode greeting sent to a client that was slow to speak.
                withState { state, out in
                    if state[client].mode == .plain {
                        if state[client].registered { announcePresence(&state, client, online: false, out: &out) }
                        if state.nicks[state[client].nickKey] === client { state.nicks[state[client].nickKey] = nil }
                        state[client].nickKey = ""
                        state[client].nick = "*"
                        state[client].user = "user"
                        state[client].registered = false
                    }
                    state[client].mode = .irc
                }
                // Undone from plain mode (not registered now), or still unregistered.
                if mode == .plain { routed.registered = false }
                mode = .irc
            } else if mode == .undecided {
                startPlainMode(client)
                mode = .plain
            }
        }
        if mode == .plain {
            client.plainLines += 1
            handlePlainLine(client, bytes)
            return route
        }
        let message: IRCMessage
        do {
            message = try IRCMessage.parse(bytes.readableBytesView)
        } catch {
            parseFailed(client, error, raw: bytes, registered: routed.registered)
            return route
        }
        handleIRC(client, message, route: routed)
        return route
    }

    /// Which flood-control budget `client`'s lines draw on.
    func floodTier(_ client: Client) -> FloodControl.Tier {
        chat.withLock { state in state.route(of: client).tier }
    }

    static func startsWithIRCCommand(_ text: String) -> Bool {
        var words = text.split(separator: " ", omittingEmptySubsequences: true)[...]
        if words.first?.hasPrefix("@") == true { words = words.dropFirst() }
        if words.first?.hasPrefix(":") == true { words = words.dropFirst() }
        guard let first = words.first else { return false }
        return preRegistration.contains(String(first))
    }

    func parseFailed(_ client: Client, _ error: IRCParseError, raw: ByteBuffer, registered: Bool) {
        if error == .empty { return }
        let lossy = String(decoding: raw.readableBytesView, as: UTF8.self)
        let lenient = try? IRCMessage.parse(lossy)
        // A username or realname in another encoding must not stall registration: it is taken
        // with replacement characters.
        if error == .invalidUTF8, let lenient, lenient.command == "USER", !registered {
            handleIRC(client, lenient)
            return
        }
        // The answer carries the line's label, even when only its tags could be read.
        if let labeled = lenient ?? Self.tagsOnly(lossy) { beginLabel(client, labeled) }
        defer { client.capturing = false }
        switch error {
        case .empty:
            return
        case .bodyTooLong, .tagsTooLong:
            reply(client, .inputTooLong, error.explanation)
        case .invalidCommand:
            let word = lossy.split(separator: " ").first { !$0.hasPrefix("@") && !$0.hasPrefix(":") } ?? ""
            reply(client, .unknownCommand, String(word.prefix(40)), "Unknown command")
        case .invalidUTF8, .containsNUL, .containsCR, .missingCommand, .tooManyParams:
            withState { state, out in
                let code = error == .invalidUTF8 ? "INVALID_UTF8" : "INVALID_MESSAGE"
                if state[client].caps.contains("standard-replies") || error == .invalidUTF8 {
                    let command = lenient?.command ?? "*"
                    out.send(
                        client,
                        IRCMessage(source: serverName, command: "FAIL", params: [command, code, error.explanation]))
                } else {
                    notice(state, client, error.explanation, out: &out)
                }
            }
        }
    }

    /// The tags of a line that did not parse (e.g. `@label=x BAD_COMMAND`), on a stand-in command.
    static func tagsOnly(_ line: String) -> IRCMessage? {
        guard line.hasPrefix("@"), let tags = line.split(separator: " ").first else { return nil }
        return try? IRCMessage.parse(tags + " PING")
    }

    /// `route`: what the line was routed by, if read already (nil: read here).
    func handleIRC(_ client: Client, _ message: IRCMessage, route: LineRoute? = nil) {
        beginLabel(client, message)
        defer { client.capturing = false }
        let route = route ?? chat.withLock { state in state.route(of: client) }
        if message.tag("batch") != nil && route.registered {
            addToMultiline(client, message)
            return
        }
        dispatch(client, message, route: route)
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
            self.resumeLabel(client, labeled: labeled)
            defer { client.capturing = false }
            then(value)
        }
    }

    func isConnected(_ client: Client) -> Bool {
        chat.withLock { state in state.clients[client.id] != nil }
    }

    func quit(_ client: Client, reason: String?) {
        let text = reason.map { "Quit: \($0)" } ?? "Client Quit"
        withState { _, out in
            out.send(client, IRCMessage(command: "ERROR", params: ["Closing Link: \(client.address) (\(text))"]))
        }
        client.closing = true
        remove(client, reason: text)
        client.batcher.close(client)
    }
}

/// What routing a line needs of its sender, read in one lock: its mode, whether it has
/// registered and is an operator, and the flood tier its next lines draw on.
struct LineRoute {
    var mode: ClientMode
    var registered: Bool
    var isOper: Bool
    var isBot: Bool

    var tier: FloodControl.Tier { !registered ? .unregistered : (isBot ? .bot : .registered) }
}

extension ChatState {
    func route(of client: Client) -> LineRoute {
        // Field by field: a copy of the whole user would retain its sets.
        LineRoute(
            mode: self[client].mode, registered: self[client].registered, isOper: self[client].isOper,
            isBot: self[client].isBot)
    }
}
