import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// IRCv3 draft/multiline: a client sends `BATCH +id draft/multiline TARGET`, PRIVMSG or
/// NOTICE lines tagged `batch=id` (`draft/multiline-concat` joins a line to the one before
/// without a newline), then `BATCH -id`. Clients that negotiated the cap receive the batch as
/// one message; others get its lines one by one. History keeps it as one message.
struct MultilineDraft {
    let id: String
    let target: String
    var command: String?
    /// The text as one string (newlines between lines), as history keeps it.
    var text = ""
    /// The lines as sent, relayed as they are.
    var lines: [(text: String, concat: Bool)] = []
    var clientTags: [IRCTag] = []
    /// The label of the `BATCH +` line: the whole batch is one labeled command.
    var label: String?
}

extension Core {
    static let multilineCap = "draft/multiline"
    static let multilineConcat = "draft/multiline-concat"
    static var multilineCapValue: String {
        "\(multilineCap)=max-bytes=\(IRCLimits.multilineMaxBytes),max-lines=\(IRCLimits.multilineMaxLines)"
    }

    private func multilineFail(_ client: Client, _ code: String, _ text: String) {
        client.multiline = nil
        withState { _, out in
            out.send(client, IRCMessage(source: serverName, command: "FAIL", params: ["BATCH", code, text]))
        }
    }

    /// `BATCH +id draft/multiline target` and `BATCH -id`.
    func batch(_ client: Client, _ message: IRCMessage) {
        guard let reference = message.params.first, reference.count > 1, let sign = reference.first,
            sign == "+" || sign == "-"
        else {
            reply(
                client, .needMoreParams, "BATCH",
                "Not enough parameters: BATCH +id draft/multiline target, or BATCH -id")
            return
        }
        let id = String(reference.dropFirst())
        if sign == "+" {
            guard message.params.count >= 3, message.params[1] == Self.multilineCap else {
                return multilineFail(
                    client, "MULTILINE_INVALID",
                    "Only draft/multiline batches can be sent: BATCH +id draft/multiline target")
            }
            guard chat.withLock({ state in state[client].caps.contains(Self.multilineCap) }) else {
                return multilineFail(client, "MULTILINE_INVALID", "Enable the draft/multiline capability first")
            }
            if client.multiline != nil {
                return multilineFail(
                    client, "MULTILINE_INVALID", "A multiline batch is already open; the earlier one was dropped")
            }
            var draft = MultilineDraft(id: id, target: message.params[2])
            // Client-only tags on the opener belong to the whole message.
            draft.clientTags = Self.clientTags(message)
            // The label answers the whole batch at its end, not this line.
            if client.label != nil {
                draft.label = client.label
                client.label = nil
                client.capturing = false
            }
            client.multiline = draft
            return
        }
        guard let draft = client.multiline, draft.id == id else {
            return multilineFail(client, "MULTILINE_INVALID", "No open batch called \(id)")
        }
        client.multiline = nil
        if let label = draft.label {
            client.label = label
            client.capturing = true
        }
        guard let command = draft.command, !draft.text.isEmpty else {
            return multilineFail(client, "MULTILINE_INVALID", "The batch has no text")
        }
        deliverMultiline(client, draft, command: command)
    }

