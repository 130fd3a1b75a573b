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
    /// A running count of records, and the count at which each nick was last recorded.
    private var clock = 0
    private var recordedAt: [String: Int] = [:]
    /// Nick keys in the order they were recorded (oldest first, from `head`). A nick recorded
    /// again leaves a stale place behind (its count no longer matches), skipped when met: a
    /// record costs no scan of the log (it runs under the core's lock, at every QUIT and NICK).
    private var order: [(key: String, at: Int)] = []
    private var head = 0

    var count: Int { entries.count }

    mutating func record(_ entry: Entry) {
        let key = IRCNames.fold(entry.nick)
        clock += 1
        entries[key, default: []].insert(entry, at: 0)
        if entries[key]!.count > Self.entriesPerNick { entries[key]!.removeLast() }
        recordedAt[key] = clock
        order.append((key, clock))
        while entries.count > Self.nicksKept && head < order.count {
            let oldest = order[head]
            head += 1
            if recordedAt[oldest.key] == oldest.at { (entries[oldest.key], recordedAt[oldest.key]) = (nil, nil) }
        }
        // Drop the places passed and the stale ones now and then, so `order` stays bounded.
        if head > Self.nicksKept || order.count > 3 * Self.nicksKept {
            order = order[head...].filter { recordedAt[$0.key] == $0.at }
            head = 0
        }
    }

    /// The users of nicks matching `mask` (a nick, or a glob), newest first; at most `limit`
    /// per nick when it is positive.
    func lookup(_ mask: String, limit: Int) -> [Entry] {
        let key = IRCNames.fold(mask)
        let keys =
            mask.contains(where: { "*?".contains($0) })
            ? order[head...].reversed().filter { recordedAt[$0.key] == $0.at && IRCNames.globMatch(key, $0.key) }
                .map(\.key) : [key]
        return keys.flatMap { key -> [Entry] in
            let found = entries[key] ?? []
            return limit > 0 ? Array(found.prefix(limit)) : found
        }
    }
}
