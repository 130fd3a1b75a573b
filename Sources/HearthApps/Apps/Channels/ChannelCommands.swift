import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// `!channel register|info|drop|transfer|access`: channels with an owner.
enum ChannelCommands {
    static let group = "channels"
    /// Channels one account may own (each keeps a row and its history for good).
    static let maxOwned = 10

    static let channel = BotCommand(
        "channel", group: group, usage: "register|info|drop|transfer|access #CHANNEL [op|voice|none] [USER]",
        summary: "own a channel: its topic, modes and lists survive restarts; ops and voices by account",
        example: "!channel register #bakers", arity: 2...4
    ) { request in
        let action = request.words[0].lowercased()
        let name = request.words[1]
        guard IRCNames.isValidChannel(name) else { throw request.usageError("\(name) is not a channel name") }
        let key = IRCNames.fold(name)
        let store = request.services.store
        switch action {
        case "register":
            let me = try request.account()
            guard let live = request.presence.channel(nameKey: key, sessionID: request.caller.sessionID) else {
                throw BotError("\(name) doesn't exist right now: /join \(name) first")
            }
            if try await store.registeredChannel(nameKey: key) != nil {
                throw BotError("\(live.name) is registered already — !channel info \(live.name)")
            }
            guard live.callerIsOp else { throw BotError("only a channel operator of \(live.name) can register it") }
            let record = RegisteredChannel(
                nameKey: key, name: live.name, ownerId: me.id, topic: live.topic, topicSetBy: live.topicSetBy,
                topicSetAt: live.topic.isEmpty ? nil : Date(), flags: live.flags, channelKey: live.key,
                userLimit: live.limit)
            do {
                guard try await store.register(record, maxOwned: maxOwned) else {
                    throw BotError("\(live.name) is registered already — !channel info \(live.name)")
                }
            } catch is OwnsTooMany {
                throw BotError(
                    "you own \(maxOwned) channels already, the most one account may; !channel drop one first")
            }
            return BotResponse(
                ["\(live.name) is yours now: its topic and modes are kept, and you get ops back when you join."],
                effects: [.channelOwned(record)])
        case "info":
            guard let record = try await store.registeredChannel(nameKey: key) else {
                return BotResponse([
                    "\(name) is not registered"
                        + (request.caller.account == nil ? "." : " — an operator can !channel register \(name)")
                ])
            }
            let owner = try await store.account(id: record.ownerId)?.name ?? "?"
            let since = record.createdAt.formatted(.iso8601.year().month().day())
            let live = request.presence.channel(nameKey: key, sessionID: request.caller.sessionID)
            var lines = ["\(record.name) — owner \(owner), registered \(since), modes +\(record.flags)"]
            if !record.topic.isEmpty { lines.append("topic: \(record.topic)") }
            lines.append(live.map { "\($0.members) here now" } ?? "nobody here now")
            return BotResponse(lines)
        case "access":
            return try await access(request, name: name, key: key)
        case "drop", "transfer":
            let me = try request.account()
            guard let record = try await store.registeredChannel(nameKey: key) else {
                throw BotError("\(name) is not registered")
            }
            guard record.ownerId == me.id else { throw BotError("only the owner of \(record.name) can do that") }
            if action == "drop" {
                guard request.words.count == 2 else { throw request.usageError() }
                try await store.dropChannel(nameKey: key)
                return BotResponse(
                    ["\(record.name) is no longer registered."], effects: [.channelDropped(nameKey: key)])
            }
            guard request.words.count == 3 else { throw request.usageError("transfer needs the new owner") }
            guard let heir = try await store.account(nameKey: IRCNames.fold(request.words[2])) else {
                throw BotError("nobody is called \(request.words[2])")
            }
            do {
                try await store.transferChannel(nameKey: key, to: heir.id, maxOwned: maxOwned)
            } catch is OwnsTooMany {
                throw BotError("\(heir.name) owns \(maxOwned) channels already, the most one account may")
            }
            var updated = record
            updated.ownerId = heir.id
            return BotResponse(["\(record.name) now belongs to \(heir.name)."], effects: [.channelOwned(updated)])
        default:
            throw request.usageError("unknown action \(action)")
        }
    }

    /// `!channel access #CHANNEL`: who gets op or voice on joining; the owner adds with
    /// `op|voice USER` and takes away with `none USER`.
    static func access(_ request: BotRequest, name: String, key: String) async throws -> BotResponse {
        let store = request.services.store
        guard let record = try await store.registeredChannel(nameKey: key) else {
            throw BotError("\(name) is not registered")
        }
        guard request.words.count == 4 else {
            guard request.words.count == 2 else {
                throw request.usageError("access needs op, voice or none and a user")
            }
            let grants = try await store.channelAccess().filter { $0.nameKey == key }
            var lines: [String] = []
            for grant in grants {
                let who = try await store.account(id: grant.accountId)?.name ?? "?"
                lines.append("\(who): \(grant.level.rawValue)")
            }
            return BotResponse(
                lines.isEmpty ? ["nobody gets op or voice on joining \(record.name) but its owner"] : lines)
        }
        let me = try request.account()
        guard record.ownerId == me.id else { throw BotError("only the owner of \(record.name) can do that") }
        let word = request.words[2].lowercased()
        guard word == "none" || ChannelAccess.Level(rawValue: word) != nil else {
            throw request.usageError("say op, voice or none, not \(request.words[2])")
        }
        let level = ChannelAccess.Level(rawValue: word)
        guard let who = try await store.account(nameKey: IRCNames.fold(request.words[3])) else {
            throw BotError("nobody is called \(request.words[3])")
        }
        try await store.setChannelAccess(nameKey: key, accountId: who.id, level: level)
        let text =
            level.map { "\(who.name) gets \($0.rawValue) on joining \(record.name)." }
            ?? "\(who.name) gets nothing on joining \(record.name) any more."
        return BotResponse([text], effects: [.channelAccess(nameKey: key, accountID: who.id, level: level)])
    }

    static let all = [channel]
}
