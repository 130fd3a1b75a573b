import NIOCore
import Synchronization

/// Pages rendered for visitors (no session, no one-time message), served again for a few
/// seconds while no bot command has run since: a link shared in a busy channel is opened by
/// many at once, and most of them are not signed in.
final class WebPageCache: Sendable {
    struct Entry: Sendable {
        let html: String
        let commands: Int
        let at: ContinuousClock.Instant
    }

    /// Pages kept at most; past it the cache starts again empty (cheap, and rare).
    static let maxEntries = 1000
    let lifetime: Duration
    private let entries = Mutex<[String: Entry]>([:])

    init(seconds: Double) { lifetime = .milliseconds(Int64(seconds * 1000)) }

    var isOn: Bool { lifetime > .zero }

    /// The page for `key`, if it was rendered after the last command and is young enough.
    func page(_ key: String, commands: Int) -> String? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.commands == commands, ContinuousClock.now - entry.at < lifetime else {
                entries[key] = nil
                return nil
            }
            return entry.html
        }
    }

    /// Keeps a page; `commands` is the count read before it was rendered, so a command that
    /// ran meanwhile makes it stale at once.
    func keep(_ key: String, html: String, commands: Int) {
        entries.withLock { entries in
            if entries.count >= Self.maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(html: html, commands: commands, at: .now)
        }
    }
}
