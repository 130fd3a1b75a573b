import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// What the bot's answers do to connections (`SessionEffect`), applied under the lock.
extension Core {
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
            for other in clients.values where other.account?.id == id {
                other.linesToBot = on
                other.linesToBotTouched = config.clock.now()
            }
        case .guardedChannel(let guest):
            let key = IRCNames.fold(guest.name)
            guarded[key] = guest
            if let channel = channels[key] {
                channel.topic = guest.topic
                for member in channel.order where !(member.account.map { guest.members.contains($0.id) } ?? false) {
                    leave(
                        member, channel, userMessage(member, "PART", [channel.name, "No longer in \(guest.owner)"]),
                        out: &out)
                }
            }
        case .joinChannels(let id, let names):
            for other in clients.values where other.account?.id == id && other.registered {
                for name in names { other.eventLoop.execute { self.joinOne(other, name: name, key: nil) } }
            }
        case .channelMessage(let key, let text):
            guard let channel = channels[key] else { return }
            out.send(channel, botMessage(to: channel.name, text))
            recordHistory(
                HistoryRecord(
                    target: channel.historyKey, msgid: MessageStamp.msgid(), source: botPrefix, command: "PRIVMSG",
                    text: text, createdAt: Date()))
        case .accountGone(let id):
            let owned = registered.filter { $0.value.ownerId == id }.keys
            registered = registered.filter { $0.value.ownerId != id }
            for key in owned { retireHistory(of: key, keepFor: []) }
            blocking[id] = nil
        case .botFlag(let id, let isBot):
            for other in clients.values where other.account?.id == id && other.isBot != isBot {
                other.isBot = isBot
                if other.mode == .irc && other.registered {
                    out.send(
                        other,
                        IRCMessage(source: other.prefix, command: "MODE", params: [other.nick, isBot ? "+B" : "-B"]))
                }
            }
        case .renamed(let id, let newName):
            for other in clients.values where other.account?.id == id {
                let oldKey = IRCNames.fold(other.account!.name)
                other.account!.name = newName
                if other.mode == .irc {
                    out.send(
                        other, numeric(other, .loggedIn, other.prefix, newName, "You are now logged in as \(newName)"))
                }
                sendToPeers(of: other, withCap: "account-notify", userMessage(other, "ACCOUNT", [newName]), out: &out)
                if other.nickKey == oldKey { claimNick(other, newName, out: &out) }
            }
        }
    }
}
