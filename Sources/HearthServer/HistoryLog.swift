import Foundation
import HearthBot
import HearthProtocol
import HearthStore

/// Stored history: channel messages, and private messages between two accounts. Messages
/// are collected under the lock and written in batches off the event loops, so a chat
/// line never waits for SQLite.
extension Core {
    /// How long a batch collects before it is written.
    static let historyFlushDelay: Duration = .milliseconds(50)

    var historyEnabled: Bool { config.historyDays > 0 }

    /// Queues a message for the history table. Under the lock.
    func recordHistory(_ record: HistoryRecord) {
        guard historyEnabled else { return }
        historyBuffer.append(record)
        if !historyFlushScheduled {
            historyFlushScheduled = true
            Task {
                try? await Task.sleep(for: Self.historyFlushDelay)
                await self.flushHistory()
            }
        }
    }

    func flushHistory() async {
        let batch = lock.withLock { () -> [HistoryRecord] in
            historyFlushScheduled = false
            defer { historyBuffer.removeAll(keepingCapacity: true) }
            return historyBuffer
        }
        do { try await store.appendHistory(batch) } catch { logger.error("writing history failed: \(error)") }
    }

    /// Deletes history past the retention, now and then every hour.
    func runHistoryExpiry() async {
        guard historyEnabled else { return }
        while !Task.isCancelled {
            if let removed = try? await store.expireHistory(olderThan: config.historyDays), removed > 0 {
                logger.info("history: removed \(removed) messages older than \(config.historyDays) days")
            }
            try? await Task.sleep(for: .seconds(3600))
        }
    }

    /// Sends earlier messages to one client with their original time: a `time` tag for
    /// clients with server-time, "(sent … ago)" for the others.
    func replay(_ client: Client, _ messages: [(source: String, command: String, target: String, text: String, at: Date)], out: inout Outbox) {
        let now = Date()
        for message in messages {
            // A multiline message comes back line by line.
            let pieces = Self.multilinePieces(message.text)
            for (index, piece) in pieces.enumerated() {
                var text = piece.text
                if index == pieces.count - 1 && !client.tagMask.contains(.serverTime) { text += " (sent \(TimeText.ago(from: message.at, to: now)))" }
                out.send(client, IRCMessage(
                    tags: [IRCTag("time", MessageStamp.time(message.at)), IRCTag("msgid", MessageStamp.msgid())],
                    source: message.source, command: message.command, params: [message.target, text]))
            }
        }
    }

    /// The last lines of a channel, for someone who just joined it.
    func sendBacklog(_ client: Client, channelKey: String, channelName: String) {
        guard historyEnabled, config.joinBacklog > 0 else { return }
        let store = self.store, limit = config.joinBacklog
        later(client, { (try? await store.latestHistory(target: channelKey, limit: limit)) ?? [] }) { records in
            guard !records.isEmpty else { return }
            self.withState { out in
                self.replay(client, records.map { ($0.source, $0.command, channelName, $0.text, $0.createdAt) }, out: &out)
            }
        }
    }
}