    /// A line tagged with the open batch: collected, checked against the limits.
    func addToMultiline(_ client: Client, _ message: IRCMessage) {
        guard var draft = client.multiline, message.tag("batch") == draft.id else {
            return multilineFail(client, "MULTILINE_INVALID", "That batch is not open")
        }
        guard message.command == "PRIVMSG" || message.command == "NOTICE", message.params.count >= 2,
            draft.command == nil || draft.command == message.command,
            IRCNames.fold(message.params[0]) == IRCNames.fold(draft.target)
        else {
            return multilineFail(
                client, "MULTILINE_INVALID", "A multiline batch holds PRIVMSG or NOTICE lines to its own target only")
        }
        let concat = message.tags.contains { $0.key == Self.multilineConcat }
        if concat && message.params[1].isEmpty {
            return multilineFail(client, "MULTILINE_INVALID", "A blank line cannot be joined to the one before")
        }
        if !draft.text.isEmpty && !concat { draft.text += "\n" }
        draft.text += message.params[1]
        draft.lines.append((message.params[1], concat && !draft.lines.isEmpty))
        draft.command = message.command
        if draft.clientTags.isEmpty && draft.lines.count == 1 {
            draft.clientTags = Self.clientTags(message).filter { $0.key != Self.multilineConcat }
        }
        if draft.text.utf8.count > IRCLimits.multilineMaxBytes {
            return multilineFail(
                client, "MULTILINE_MAX_BYTES", "\(IRCLimits.multilineMaxBytes)",
                "A multiline message may hold \(IRCLimits.multilineMaxBytes) bytes")
        }
        if draft.lines.count > IRCLimits.multilineMaxLines {
            return multilineFail(
                client, "MULTILINE_MAX_LINES", "\(IRCLimits.multilineMaxLines)",
                "A multiline message may hold \(IRCLimits.multilineMaxLines) lines")
        }
        client.multiline = draft
    }

    private func multilineFail(_ client: Client, _ code: String, _ limit: String, _ text: String) {
        client.multiline = nil
        withState { _, out in
            out.send(client, IRCMessage(source: serverName, command: "FAIL", params: ["BATCH", code, limit, text]))
        }
    }

    private func deliverMultiline(_ client: Client, _ draft: MultilineDraft, command: String) {
        withState { state, out in
            guard var target = multilineTarget(&state, client, draft, out: &out) else { return }
            if state[client].echoes { target.receivers.append(client) }
            state[client].lastMessageAt = Date()
            let msgid = MessageStamp.msgid()
            let now = MessageStamp.now()
            let asBatch = target.receivers.filter { Self.takesMultiline(state, $0) }
            let asLines = target.receivers.filter { !Self.takesMultiline(state, $0) }
            if !asBatch.isEmpty {
                sendMultilineBatch(
                    state, client, draft, command: command, to: asBatch, target.shown, msgid, now, out: &out)
            }
            if !asLines.isEmpty {
                // Line by line, blank lines are left out (IRC has no empty message).
                // Only the first carries the message's msgid; all carry its time.
                for (index, piece) in draft.lines.filter({ !$0.text.isEmpty }).enumerated() {
                    var line = userMessage(
                        state,
                        client, command, [target.shown, piece.text], clientTags: draft.clientTags, msgid: msgid,
                        at: now)
                    if index > 0 { line.tags.removeAll { $0.key == "msgid" } }
                    out.send(asLines, line)
                }
            }
            if let history = target.history {
                recordHistory(
                    HistoryRecord(
                        target: history, msgid: msgid, source: state[client].prefix,
                        accountID: state[client].account?.id,
                        command: command, text: draft.text, createdAt: now))
            }
        }
    }

    /// Whether `client` gets a multiline message as one batch (rather than line by line).
    @inline(__always)
    private static func takesMultiline(_ state: ChatState, _ client: Client) -> Bool {
        state[client].caps.contains(Self.multilineCap) && state[client].caps.contains("batch")
    }

