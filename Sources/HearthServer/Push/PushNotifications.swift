import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol
import HearthStore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The server's push side: its VAPID key, the sender, and the notes waiting for their time.
final class PushNotifier: Sendable {
    /// Later notes (a new day's cookie, a minute's held mentions) waiting at most, one per
    /// account and kind; past this a new one is not scheduled.
    static let maxScheduled = 10_000
    /// Characters of a notification's text (the rest is cut, with an ellipsis).
    static let maxText = 300
    /// Seconds a push service keeps a message for a device that is off: a day.
    static let ttl = 86_400
    /// Seconds a timer that went off before the clock's time waits before looking again (at
    /// least: no busy loop when the clock stands still, as a test's does).
    static let recheckSeconds = 0.5

    /// One waiting note: whose, and of which kind.
    struct Slot: Hashable, Sendable {
        var accountID: Int64
        var kind: PushKind
    }

    let vapid: WebPushVAPID
    let sender: PushSender
    let allowLocal: Bool
    let clock: HearthClock
    let group: any EventLoopGroup
    let scheduled = NIOLockedValueBox<[Slot: Scheduled<Void>]>([:])
    let mentions = NIOLockedValueBox(MentionPushLimit())

    init(config: ServerConfig, store: any Store, secret: CodeHasher, group: any EventLoopGroup, logger: Logger) {
        vapid = WebPushVAPID(secret: secret)
        allowLocal = config.pushLocalEndpoints
        clock = config.clock
        self.group = group
        // RFC 8292 §2.1: a contact, mailto: or https:.
        let contact =
            config.linkBase.lowercased().hasPrefix("https:") ? config.linkBase : "mailto:hearth@\(config.serverName)"
        sender = PushSender(
            vapid: vapid, contact: contact, store: store, allowLocal: config.pushLocalEndpoints, group: group,
            logger: logger, now: { [clock = config.clock] in clock.now() })
    }

    /// Runs `work` once the server's clock reaches `at`, replacing what `slot` waited for. The
    /// clock, not the timer, says when: a timer that goes off early (the wall clock was set back,
    /// or a test's clock has not moved yet) looks again later. False when the table is full.
    @discardableResult
    func schedule(_ slot: Slot, at: Date, _ work: @escaping @Sendable () -> Void) -> Bool {
        scheduled.withLockedValue { table in
            guard table[slot] != nil || table.count < Self.maxScheduled else { return false }
            table[slot]?.cancel()
            table[slot] = timer(slot, wait: at.timeIntervalSince(clock.now()), at: at, work)
            return true
        }
    }

    /// A timer for `slot` that wakes after `wait` seconds and runs `work` if the clock has reached
    /// `at`, or sets the next one (under the table's lock: called from `schedule` and itself).
    private func timer(_ slot: Slot, wait: TimeInterval, at: Date, _ work: @escaping @Sendable () -> Void)
        -> Scheduled<Void>
    {
        group.next().scheduleTask(in: .milliseconds(Int64(max(wait, 0) * 1000))) { [weak self] in
            guard let self else { return }
            let due = self.scheduled.withLockedValue { table -> Bool in
                let left = at.timeIntervalSince(self.clock.now())
                guard left <= 0 else {
                    table[slot] = self.timer(slot, wait: max(left, Self.recheckSeconds), at: at, work)
                    return false
                }
                table[slot] = nil
                return true
            }
            if due { work() }
        }
    }

    func shutdown() async {
        for task in scheduled.withLockedValue({ Array($0.values) }) { task.cancel() }
        await sender.shutdown()
    }
}

extension Core {
    /// Sends `note` to the account's devices that want its kind; a note for later is kept
    /// until then (replacing the account's earlier one of its kind). `evenIfConnected`: a
    /// mention while away, which the connected device would not notice.
    func push(_ note: PushNote, evenIfConnected: Bool = false, ircLine: String? = nil) {
        guard let push else { return }
        let now = config.clock.now()
        if let at = note.at, at > now {
            var immediate = note
            immediate.at = nil
            push.schedule(.init(accountID: note.accountID, kind: note.kind), at: at) { [weak self, immediate] in
                self?.push(immediate)
            }
            return
        }
        let store = self.store
        Task {
            guard
                let devices = try? await store.pushSubscriptions(accountID: note.accountID, now: now)
                    .filter({ $0.kinds.contains(note.kind) }), !devices.isEmpty
            else { return }
            if !evenIfConnected && self.isConnected(accountID: note.accountID) { return }
            for device in devices {
                let payload = self.pushPayload(note, for: device.source, ircLine: ircLine)
                push.sender.send(
                    PushSender.Job(
                        subscription: device, payload: Array(payload.utf8), ttl: PushNotifier.ttl,
                        urgency: note.kind == .dm || note.kind == .mention ? "high" : "normal"))
            }
        }
    }

    /// A mention while away, within `MentionPushLimit`: past it, held and told in one summary
    /// when the minute ends ("3 more mentions in #tea").
    func pushMention(_ note: PushNote, in place: String, ircLine: String) {
        guard let push else { return }
        let decision = push.mentions.withLockedValue {
            $0.admit(note.accountID, place: place, now: config.clock.now())
        }
        switch decision {
        case .send: self.push(note, evenIfConnected: true, ircLine: ircLine)
        case .hold(summaryAt: nil): return
        case .hold(summaryAt: let at?):
            push.schedule(.init(accountID: note.accountID, kind: .mention), at: at) { [weak self] in
                guard let held = push.mentions.withLockedValue({ $0.takeHeld(note.accountID) }) else { return }
                let summary =
                    "\(held.count) more mention\(held.count == 1 ? "" : "s") in "
                    + held.places.joined(separator: ", ")
                self?.push(
                    PushNote(accountID: note.accountID, kind: .mention, text: summary, link: note.link),
                    evenIfConnected: true)
            }
        }
    }

    /// Whether any of the account's connections is here or on another node (a linear look: only
    /// when a push is due).
    func isConnected(accountID: Int64) -> Bool {
        chat.withLock { state in
            state.clients.values.contains { state[$0].account?.id == accountID }
        }
    }

    /// What a device gets: the site's service worker reads JSON (title, body, url); an IRC
    /// client (draft/webpush) an IRC line.
    func pushPayload(_ note: PushNote, for source: PushSubscription.Source, ircLine: String?) -> String {
        var text = note.text
        if text.count > PushNotifier.maxText { text = text.prefix(PushNotifier.maxText - 1) + "…" }
        switch source {
        case .irc:
            return ircLine ?? IRCMessage(source: botPrefix, command: "NOTICE", params: ["*", text]).serialized()
        case .web:
            let fields: [String: String] = [
                "title": config.networkName, "body": text,
                "url": (bot.services.media?.publicURL ?? config.linkBase) + note.link,
                "kind": note.kind.rawValue,
            ]
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: (try? encoder.encode(fields)) ?? Data("{}".utf8), as: UTF8.self)
        }
    }
}
