import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// `!history`: the last lines of a channel you are in, or of a conversation with someone (to you alone).
enum HistoryCommands {
    static let defaultLines = 10
    static let maxLines = 50

    static let history = BotCommand(
        "history", group: "channels", usage: "[#CHANNEL|NICK] [N]",
        summary:
            "the last N lines (default \(defaultLines), at most \(maxLines)) of a channel you're in or a conversation",
        example: "!history #lobby 20", arity: 0...2
    ) { request in
        var target: String? = request.caller.channel
        var count = defaultLines
        for word in request.words {
            if let n = Int(word) {
                guard (1...maxLines).contains(n) else { throw request.usageError("N is 1 to \(maxLines)") }
                count = n
            } else {
                target = word
            }
        }
        guard let target else { throw request.usageError("which channel or person?") }
        let store = request.services.store
        let keys: [String]
        let title: String
        if IRCNames.isChannel(target) {
            guard
                let live = request.presence.channel(
                    nameKey: IRCNames.fold(target), sessionID: request.caller.sessionID),
                live.callerIsMember
            else { throw BotError("join \(target) to read its history") }
            keys = try await store.readableHistoryTargets(
                channel: IRCNames.fold(target), current: live.historyKey, accountID: request.caller.account?.id)
            title = live.name
        } else {
            let me = try request.account()
            guard let other = try await store.account(nameKey: IRCNames.fold(target)) else {
                throw BotError("nobody is called \(target) (conversations are kept between accounts)")
            }
            keys = [HistoryRecord.conversation(me.id, other.id)]
            title = "you and \(other.name)"
        }
        let records = try await store.latestHistory(targets: keys, limit: count)
        // To the caller alone: a channel keeps what is said to everyone there, and history
        // quoting earlier `!history`s would fill it with itself.
        if records.isEmpty { return BotResponse(["Nothing kept for \(title) yet."]).privately }
        let now = Date()
        var lines = ["Last \(records.count) line\(records.count == 1 ? "" : "s") of \(title):"]
        for record in records {
            let nick = record.source.prefix { $0 != "!" }
            lines.append(
                "  \(request.style.dim(TimeText.ago(from: record.createdAt, to: now))) <\(nick)> \(record.text)")
        }
        return BotResponse(lines).privately
    }

    static let all = [history]
}