    /// Who receives a multiline message, its target as shown, and where history keeps it
    /// (nil: not kept); nil, with `client` told why, when it may not be sent.
    private func multilineTarget(
        _ state: inout ChatState, _ client: Client, _ draft: MultilineDraft, out: inout Outbox
    ) -> (receivers: [Client], shown: String, history: String?)? {
        if IRCNames.isChannel(draft.target) {
            guard let channel = state.channels[IRCNames.fold(draft.target)] else {
                out.send(client, numeric(state, client, .noSuchChannel, draft.target, "No such channel"))
                return nil
            }
            if let refusal = channelRefusal(state, client, channel, text: draft.text) {
                out.send(client, numeric(state, client, .cannotSendToChan, channel.name, refusal))
                return nil
            }
            // A command carrying a password or code, pasted as one of the lines: not relayed.
            if draft.text.split(separator: "\n").contains(where: { bot.isSecret(String($0)) }) {
                out.send(
                    client,
                    botMessage(
                        to: state[client].nick,
                        "(not shown in \(channel.name): a line of it is a command that carries a password or code,"
                            + " so it only ever goes to me privately — use /msg \(Bot.nick) …)"
                    ))
                return nil
            }
            return (channel.order.filter { $0 !== client }, channel.name, channel.historyKey)
        }
        guard let recipient = state.nicks[IRCNames.fold(draft.target)], state[recipient].registered else {
            let why = "\(draft.target) is not online; send separate lines to leave a message"
            out.send(
                client,
                IRCMessage(
                    source: serverName, command: "FAIL",
                    params: ["BATCH", "MULTILINE_INVALID_TARGET", draft.target, why]))
            return nil
        }
        if state.isBlocked(client, by: recipient) {
            let why = "\(state[recipient].nick) does not accept messages from you"
            out.send(client, numeric(state, client, .cannotSendToUser, state[recipient].nick, why))
            return nil
        }
        var history: String?
        if let from = state[client].account?.id, let to = state[recipient].account?.id {
            history = HistoryRecord.conversation(from, to)
        }
        return (state.privateReceivers(from: client, to: recipient), state[recipient].nick, history)
    }

    /// The message as one `draft/multiline` batch to those who asked for it. A labeled batch:
    /// the echo's own BATCH + carries the label (no ACK, no wrapping batch).
    private func sendMultilineBatch(
        _ state: ChatState, _ client: Client, _ draft: MultilineDraft, command: String, to asBatch: [Client],
        _ shownTarget: String,
        _ msgid: String, _ now: Date, out: inout Outbox
    ) {
        let echoLabel = asBatch.contains { $0 === client } ? client.label : nil
        if echoLabel != nil { client.label = nil }
        let batchReceivers = Outbox.Recipients.some(asBatch)
        let start = userMessage(
            state,
            client, "BATCH", ["+" + msgid, Self.multilineCap, shownTarget], clientTags: draft.clientTags,
            msgid: msgid, at: now)
        if let echoLabel {
            var labeled = start
            labeled.tags.insert(IRCTag("label", echoLabel), at: 0)
            out.send(.some(asBatch.filter { $0 !== client }), start)
            out.send(.one(client), labeled, labeled: false)
        } else {
            out.send(batchReceivers, start)
        }
        for piece in draft.lines {
            var tags = [IRCTag("batch", msgid)]
            if piece.concat { tags.append(IRCTag(Self.multilineConcat)) }
            out.send(
                batchReceivers,
                IRCMessage(
                    tags: tags, source: state[client].prefix, command: command, params: [shownTarget, piece.text]),
                labeled: false)
        }
        out.send(
            batchReceivers, IRCMessage(source: state[client].prefix, command: "BATCH", params: ["-" + msgid]),
            labeled: false)
    }

    /// A stored text as lines that each fit in one IRC message: its own lines, long ones cut
    /// after a space (the following parts marked `concat`, to be joined without a newline).
    static func multilinePieces(_ text: String, maxBytes: Int = TextSplitter.maxBytes) -> [(text: String, concat: Bool)]
    {
        var pieces: [(text: String, concat: Bool)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Substring(line)
            var concat = false
            while rest.utf8.count > maxBytes {
                var cut = Substring(IRCMessage.truncate(String(rest), toBytes: maxBytes))
                if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > cut.count / 2 {
                    cut = cut[...space]
                }
                pieces.append((String(cut), concat))
                rest = rest.dropFirst(cut.count)
                concat = true
            }
            pieces.append((String(rest), concat))
        }
        return pieces
    }
}
