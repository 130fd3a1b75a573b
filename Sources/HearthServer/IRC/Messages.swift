import Foundation
import HearthAccounts
import HearthKit
import HearthProtocol
import HearthStore

/// PRIVMSG, NOTICE and TAGMSG to channels, nicks and the bot.
extension Core {
    /// Client-only tags (`+typing`, `+draft/reply`…) travel with the message to clients
    /// that enabled message-tags.
    static func clientTags(_ message: IRCMessage) -> [IRCTag] {
        message.tags.filter { $0.key.hasPrefix("+") }
    }

    func tagmsg(_ client: Client, _ message: IRCMessage) {
        metrics.tagmsgsIn.increment()
        guard let target = message.params.first, !target.isEmpty else {
            reply(client, .noRecipient, "No recipient given (TAGMSG)")
            return
        }
        let tags = Self.clientTags(message)
        // A reaction is kept in history and shown to plain-mode users as a line (KeptTags).
        let reaction = KeptTags.isReaction(tags)
        let msgid = MessageStamp.msgid()
        let now = MessageStamp.now()
        withState { state, out in
            let relay: IRCMessage
            var recipients: [Client]
            var kept: String?
            if IRCNames.isChannel(target) {
                guard let (channel, _) = memberChannel(&state, client, target, out: &out) else { return }
                if let refusal = channelRefusal(state, client, channel) {
                    out.send(client, numeric(state, client, .cannotSendToChan, channel.name, refusal))
                    return
                }
                relay = userMessage(state, client, "TAGMSG", [channel.name], clientTags: tags, msgid: msgid, at: now)
                recipients = channel.order.filter { $0 !== client }
                kept = channel.historyKey
            } else {
                guard let recipient = state.nicks[IRCNames.fold(target)], state[recipient].registered else {
                    out.send(client, numeric(state, client, .noSuchNick, target, "No such nick/channel"))
                    return
                }
                if state.isBlocked(client, by: recipient) { return }
                relay = userMessage(
                    state, client, "TAGMSG", [state[recipient].nick], clientTags: tags, msgid: msgid, at: now)
                recipients = state.privateReceivers(from: client, to: recipient)
                if recipient === client { recipients.append(client) }
                kept = state[client].account.flatMap { from in
                    state[recipient].account.map { HistoryRecord.conversation(from.id, $0.id) }
                }
            }
            if let keptTags = KeptTags.keptTagmsg(tags), let kept, historyEnabled {
                recordHistory(
                    HistoryRecord(
                        target: kept, msgid: msgid, source: state[client].prefix, accountID: state[client].account?.id,
                        command: "TAGMSG", text: "", createdAt: now, kept: keptTags))
            }
            // Queued for history before it is forwarded, as PRIVMSG is: kept before another node answers.
            if recipients.contains(where: \.isRemote) { forward(client, relay, to: target) }
            // Only clients that speak message-tags can make sense of a TAGMSG; plain mode shows a
            // reaction as a line (PlainRenderer), to its sender too.
            recipients = recipients.filter {
                state[$0].caps.contains("message-tags") || (reaction && state[$0].isPlain)
            }
            if reaction && state[client].isPlain && !recipients.contains(where: { $0 === client }) {
                out.send(client, relay)
            }
            // One sent to oneself arrives as any would; the echo is the labeled reply.
            if recipients.contains(where: { $0 === client }) {
                recipients.removeAll { $0 === client }
                out.send(.one(client), relay, labeled: false)
            }
            if !recipients.isEmpty { out.send(recipients, relay) }
            if state[client].echoes && state[client].caps.contains("message-tags") { out.send(client, relay) }
        }
    }

    func privmsg(_ client: Client, _ message: IRCMessage) {
        let isNotice = message.command == "NOTICE"
        guard let targetList = message.params.first, !targetList.isEmpty else {
            if !isNotice { reply(client, .noRecipient, "No recipient given (\(message.command))") }
            return
        }
        guard message.params.count >= 2, !message.params[1].isEmpty else {
            if !isNotice { reply(client, .noTextToSend, "No text to send") }
            return
        }
        let text = message.params[1]
        let tags = Self.clientTags(message)
        // One target (nearly always): no list to build.
        if !targetList.utf8.contains(UInt8(ascii: ",")) {
            send(client, command: message.command, target: targetList, text: text, clientTags: tags)
            return
        }
        let targets = targetList.split(separator: ",").map(String.init)
        if targets.count > IRCLimits.targetsPerMessage {
            if !isNotice {
                reply(
                    client, .tooManyTargets, targetList,
                    "Too many recipients (the limit is \(IRCLimits.targetsPerMessage))")
            }
            return
        }
        for target in targets {
            send(client, command: message.command, target: target, text: text, clientTags: tags)
        }
    }

