import Foundation
import HearthProtocol

/// One line said in a channel lately: what plain mode quotes for a reaction, a reply or an edit,
/// and what `/react` and `/reply` pick from.
struct RecentLine {
    var msgid: String
    var nick: String
    var text: String
}

/// A channel's last `capacity` lines in memory (a ring, written under the chat lock with every
/// channel message), so plain mode can quote and pick lines without reading the store.
struct RecentLines {
    /// Lines kept per channel; older ones are not quoted (plain mode says "an earlier message").
    static let capacity = 64
    private var lines: [RecentLine] = []
    private var next = 0

    @inline(__always)
    mutating func append(_ line: RecentLine) {
        if lines.count < Self.capacity {
            lines.append(line)
        } else {
            lines[next] = line
            next = (next + 1) % Self.capacity
        }
    }

    /// The lines, newest first.
    var newestFirst: [RecentLine] {
        Array((lines[next...] + lines[..<next]).reversed())
    }

    func line(_ msgid: String) -> RecentLine? {
        lines.first { $0.msgid == msgid }
    }

    /// An edit: the line reads as edited from now on.
    mutating func edit(_ msgid: String, text: String) {
        if let index = lines.firstIndex(where: { $0.msgid == msgid }) { lines[index].text = text }
    }

    /// The line `/react` or `/reply` means by `ref`: a msgid shown lately, N (1 = the latest
    /// line, 2 = the one before…) or a nick (that nick's latest line).
    func pick(_ ref: String) -> RecentLine? {
        let lines = newestFirst
        if let line = lines.first(where: { $0.msgid == ref }) { return line }
        if let n = Int(ref) { return n >= 1 && n <= lines.count ? lines[n - 1] : nil }
        let nick = IRCNames.fold(ref)
        return lines.first { IRCNames.fold($0.nick) == nick }
    }
}

extension ChatState {
    /// A line of `target` (a channel) said lately, for quoting; nil when it is not known.
    func recentLine(target: String, msgid: String) -> RecentLine? {
        guard IRCNames.isChannel(target) else { return nil }
        return channels[IRCNames.fold(target)]?.recent.line(msgid)
    }
}
