import Foundation
import HearthProtocol
import HearthStore

/// EDIT (IRCv3 draft/message-edit, the work-in-progress "Message editing and deletion",
/// extensions/message-edit.md of ircv3/ircv3-specifications PR #425): the author changes the
/// text of their own message, within `editWindow`. The client sends
/// `@draft/target-msgid=<msgid>;draft/edit-text=<text> EDIT <target>`; clients with the cap get
/// the same with a msgid of its own, the others (and plain mode) an edit line. Kept in history
/// as an EDIT row acting on the message (`refMsgid`), replayed by CHATHISTORY the same way.
extension Core {
    static let editCap = "draft/message-edit"
    static let editTargetTag = "draft/target-msgid"
    static let editTextTag = "draft/edit-text"
    /// How long after sending a message its author may still edit it.
    static let editWindow: TimeInterval = 15 * 60
    /// Longest new text (bytes), as a PRIVMSG's text could be.
    static let editTextMaxBytes = 400

    private func editFail(_ client: Client, _ code: String, _ params: [String], _ text: String) {
        withState { _, out in
            out.send(client, IRCMessage(source: serverName, command: "FAIL", params: ["EDIT", code] + params + [text]))
        }
    }

    func edit(_ client: Client, _ message: IRCMessage) {
        let target = message.params[0]
        guard let msgid = message.tag(Self.editTargetTag), !msgid.isEmpty,
            let text = message.tag(Self.editTextTag), !text.isEmpty
        else {
            return editFail(client, "INVALID_EDIT", [target], "EDIT needs draft/target-msgid and draft/edit-text tags")
        }
        guard text.utf8.count <= Self.editTextMaxBytes,
            !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
        else {
            return editFail(
                client, "INVALID_EDIT", [target, msgid],
                "Invalid edit text (one line, at most \(Self.editTextMaxBytes) bytes)")
        }
        let account = chat.withLock { state in state[client].account }
        let store = self.store
        let now = config.clock.now()
        later(
            client,
            { () -> Result<(key: String, record: HistoryRecord), EditRefusal> in
                guard let keys = await self.historyTargets(client, target) else { return .failure(.target) }
                await self.flushHistory()
                guard let record = try? await store.historyMessage(targets: keys, msgid: msgid),
                    record.command == "PRIVMSG" || record.command == "NOTICE"
                else { return .failure(.unknown) }
                guard let account, record.accountID == account.id else { return .failure(.forbidden) }
                guard now.timeIntervalSince(record.createdAt) <= Self.editWindow else { return .failure(.expired) }
                return .success((keys[0], record))
            }
        ) { result in
            switch result {
            case .failure(.target):
                self.editFail(client, "INVALID_TARGET", [target], "You can't edit messages in \(target)")
            case .failure(.unknown):
                self.editFail(client, "INVALID_EDIT", [target, msgid], "No message \(msgid) of yours in \(target)")
            case .failure(.forbidden):
                self.editFail(client, "EDIT_FORBIDDEN", [target, msgid], "You may only edit your own messages")
            case .failure(.expired):
                let minutes = Int(Self.editWindow / 60)
                self.editFail(
                    client, "EDIT_WINDOW_EXPIRED", [target, msgid, String(Int(Self.editWindow))],
                    "You can no longer edit this message (only within \(minutes) minutes of sending it)")
            case .success(let (key, record)):
                self.deliverEdit(client, target: target, key: key, of: record, text: text)
            }
        }
    }

    enum EditRefusal: Error { case target, unknown, forbidden, expired }

