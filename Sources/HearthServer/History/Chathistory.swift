import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// CHATHISTORY (IRCv3 draft/chathistory): LATEST, BEFORE, AFTER, AROUND, BETWEEN and
/// TARGETS over the stored history, answered inside a `batch`.
extension Core {
    /// Most messages one CHATHISTORY request returns (ISUPPORT CHATHISTORY).
    static let chathistoryLimit = 100

    private func historyFail(_ client: Client, _ code: String, _ context: [String], _ text: String) {
        withState { _, out in
            out.send(
                client,
                IRCMessage(source: serverName, command: "FAIL", params: ["CHATHISTORY", code] + context + [text]))
        }
    }

    static func parseRef(_ text: String) -> HistoryRef?? {
        if text == "*" { return .some(nil) }
        if text.hasPrefix("msgid=") { return .some(.msgid(String(text.dropFirst(6)))) }
        if text.hasPrefix("timestamp=") {
            let value = String(text.dropFirst(10))
            let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            if let date = (try? withFraction.parse(value)) ?? (try? Date.ISO8601FormatStyle().parse(value)) {
                return .some(.time(date))
            }
        }
        return nil
    }

    func chathistory(_ client: Client, _ message: IRCMessage) {
        let p = message.params
        guard let sub = p.first?.uppercased(), p.count >= 4 else {
            historyFail(client, "INVALID_PARAMS", [p.first ?? "*"], "Not enough parameters")
            return
        }
        guard let limitText = p.last, let requested = Int(limitText), requested > 0 else {
            historyFail(client, "INVALID_PARAMS", [sub], "The last parameter must be a positive limit")
            return
        }
        let limit = min(requested, Self.chathistoryLimit)
        if sub == "TARGETS" {
            guard case .time(let from)?? = Self.parseRef(p[1]), case .time(let to)?? = Self.parseRef(p[2]) else {
                historyFail(client, "INVALID_PARAMS", [sub], "TARGETS needs two timestamp= references")
                return
            }
            historyTargets(client, from: from, to: to, limit: limit)
            return
        }
        let target = p[1]
        let refs = p.dropFirst(2).dropLast().map { Self.parseRef($0) }
        guard !refs.contains(where: { $0 == nil }) else {
            historyFail(client, "INVALID_PARAMS", [sub, target], "References are msgid=…, timestamp=… or *")
            return
        }
        let parsed = refs.map { $0! }
        let expected = ["LATEST": 1, "BEFORE": 1, "AFTER": 1, "AROUND": 1, "BETWEEN": 2][sub]
        guard let expected, parsed.count == expected, sub == "LATEST" || !parsed.contains(where: { $0 == nil }) else {
            historyFail(
                client, "INVALID_PARAMS", [sub, target],
                "Use LATEST, BEFORE, AFTER, AROUND, BETWEEN or TARGETS with the right references")
            return
        }
        answerHistory(client, sub: sub, target: target, refs: parsed, limit: limit)
    }

    /// Reads the history `target` asks for (when `client` may read it) and sends it in a batch.
    private func answerHistory(_ client: Client, sub: String, target: String, refs: [HistoryRef?], limit: Int) {
        let store = self.store
        let isChannel = IRCNames.isChannel(target)
        let display = chat.withLock { state in state.channels[IRCNames.fold(target)]?.name ?? target }
        later(
            client,
            { () -> [HistoryRecord]? in
                guard let keys = await self.historyTargets(client, target) else { return nil }
                await self.flushHistory()  // include what was said in the last moments
                return await Self.readHistory(store, keys, sub: sub, refs: refs, limit: limit)
            }
        ) { records in
            guard let records else {
                self.historyFail(client, "INVALID_TARGET", [sub, target], "You can't read the history of \(target)")
                return
            }
            self.withState { state, out in
                let batch = self.openBatch(state, client, type: "chathistory", params: [display], out: &out)
                for record in records {
                    var shownTarget = display
                    if !isChannel {
                        let mine = record.accountID != nil && record.accountID == state[client].account?.id
                        shownTarget = mine ? target : state[client].nick
                    }
                    self.sendStored(state, client, record, to: shownTarget, inBatch: batch, out: &out)
                }
                self.closeBatch(client, batch, out: &out)
            }
        }
    }

