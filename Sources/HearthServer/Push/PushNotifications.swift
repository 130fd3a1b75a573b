import Foundation
import HearthCrypto
import HearthKit
import HearthProtocol
import HearthStore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The server's push side: its VAPID key, the sender, and the notes waiting for their time.
final class PushNotifier: Sendable {
    /// Later notes (a new day's cookie) waiting at most, one per account; past this a new one
    /// is not scheduled.
    static let maxScheduled = 10_000
    /// Characters of a notification's text (the rest is cut, with an ellipsis).
    static let maxText = 300
    /// Seconds a push service keeps a message for a device that is off: a day.
    static let ttl = 86_400

    let vapid: WebPushVAPID
    let sender: PushSender
    let allowLocal: Bool
    let scheduled = NIOLockedValueBox<[Int64: Scheduled<Void>]>([:])

    init(config: ServerConfig, store: any Store, secret: CodeHasher, group: any EventLoopGroup, logger: Logger) {
        vapid = WebPushVAPID(secret: secret)
        allowLocal = config.pushLocalEndpoints
        // RFC 8292 §2.1: a contact, mailto: or https:.
        let contact =
            config.linkBase.lowercased().hasPrefix("https:") ? config.linkBase : "mailto:hearth@\(config.serverName)"
        sender = PushSender(
            vapid: vapid, contact: contact, store: store, allowLocal: config.pushLocalEndpoints, group: group,
            logger: logger, now: { [clock = config.clock] in clock.now() })
    }

    func shutdown() async {
        for task in scheduled.withLockedValue({ Array($0.values) }) { task.cancel() }
        await sender.shutdown()
    }
}

extension Core {
    /// Sends `note` to the account's devices that want its kind; a note for later is kept
    /// until then (replacing the account's earlier one). `evenIfConnected`: a mention while
    /// away, which the connected device would not notice.
    func push(_ note: PushNote, evenIfConnected: Bool = false, ircLine: String? = nil) {
        guard let push else { return }
        let now = config.clock.now()
        if let at = note.at, at > now {
            var immediate = note
            immediate.at = nil
            let delay = at.timeIntervalSince(now)
            push.scheduled.withLockedValue { table in
                guard table[note.accountID] != nil || table.count < PushNotifier.maxScheduled else { return }
                table[note.accountID]?.cancel()
                table[note.accountID] = group.next().scheduleTask(in: .milliseconds(Int64(delay * 1000))) {
                    [weak self] in
                    push.scheduled.withLockedValue { _ = $0.removeValue(forKey: note.accountID) }
                    self?.push(immediate)
                }
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