    /// Delivers one message to one target, running bot commands where they are meant for the bot.
    func send(_ client: Client, command: String, target: String, text: String, clientTags: [IRCTag] = []) {
        metrics.messageIn(command)
        if let status = target.first, "@+".contains(status), target.dropFirst().hasPrefix("#") {
            sendToStatus(
                client, command: command, status: status, name: String(target.dropFirst()), text: text,
                clientTags: clientTags)
            return
        }
        let key = IRCNames.fold(target)
        if sendToServices(client, key: key, command: command, text: text) { return }
        if IRCNames.isChannel(target) {
            sendToChannel(client, command: command, key: key, target: target, text: text, clientTags: clientTags)
            return
        }
        let online = withState { state, out -> Bool in
            guard let recipient = state.nicks[key], state[recipient].registered else { return false }
            relayPrivately(
                &state, client, to: recipient, command: command, text: text, clientTags: clientTags, out: &out)
            return true
        }
        if !online && command != "NOTICE" { keepForLater(client, target: target, text: text) }
    }

    /// A message to the bot or to NickServ (which the bot answers for): true when `key` is one.
    @inline(__always)
    private func sendToServices(_ client: Client, key: String, command: String, text: String) -> Bool {
        let isNotice = command == "NOTICE"
        if key == Bot.nick {
            if !isNotice { runBot(client, text: text, channel: nil, requireBang: false) }
            return true
        }
        if key == "nickserv" {
            let nick = chat.withLock { state in state[client].nick }
            if !isNotice {
                runBot(client, text: NickServAlias.translate(text, nick: nick), channel: nil, requireBang: false)
            }
            return true
        }
        return false
    }

    /// A message to the channel `key`: relayed, kept, and run by the bot when it is a command.
    @inline(__always)
    private func sendToChannel(
        _ client: Client, command: String, key: String, target: String, text: String, clientTags: [IRCTag]
    ) {
        let isNotice = command == "NOTICE"
        var botChannel: String?
        var secret = false
        var mentioned: [(PushNote, String, String)] = []
        withState { state, out in
            guard let channel = state.channels[key] else {
                if !isNotice { out.send(client, numeric(state, client, .noSuchChannel, target, "No such channel")) }
                return
            }
            if let refusal = channelRefusal(state, client, channel, text: text) {
                if !isNotice { out.send(client, numeric(state, client, .cannotSendToChan, channel.name, refusal)) }
                return
            }
            if bot.isSecret(text) {
                secret = true
                return
            }
            relayToChannel(&state, client, channel, command: command, text: text, clientTags: clientTags, out: &out)
            if !isNotice && text.drop(while: { $0 == " " }).hasPrefix("!") { botChannel = channel.key }
            if !isNotice { mentioned = mentions(state, client, channel, text: text) }
        }
        for (note, line, place) in mentioned { pushMention(note, in: place, ircLine: line) }
        if secret {
            if isNotice { return }
            withState { state, out in
                out.send(
                    client,
                    botMessage(
                        to: state[client].nick,
                        "(not shown in \(target): that command carries a password or token,"
                            + " so it only ever goes to me privately — use /msg \(Bot.nick) …)"
                    ))
            }
            runBot(client, text: text, channel: nil, requireBang: true)
        } else if let botChannel {
            runBot(client, text: text, channel: botChannel, requireBang: true)
        }
    }

    /// Relays a message `client` may say in `channel` to its members (and other nodes') and
    /// keeps it.
    @inline(__always)
    private func relayToChannel(
        _ state: inout ChatState, _ client: Client, _ channel: ChannelState, command: String, text: String,
        clientTags: [IRCTag],
        out: inout Outbox
    ) {
        state[client].lastMessageAt = Date()
        let echo = state[client].echoes
        // Members on other nodes get every tag; their node picks what each asked for.
        let everyTag: TagMask = channel.remoteCount > 0 ? [.serverTime, .messageTags, .accountTag] : []
        var wanted = UserMessageTags.wanted(
            by: channel.membersByLoop(state).tagMask.union(everyTag), sender: state[client].tagMask, echo: echo)
        let msgid = MessageStamp.msgid()
        let now = MessageStamp.now()
        let kept = KeptTags.kept(clientTags)
        // Plain-mode members render a reply from its tags, which they would otherwise not be given.
        if !kept.isEmpty { wanted.insert(.messageTags) }
        let relay = userMessage(
            state,
            client, command, [channel.name, text], clientTags: clientTags, msgid: msgid, wanted: wanted, at: now)
        out.send(state, channel, except: client, relay)
        channel.recent.append(RecentLine(msgid: msgid, nick: state[client].nick, text: text))
        recordHistory(
            HistoryRecord(
                target: channel.historyKey, msgid: msgid, source: state[client].prefix,
                accountID: state[client].account?.id,
                command: command, text: text, createdAt: now, kept: kept))
        // Kept before it is forwarded: the publisher writes the history queued before its events.
        if channel.remoteCount > 0 { forward(client, relay, to: channel.name) }
        if echo { out.send(client, relay) }
    }