    /// The records of `keys` a request (`sub`, its references) selects; nil when the store fails.
    private static func readHistory(
        _ store: Store, _ keys: [String], sub: String, refs: [HistoryRef?], limit: Int
    ) async -> [HistoryRecord]? {
        let a = refs.first ?? nil
        let b = refs.count > 1 ? refs[1] : nil
        switch sub {
        case "LATEST":
            return try? await store.history(targets: keys, after: a, before: nil, limit: limit, newestFirst: true)
        case "BEFORE":
            return try? await store.history(targets: keys, after: nil, before: a, limit: limit, newestFirst: true)
        case "AFTER":
            return try? await store.history(targets: keys, after: a, before: nil, limit: limit, newestFirst: false)
        case "AROUND":
            let older =
                (try? await store.history(targets: keys, after: nil, before: a, limit: limit / 2, newestFirst: true))
                ?? []
            let newer =
                (try? await store.history(
                    targets: keys, after: a, before: nil, limit: limit - older.count, newestFirst: false,
                    includeAfter: true)) ?? []
            return older + newer
        default:  // BETWEEN: forwards from a to b, or backwards when a is the later one
            let forwards =
                (try? await store.history(targets: keys, after: a, before: b, limit: limit, newestFirst: false)) ?? []
            if !forwards.isEmpty { return forwards }
            return try? await store.history(targets: keys, after: b, before: a, limit: limit, newestFirst: true)
        }
    }

    private func historyTargets(_ client: Client, from: Date, to: Date, limit: Int) {
        let (names, account) = chat.withLock { state in
            (
                Dictionary(
                    state[client].channels.compactMap { key in state.channels[key].map { ($0.historyKey, $0.name) } }
                ) {
                    a, _ in a
                },
                state[client].account
            )
        }
        let channelKeys = Array(names.keys)
        let store = self.store
        later(
            client,
            { () -> [(String, Date)] in
                await self.flushHistory()  // include what was said in the last moments
                let rows =
                    (try? await store.historyTargets(
                        channels: channelKeys, accountID: account?.id, from: from, to: to, limit: limit)) ?? []
                var result: [(String, Date)] = []
                for (target, latest) in rows {
                    if let name = names[target] {
                        result.append((name, latest))
                    } else if let account, target.hasPrefix("pm:") {
                        let ids = HistoryRecord.conversationAccounts(target)
                        if let other = ids.first(where: { $0 != account.id }) ?? ids.first,
                            let name = try? await store.account(id: other)?.name
                        {
                            result.append((name, latest))
                        }
                    }
                }
                return result
            }
        ) { targets in
            self.withState { state, out in
                let batch = self.openBatch(state, client, type: "draft/chathistory-targets", params: [], out: &out)
                for (name, latest) in targets {
                    var message = IRCMessage(
                        source: self.serverName, command: "CHATHISTORY",
                        params: ["TARGETS", name, MessageStamp.time(latest)])
                    if let batch { message.tags = [IRCTag("batch", batch)] }
                    out.send(client, message)
                }
                self.closeBatch(client, batch, out: &out)
            }
        }
    }