    /// Tells the channel (or both sides of the conversation) and keeps the edit.
    private func deliverEdit(_ client: Client, target: String, key: String, of record: HistoryRecord, text: String) {
        let msgid = MessageStamp.msgid()
        let now = MessageStamp.now()
        withState { state, out in
            var audience: [Client]
            var shown = target
            if let channel = state.channels[IRCNames.fold(target)] {
                // An edit is new text in the channel: the rules for speaking now (bans, +m, +M, +C) apply.
                if let refusal = channelRefusal(state, client, channel, text: text) {
                    out.send(client, numeric(state, client, .cannotSendToChan, channel.name, refusal))
                    return
                }
                audience = channel.order
                shown = channel.name
                channel.recent.edit(record.msgid, text: text)
            } else {
                // Every connection of either account, as REDACT does.
                let ids = HistoryRecord.conversationAccounts(key)
                audience = state.clients.values.filter { state[$0].account.map { ids.contains($0.id) } ?? false }
                // Someone who blocked the author since is not sent the author's new text.
                if let blocker = audience.first(where: { state.isBlocked(client, by: $0) }) {
                    let why = "\(state[blocker].nick) does not accept messages from you"
                    out.send(client, numeric(state, client, .cannotSendToUser, state[blocker].nick, why))
                    return
                }
            }
            if !audience.contains(where: { $0 === client }) { audience.append(client) }
            for receiver in audience {
                let to =
                    IRCNames.isChannel(shown) ? shown : privateEditTarget(state, receiver, author: client, to: shown)
                out.send(
                    receiver,
                    editLine(
                        state, receiver, source: state[client].prefix, target: to,
                        ref: record.msgid, text: text, msgid: msgid, at: now))
            }
            recordHistory(
                HistoryRecord(
                    target: key, msgid: msgid, source: state[client].prefix, accountID: state[client].account?.id,
                    command: "EDIT", text: text, createdAt: now, refMsgid: record.msgid))
            let line = editLine(
                source: state[client].prefix, target: shown, ref: record.msgid, text: text, msgid: msgid, at: now)
            tellNetwork(client) { .edit($0, history: key, line: line) }
        }
    }

    /// Whom an edit in a private conversation is shown as addressed to for `receiver`, on every node:
    /// the author's own devices see whom it was to (so they file it under that conversation), the
    /// other side sees who sent it.
    func privateEditTarget(_ state: ChatState, _ receiver: Client, author: Client, to target: String) -> String {
        let mine = state[receiver].account.map { $0.id == state[author].account?.id } ?? (receiver === author)
        return mine ? target : state[author].nick
    }

    /// An edit as clients with the cap read it.
    private func editLine(
        source: String, target: String, ref: String, text: String, msgid: String, at: Date, extraTags: [IRCTag] = []
    ) -> IRCMessage {
        let stamp = [IRCTag("time", MessageStamp.time(at)), IRCTag("msgid", msgid)]
        return IRCMessage(
            tags: extraTags + stamp + [IRCTag(Self.editTargetTag, ref), IRCTag(Self.editTextTag, text)],
            source: source, command: "EDIT", params: [target])
    }

    /// An edit as `receiver` reads it: EDIT with the cap (and plain mode, which renders it), an
    /// edit line from the server otherwise (the proposal's fallback).
    func editLine(
        _ state: ChatState, _ receiver: Client, source: String, target: String, ref: String, text: String,
        msgid: String, at: Date, extraTags: [IRCTag] = []
    ) -> IRCMessage {
        editLine(
            state, receiver,
            editLine(source: source, target: target, ref: ref, text: text, msgid: msgid, at: at, extraTags: extraTags))
    }

    /// `edit` (an EDIT line as clients with the cap read it, from here or another node) as
    /// `receiver` reads it.
    func editLine(_ state: ChatState, _ receiver: Client, _ edit: IRCMessage) -> IRCMessage {
        if state[receiver].isPlain || state[receiver].caps.contains(Self.editCap) { return edit }
        let nick = String((edit.source ?? "").prefix { $0 != "!" })
        let text = edit.tag(Self.editTextTag) ?? ""
        return IRCMessage(
            tags: edit.tags.filter { $0.key != Self.editTargetTag && $0.key != Self.editTextTag },
            source: serverName, command: "NOTICE", params: [edit.params.first ?? "", "\(nick) edited: \(text)"])
    }
}
