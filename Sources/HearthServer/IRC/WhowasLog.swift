import Foundation
import HearthProtocol

/// Who used a nick before: the last few users of each nick, kept in memory only (a restart
/// forgets them), bounded in nicks and in entries per nick.
struct WhowasLog {
    struct Entry {
        var nick: String
        var user: String
        var host: String
        var realname: String
        var server: String
        var account: String?
        var leftAt: Date
    }

    /// Entries kept per nick, newest first.
    static let entriesPerNick = 5
    /// Nicks remembered; the one recorded longest ago is forgotten first.
    static let nicksKept = 2_000

    private var entries: [String: [Entry]] = [:]
    /// Nick keys in the order they were last recorded (oldest first), for forgetting.
    private var order: [String] = []

    var count: Int { entries.count }

    mutating func record(_ entry: Entry) {
        let key = IRCNames.fold(entry.nick)
        if entries[key] != nil { order.removeAll { $0 == key } }
        entries[key, default: []].insert(entry, at: 0)
        if entries[key]!.count > Self.entriesPerNick { entries[key]!.removeLast() }
        order.append(key)
        if order.count > Self.nicksKept { entries[order.removeFirst()] = nil }
    }

    /// The users of nicks matching `mask` (a nick, or a glob), newest first; at most `limit`
    /// per nick when it is positive.
    func lookup(_ mask: String, limit: Int) -> [Entry] {
        let key = IRCNames.fold(mask)
        let keys =
            mask.contains(where: { "*?".contains($0) })
            ? order.reversed().filter { IRCNames.globMatch(key, $0) } : [key]
        return keys.flatMap { key -> [Entry] in
            let found = entries[key] ?? []
            return limit > 0 ? Array(found.prefix(limit)) : found
        }
    }
}