    /// The history keys of a target `client` may read: for a channel it is in, the present
    /// incarnation and the earlier ones its account was in; its conversation with an
    /// account. Nil when it may not.
    func historyTargets(_ client: Client, _ target: String) async -> [String]? {
        let (live, me): ((key: String, history: String)?, AccountRef?) = chat.withLock { state in
            if IRCNames.isChannel(target), let channel = state.channels[IRCNames.fold(target)],
                channel.members[client.id] != nil
            {
                return ((channel.key, channel.historyKey), state[client].account)
            }
            return (nil, state[client].account)
        }
        if IRCNames.isChannel(target) {
            guard let live else { return nil }
            return
                (try? await store.readableHistoryTargets(channel: live.key, current: live.history, accountID: me?.id))
                ?? [live.history]
        }
        guard let me, let other = try? await store.account(nameKey: IRCNames.fold(target)) else { return nil }
        return [HistoryRecord.conversation(me.id, other.id)]
    }

    /// One stored message inside a CHATHISTORY batch; a multiline one as a nested
    /// draft/multiline batch for clients that take it, line by line for others.
    func sendStored(
        _ state: ChatState, _ client: Client, _ record: HistoryRecord, to target: String, inBatch batch: String?,
        out: inout Outbox
    ) {
        let outer = batch.map { [IRCTag("batch", $0)] } ?? []
        let source = shownSource(record.source)
        switch record.command {
        case "TAGMSG", "TOPIC":
            // Events: only for clients that asked for them besides messages (event-playback); plain
            // mode shows a reaction as a line.
            let tags = KeptTags.decode(record.tags)
            let plainReaction = state[client].isPlain && KeptTags.isReaction(tags)
            guard state[client].caps.contains(KeptTags.eventPlaybackCap) || plainReaction else { return }
            let stamp = [IRCTag("time", MessageStamp.time(record.createdAt)), IRCTag("msgid", record.msgid)]
            out.send(
                client,
                IRCMessage(
                    tags: outer + stamp + tags, source: source, command: record.command,
                    params: record.command == "TOPIC" ? [target, record.text] : [target]))
            return
        case "EDIT":
            out.send(
                client,
                editLine(
                    state, client, source: source, target: target, ref: record.refMsgid ?? "", text: record.text,
                    msgid: record.msgid, at: record.createdAt, extraTags: outer))
            return
        default: break
        }
        let stamp =
            [IRCTag("time", MessageStamp.time(record.createdAt)), IRCTag("msgid", record.msgid)]
            + KeptTags.decode(record.tags)
        let pieces = Self.multilinePieces(record.text)
        if pieces.count == 1 {
            out.send(
                client,
                IRCMessage(
                    tags: outer + stamp, source: source, command: record.command, params: [target, record.text]))
        } else if batch != nil && state[client].caps.contains(Self.multilineCap) {
            let inner = MessageStamp.msgid()
            out.send(
                client,
                IRCMessage(
                    tags: outer + stamp, source: source, command: "BATCH",
                    params: ["+" + inner, Self.multilineCap, target]))
            for piece in pieces {
                let tags = [IRCTag("batch", inner)] + (piece.concat ? [IRCTag(Self.multilineConcat)] : [])
                out.send(
                    client,
                    IRCMessage(
                        tags: tags, source: source, command: record.command, params: [target, piece.text]))
            }
            out.send(client, IRCMessage(tags: outer, source: source, command: "BATCH", params: ["-" + inner]))
        } else {
            for (index, piece) in pieces.enumerated() {
                let tags = outer + (index == 0 ? stamp : [stamp[0]])
                out.send(
                    client,
                    IRCMessage(
                        tags: tags, source: source, command: record.command, params: [target, piece.text]))
            }
        }
    }

    /// Starts a batch for a client that negotiated `batch`; returns its reference tag.
    func openBatch(_ state: ChatState, _ client: Client, type: String, params: [String], out: inout Outbox) -> String? {
        guard state[client].caps.contains("batch") else { return nil }
        let id = MessageStamp.msgid()
        out.send(client, IRCMessage(source: serverName, command: "BATCH", params: ["+" + id, type] + params))
        return id
    }

    func closeBatch(_ client: Client, _ id: String?, out: inout Outbox) {
        guard let id else { return }
        out.send(client, IRCMessage(source: serverName, command: "BATCH", params: ["-" + id]))
    }
}