    /// A private message to `recipient`, who is online: refused when it blocks `client`;
    /// otherwise relayed to its devices (and the sender's), kept between accounts.
    @inline(__always)
    private func relayPrivately(
        _ state: inout ChatState, _ client: Client, to recipient: Client, command: String, text: String,
        clientTags: [IRCTag], out: inout Outbox
    ) {
        let isNotice = command == "NOTICE"
        if state.isBlocked(client, by: recipient) {
            if !isNotice {
                let why = "\(state[recipient].nick) does not accept messages from you"
                out.send(client, numeric(state, client, .cannotSendToUser, state[recipient].nick, why))
            }
            return
        }
        state[client].lastMessageAt = Date()
        let echo = state[client].echoes
        let receivers = state.privateRecipients(from: client, to: recipient)
        // A message to oneself reaches its sender too: its caps count as with echo-message.
        let wanted = UserMessageTags.wanted(
            by: receivers.tagMask(state), sender: state[client].tagMask, echo: echo || recipient === client)
        // Conversations between two accounts are kept (guests have no lasting identity).
        let kept = state[client].account.flatMap { from in state[recipient].account.map { (from.id, $0.id) } }
        let tags = UserMessageTags(
            isBot: state[client].isBot, account: state[client].account, wanted: wanted, keep: kept != nil)
        let relay = userMessage(
            state, client, command, [state[recipient].nick, text], tags: tags, clientTags: clientTags)
        out.send(receivers, relay)
        // A message to oneself arrives as any would (the echo, if asked for, is the labeled reply).
        if recipient === client && !state[client].isPlain { out.send(.one(client), relay, labeled: false) }
        if let kept, let msgid = tags.msgid {
            recordConversation(
                kept, source: state[client].prefix, msgid: msgid, command: command, text: text, at: tags.now,
                tags: KeptTags.kept(clientTags))
        }
        // Kept before it is forwarded: the publisher writes the history queued before its events.
        if receivers.reachOtherNodes { forward(client, relay, to: state[recipient].nick) }
        if echo { out.send(client, relay) }
        // A plain-mode sender sees what went where.
        if state[client].isPlain { notice(state, client, "[to \(state[recipient].nick)] \(text)", out: &out) }
        if !isNotice, let away = state[recipient].away {
            out.send(client, numeric(state, client, .away, state[recipient].nick, away))
        }
    }

    /// Keeps a private message between two accounts in their conversation's history. Under the lock.
    func recordConversation(
        _ pair: (from: Int64, to: Int64), source: String, msgid: String, command: String, text: String, at: Date,
        tags: [IRCTag] = []
    ) {
        recordHistory(
            HistoryRecord(
                target: HistoryRecord.conversation(pair.from, pair.to), msgid: msgid, source: source,
                accountID: pair.from, command: command, text: text, createdAt: at, kept: tags))
    }

    /// Hands a message to the other nodes, whose users are among its recipients.
    func forward(_ client: Client, _ relay: IRCMessage, to target: String) {
        tellNetwork(client) { .message($0, target: target, line: relay) }
    }

    /// Why `client` may not speak in `channel` (+n, +m, +M, bans; +C for `text`), or nil.
    func channelRefusal(_ state: ChatState, _ client: Client, _ channel: ChannelState, text: String? = nil)
        -> String?
    {
        let status = channel.members[client.id]
        let privileged = status?.op == true || status?.voice == true || state[client].isOper
        if status == nil && channel.modes.flags.contains(.noOutside) {
            return "Cannot send to channel (+n) — join it first"
        }
        if channel.modes.flags.contains(.moderated) && !privileged {
            return "Cannot send to channel (+m) — only voiced users may speak"
        }
        if let refusal = state.speakRefusal(client, channel, text: text, privileged: privileged) { return refusal }
        if channel.isBanned(state, client) && !privileged { return "Cannot send to channel — you are banned" }
        if channel.isMuted(state, client) && !privileged { return "Cannot send to channel — you are muted" }
        return nil
    }

    /// STATUSMSG: `@#chan` reaches the channel's operators, `+#chan` its operators and voiced
    /// members. Not kept in history (the channel's other members could read it there).
    func sendToStatus(
        _ client: Client, command: String, status: Character, name: String, text: String, clientTags: [IRCTag]
    ) {
        let isNotice = command == "NOTICE"
        withState { state, out in
            guard let channel = state.channels[IRCNames.fold(name)], !state.hidden(channel, from: client) else {
                if !isNotice { out.send(client, numeric(state, client, .noSuchChannel, name, "No such channel")) }
                return
            }
            if let refusal = channelRefusal(state, client, channel, text: text) {
                if !isNotice { out.send(client, numeric(state, client, .cannotSendToChan, channel.name, refusal)) }
                return
            }
            let target = String(status) + channel.name
            let receivers = channel.order.filter { member in
                guard member !== client, let rank = channel.members[member.id] else { return false }
                return rank.op || (status == "+" && rank.voice)
            }
            let echo = state[client].echoes
            let wanted = UserMessageTags.wanted(
                by: receivers.reduce([]) { $0.union(state[$1].tagMask) }, sender: state[client].tagMask, echo: echo)
            let relay = userMessage(state, client, command, [target, text], clientTags: clientTags, wanted: wanted)
            if !receivers.isEmpty { out.send(receivers, relay) }
            if receivers.contains(where: \.isRemote) { forward(client, relay, to: target) }
            if echo { out.send(client, relay) }
        }
    }
}
