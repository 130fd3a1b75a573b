import Foundation
import HearthBot
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
        guard let target = message.params.first, !target.isEmpty else {
            reply(client, .noRecipient, "No recipient given (TAGMSG)")
            return
        }
        let tags = Self.clientTags(message)
        withState { out in
            let relay: IRCMessage
            var recipients: [Client]
            if IRCNames.isChannel(target) {
                guard let (channel, _) = memberChannel(client, target, out: &out) else { return }
                if let refusal = channelRefusal(client, channel) {
                    out.send(client, numeric(client, .cannotSendToChan, channel.name, refusal))
                    return
                }
                relay = userMessage(client, "TAGMSG", [channel.name], clientTags: tags)
                recipients = channel.order.filter { $0 !== client }
            } else {
                guard let recipient = nicks[IRCNames.fold(target)], recipient.registered else {
                    out.send(client, numeric(client, .noSuchNick, target, "No such nick/channel"))
                    return
                }
                if isBlocked(client, by: recipient) { return }
                relay = userMessage(client, "TAGMSG", [recipient.nick], clientTags: tags)
                recipients = privateReceivers(from: client, to: recipient)
            }
            if client.caps.contains("echo-message") { recipients.append(client) }
            // Only clients that speak message-tags can make sense of a TAGMSG.
            recipients = recipients.filter { $0.caps.contains("message-tags") }
            if !recipients.isEmpty { out.send(recipients, relay) }
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
            if !isNotice { reply(client, .tooManyTargets, targetList, "Too many recipients (the limit is \(IRCLimits.targetsPerMessage))") }
            return
        }
        for target in targets {
            send(client, command: message.command, target: target, text: text, clientTags: tags)
        }
    }

    /// Delivers one message to one target, running bot commands where they are meant for the bot.
    func send(_ client: Client, command: String, target: String, text: String, clientTags: [IRCTag] = []) {
        let isNotice = command == "NOTICE"
        let key = IRCNames.fold(target)
        if key == Bot.nick {
            if !isNotice { runBot(client, text: text, channel: nil, requireBang: false) }
            return
        }
        if key == "nickserv" {
            let nick = lock.withLock { client.nick }
            if !isNotice { runBot(client, text: NickServAlias.translate(text, nick: nick), channel: nil, requireBang: false) }
            return
        }
        if IRCNames.isChannel(target) {
            var botChannel: String?
            var secret = false
            withState { out in
                guard let channel = channels[key] else {
                    if !isNotice { out.send(client, numeric(client, .noSuchChannel, target, "No such channel")) }
                    return
                }
                if let refusal = channelRefusal(client, channel) {
                    if !isNotice { out.send(client, numeric(client, .cannotSendToChan, channel.name, refusal)) }
                    return
                }
                if bot.isSecret(text) {
                    secret = true
                    return
                }
                client.lastMessageAt = Date()
                let echo = client.caps.contains("echo-message")
                let wanted = channel.membersByLoop().tagMask.union(echo ? client.tagMask : [])
                let msgid = MessageStamp.msgid()
                let relay = userMessage(client, command, [channel.name, text], clientTags: clientTags, msgid: msgid, wanted: wanted)
                out.send(channel, except: client, relay)
                recordHistory(HistoryRecord(
                    target: channel.historyKey, msgid: msgid, source: client.prefix, accountID: client.account?.id, command: command,
                    text: text, createdAt: Date()))
                if echo { out.send(client, relay) }
                if !isNotice && text.drop(while: { $0 == " " }).hasPrefix("!") { botChannel = channel.key }
            }
            if secret {
                if isNotice { return }
                withState { out in
                    out.send(client, botMessage(to: client.nick, "(not shown in \(target): that command carries a password or token, so it only ever goes to me privately — use /msg \(Bot.nick) …)"))
                }
                runBot(client, text: text, channel: nil, requireBang: true)
            } else if let botChannel {
                runBot(client, text: text, channel: botChannel, requireBang: true)
            }
            return
        }
        let online = withState { out -> Bool in
            guard let recipient = nicks[key], recipient.registered else { return false }
            if isBlocked(client, by: recipient) {
                if !isNotice {
                    out.send(client, numeric(client, .cannotSendToUser, recipient.nick, "\(recipient.nick) does not accept messages from you"))
                }
                return true
            }
            client.lastMessageAt = Date()
            let echo = client.caps.contains("echo-message")
            let receivers = privateRecipients(from: client, to: recipient)
            let wanted = receivers.tagMask.union(echo ? client.tagMask : [])
            // Conversations between two accounts are kept (guests have no lasting identity).
            let kept = client.account.flatMap { from in recipient.account.map { (from.id, $0.id) } }
            // A msgid is made only when someone sees it or history keeps it.
            let msgid = kept != nil || wanted.contains(.messageTags) ? MessageStamp.msgid() : nil
            let relay = userMessage(client, command, [recipient.nick, text], clientTags: clientTags, msgid: msgid, wanted: wanted)
            out.send(receivers, relay)
            if let (from, to) = kept, let msgid {
                recordHistory(HistoryRecord(
                    target: HistoryRecord.conversation(from, to), msgid: msgid, source: client.prefix, accountID: from, command: command,
                    text: text, createdAt: Date()))
            }
            if echo { out.send(client, relay) }
            // A plain-mode sender sees what went where.
            if client.isPlain { notice(client, "[to \(recipient.nick)] \(text)", out: &out) }
            if !isNotice, let away = recipient.away {
                out.send(client, numeric(client, .away, recipient.nick, away))
            }
            return true
        }
        if !online && !isNotice { keepForLater(client, target: target, text: text) }
    }

    /// A private message to someone not online: kept if they have an account (and the
    /// sender is logged in), otherwise 401.
    func keepForLater(_ client: Client, target: String, text: String) {
        guard let sender = lock.withLock({ client.account }), IRCNames.isValidNick(target) else {
            let guest = lock.withLock { client.account } == nil && IRCNames.isValidNick(target)
            reply(client, .noSuchNick, target, guest ? "No such nick/channel (log in to leave messages for people who are offline)" : "No such nick/channel")
            return
        }
        let store = self.store
        later(client, {
            try? await store.keepOfflineMessage(
                recipientKey: IRCNames.fold(target), senderID: sender.id, senderName: sender.name, text: text)
        }) { result in
            switch result {
            case .stored:
                self.withState { self.notice(client, "\(target) is offline; they will get your message when they next log in.", out: &$0) }
            case .inboxFull:
                self.withState {
                    self.notice(client, "\(target) is offline and has \(Store.maxOfflineMessages) messages waiting already; yours was not kept.", out: &$0)
                }
            case .blocked:
                self.reply(client, .cannotSendToUser, target, "\(target) does not accept messages from you")
            case .noSuchAccount, nil:
                self.reply(client, .noSuchNick, target, "No such nick/channel")
            }
        }
    }

    /// Delivers the messages kept while the account was offline, with their original time.
    func deliverKept(_ client: Client) {
        guard let account = lock.withLock({ client.account }) else { return }
        let store = self.store
        later(client, { (try? await store.takeOfflineMessages(for: account.id)) ?? [] }) { messages in
            guard !messages.isEmpty else { return }
            self.withState { out in
                self.replay(
                    client,
                    messages.map { ("\($0.senderName)!\($0.senderName)@\(self.serverName)", "PRIVMSG", client.nick, $0.text, $0.createdAt) },
                    out: &out)
            }
        }
    }

    /// Why `client` may not speak in `channel` (+n, +m, bans), or nil. Under the lock.
    func channelRefusal(_ client: Client, _ channel: ChannelState) -> String? {
        let status = channel.members[client.id]
        let privileged = status?.op == true || status?.voice == true || client.isOper
        if status == nil && channel.flags.contains("n") { return "Cannot send to channel (+n) — join it first" }
        if channel.flags.contains("m") && !privileged { return "Cannot send to channel (+m) — only voiced users may speak" }
        if channel.isBanned(client) && !privileged { return "Cannot send to channel — you are banned" }
        return nil
    }

    /// Whether `recipient`'s account blocks `client`'s. Under the lock.
    func isBlocked(_ client: Client, by recipient: Client) -> Bool {
        guard let sender = client.account?.id, let receiver = recipient.account?.id else { return false }
        return blocking[receiver]?.contains(sender) == true
    }

    func botMessage(to target: String, _ text: String) -> IRCMessage {
        IRCMessage(source: botPrefix, command: "PRIVMSG", params: [target, text])
    }

    /// Asks the bot; its answer goes to the channel (group sessions) or privately.
    func runBot(_ client: Client, text: String, channel channelKey: String?, requireBang: Bool) {
        let caller = lock.withLock { client.caller(channel: channelKey.flatMap { channels[$0]?.name }) }
        let bot = self.bot!
        later(client, { await bot.handle(text, caller: caller, requireBang: requireBang) }) { response in
            guard let response else { return }
            self.withState { out in
                for effect in response.effects { self.apply(effect, for: client, out: &out) }
                let lines = response.lines.flatMap { TextSplitter.split($0) }
                if channelKey == nil, let failure = response.failure, client.caps.contains("standard-replies") {
                    // A private failure as a standard reply, for clients that show them as errors.
                    for line in lines {
                        out.send(client, IRCMessage(source: self.serverName, command: "FAIL", params: [failure.command, failure.code, line]))
                    }
                } else if let channelKey, let channel = self.channels[channelKey], channel.members[client.id] != nil {
                    // (A caller the command took out of the channel gets the answer privately.)
                    for line in lines {
                        out.send(channel, self.botMessage(to: channel.name, line))
                        self.recordHistory(HistoryRecord(
                            target: channel.historyKey, msgid: MessageStamp.msgid(), source: self.botPrefix, command: "PRIVMSG",
                            text: line, createdAt: Date()))
                    }
                } else {
                    for line in lines { out.send(client, self.botMessage(to: client.nick, line)) }
                }
                for line in response.privateLines.flatMap({ TextSplitter.split($0) }) {
                    out.send(client, self.botMessage(to: client.nick, line))
                }
            }
            if response.effects.contains(where: { if case .login = $0 { return true } else { return false } }) {
                self.deliverKept(client)
            }
        }
    }

    // MARK: effects of bot commands on connections

    func apply(_ effect: SessionEffect, for client: Client, out: inout Outbox) {
        switch effect {
        case .login(let account, let tokenHash):
            logIn(client, account, tokenHash: tokenHash, out: &out)
        case .logout:
            logOut(client, note: nil, out: &out)
        case .logoutEverywhere(let id, let keep):
            for other in clients.values where other.account?.id == id && other.id != keep {
                logOut(other, note: other === client ? nil : "You were logged out from another connection.", out: &out)
            }
        case .notify(let id, let text):
            notify(accountID: id, text: text, out: &out)
        case .blocks(let id, let blocked):
            blocking[id] = blocked.isEmpty ? nil : blocked
        case .channelOwned(let record):
            registered[record.nameKey] = record
            if let channel = channels[record.nameKey] { renewHistoryKey(channel) }
        case .channelDropped(let key):
            registered[key] = nil
            retireHistory(of: key, keepFor: client.account.map { [$0.id] } ?? [])
        case .remind(let id, let at, let text):
            scheduleReminder(accountID: id, at: at, text: text)
        case .captureLines(let id, let on):
            for other in clients.values where other.account?.id == id { other.linesToBot = on }
        case .guardedChannel(let guest):
            let key = IRCNames.fold(guest.name)
            guarded[key] = guest
            if let channel = channels[key] {
                channel.topic = guest.topic
                for member in channel.order where !(member.account.map { guest.members.contains($0.id) } ?? false) {
                    leave(member, channel, userMessage(member, "PART", [channel.name, "No longer in \(guest.owner)"]), out: &out)
                }
            }
        case .joinChannels(let id, let names):
            for other in clients.values where other.account?.id == id && other.registered {
                for name in names { other.eventLoop.execute { self.joinOne(other, name: name, key: nil) } }
            }
        case .channelMessage(let key, let text):
            guard let channel = channels[key] else { return }
            out.send(channel, botMessage(to: channel.name, text))
            recordHistory(HistoryRecord(
                target: channel.historyKey, msgid: MessageStamp.msgid(), source: botPrefix, command: "PRIVMSG", text: text, createdAt: Date()))
        case .accountGone(let id):
            let owned = registered.filter { $0.value.ownerId == id }.keys
            registered = registered.filter { $0.value.ownerId != id }
            for key in owned { retireHistory(of: key, keepFor: []) }
            blocking[id] = nil
        case .botFlag(let id, let isBot):
            for other in clients.values where other.account?.id == id && other.isBot != isBot {
                other.isBot = isBot
                if other.mode == .irc && other.registered {
                    out.send(other, IRCMessage(source: other.prefix, command: "MODE", params: [other.nick, isBot ? "+B" : "-B"]))
                }
            }
        case .renamed(let id, let newName):
            for other in clients.values where other.account?.id == id {
                let oldKey = IRCNames.fold(other.account!.name)
                other.account!.name = newName
                if other.mode == .irc {
                    out.send(other, numeric(other, .loggedIn, other.prefix, newName, "You are now logged in as \(newName)"))
                }
                sendToPeers(of: other, withCap: "account-notify", userMessage(other, "ACCOUNT", [newName]), out: &out)
                if other.nickKey == oldKey { claimNick(other, newName, out: &out) }
            }
        }
    }

    func logIn(_ client: Client, _ account: AccountRef, tokenHash: String?, out: inout Outbox) {
        client.account = account
        client.tokenHash = tokenHash
        if client.mode == .irc {
            out.send(client, numeric(client, .loggedIn, client.prefix, account.name, "You are now logged in as \(account.name)"))
        }
        sendToPeers(of: client, withCap: "account-notify", userMessage(client, "ACCOUNT", [account.name]), out: &out)
        for key in client.channels { if let channel = channels[key] { grantHistory(client, channel) } }
        claimNick(client, account.name, out: &out)
    }

    /// Gives a logged-in connection its account's nick; a guest squatting on it moves aside.
    func claimNick(_ client: Client, _ name: String, out: inout Outbox) {
        let key = IRCNames.fold(name)
        if client.nickKey == key {
            if client.nick != name { setNick(client, to: name, out: &out) }
            return
        }
        if let holder = nicks[key], holder !== client {
            if holder.account != nil && holder.account?.id == client.account?.id {
                if canShareNick(client, with: holder) {
                    attachDevice(client, to: holder, out: &out)
                } else {
                    notice(client, "\(holder.nick) is in use on \(Self.maxDevicesPerUser) connections already; this one stays \(client.nick).", out: &out)
                }
                return
            }
            let guest = freeGuestNick()
            setNick(holder, to: guest, out: &out)
            notice(holder, "The nick \(name) belongs to an account that just logged in; you are now \(guest).", out: &out)
        }
        setNick(client, to: name, out: &out)
    }

    func logOut(_ client: Client, note: String?, out: inout Outbox) {
        guard let account = client.account else { return }
        client.account = nil
        client.tokenHash = nil
        if client.isBot {
            client.isBot = false
            if client.mode == .irc { out.send(client, IRCMessage(source: client.prefix, command: "MODE", params: [client.nick, "-B"])) }
        }
        sendToPeers(of: client, withCap: "account-notify", userMessage(client, "ACCOUNT", ["*"]), out: &out)
        if client.mode == .irc {
            out.send(client, numeric(client, .loggedOut, client.prefix, "You are now logged out"))
        }
        // A device sharing the account's nick leaves the user's channels and the nick.
        let detached = detachDevice(client, tell: true, out: &out)
        if detached || client.isPlain || client.nickKey == IRCNames.fold(account.name) {
            setNick(client, to: freeGuestNick(), out: &out)
        }
        if let note { notice(client, note, out: &out) }
    }
}

/// Splits long bot lines at spaces so each fits in one IRC message.
enum TextSplitter {
    static let maxBytes = 400

    static func split(_ text: String, maxBytes: Int = TextSplitter.maxBytes) -> [String] {
        var result: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(rawLine)
            while line.utf8.count > maxBytes {
                var cut = IRCMessage.truncate(line, toBytes: maxBytes)
                if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > cut.count / 2 {
                    cut = String(cut[..<space])
                }
                result.append(cut)
                line = String(line.dropFirst(cut.count).drop { $0 == " " })
            }
            result.append(line)
        }
        return result
    }
}
