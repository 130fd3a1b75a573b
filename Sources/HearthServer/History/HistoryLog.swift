import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// Stored history: channel messages, and private messages between two accounts. Messages
/// are collected under the lock and written in batches off the event loops, so a chat
/// line never waits for SQLite.
extension Core {
    /// How long a batch collects before it is written.
    static let historyFlushDelay: Duration = .milliseconds(50)
    /// How long it collects while lines come fast (the last batch had `busyHistoryBatch` lines or
    /// more): each SQLite transaction rewrites the table's and indexes' last pages and adds a search
    /// index segment to merge, whatever its size, so a busy channel's lines cost less in fewer
    /// batches. Readers of history (CHATHISTORY, search, a backlog) flush first and never wait.
    static let busyHistoryFlushDelay: Duration = .milliseconds(250)
    static let busyHistoryBatch = 100

    var historyEnabled: Bool { config.historyDays > 0 }

    /// Remembers that `client`'s account was in `channel`'s present incarnation, so it may
    /// read that history after the channel is gone.
    func grantHistory(_ state: ChatState, _ client: Client, _ channel: ChannelState) {
        guard historyEnabled, channel.historyKey != channel.key, let account = state[client].account else { return }
        let access = HistoryAccess(target: channel.historyKey, accountID: account.id)
        let delay = historyQueue.withLock { $0.access.insert(access).inserted ? $0.takeFlush() : nil }
        if let delay { scheduleHistoryFlush(after: delay) }
    }

    /// A channel was registered or dropped while people are in it.
    func renewHistoryKey(_ state: inout ChatState, _ channel: ChannelState) {
        channel.historyKey = state.historyKey(forNew: channel.key)
        for member in channel.order { grantHistory(state, member, channel) }
    }

    /// A registered channel was dropped or lost its owner: its history so far becomes an
    /// incarnation that the people in it now, and `keepFor`, may still read.
    func retireHistory(_ state: inout ChatState, of key: String, keepFor accounts: [Int64]) {
        let newKey: String
        if let channel = state.channels[key] {
            renewHistoryKey(&state, channel)
            newKey = channel.historyKey
        } else {
            newKey = state.historyKey(forNew: key)
        }
        let access = accounts.map { HistoryAccess(target: newKey, accountID: $0) }
        let store = self.store
        Task {
            await self.flushHistory()  // lines said before the drop are moved too
            do { try await store.retireHistory(target: key, to: newKey, access: access) } catch {
                self.logger.error("moving the history of \(key) failed: \(error)")
            }
        }
    }

    /// Queues a message for the history table. Called under the chat lock, so lines are
    /// queued in the order they were delivered (the queue's own lock is only contended by a flush).
    func recordHistory(_ record: HistoryRecord) {
        guard historyEnabled else { return }
        let delay = historyQueue.withLock {
            $0.records.append(record)
            return $0.takeFlush()
        }
        if let delay { scheduleHistoryFlush(after: delay) }
    }

    /// Writes the queue after `delay` (one write for what arrives meanwhile).
    private func scheduleHistoryFlush(after delay: Duration) {
        Task {
            try? await Task.sleep(for: delay)
            await self.flushHistory()
        }
    }

    /// Writes what is buffered, after every earlier write. A failed write is tried again a few
    /// times (a database restarting comes back within seconds) before it is given up and logged.
    func flushHistory() async {
        let write = historyQueue.withLock { queue -> Task<Void, Never> in
            queue.flushScheduled = false
            let batch = queue.records
            queue.lastBatch = batch.count
            let access = Array(queue.access)
            queue.records.removeAll(keepingCapacity: true)
            queue.access.removeAll()
            let previous = queue.writing
            let next = Task {
                await previous?.value
                guard !batch.isEmpty || !access.isEmpty else { return }
                await self.writeHistory(batch, access: access)
            }
            queue.writing = next
            return next
        }
        await write.value
    }

    /// Attempts at writing one history batch, and the wait before the first retry (doubling).
    static let historyWriteAttempts = 6
    static let historyRetryDelay: Duration = .milliseconds(250)

    private func writeHistory(_ batch: [HistoryRecord], access: [HistoryAccess]) async {
        var delay = Self.historyRetryDelay
        for attempt in 1...Self.historyWriteAttempts {
            do {
                let started = ContinuousClock.now
                try await store.appendHistory(batch, access: access)
                metrics.historyBatches.increment()
                metrics.historyRows.increment(by: batch.count)
                metrics.historyWriteTime.recordNanoseconds(ServerMetrics.nanoseconds(.now - started))
                return
            } catch  where attempt < Self.historyWriteAttempts {
                logger.warning("writing history failed (attempt \(attempt), trying again): \(error)")
                try? await Task.sleep(for: delay)
                delay *= 2
            } catch {
                logger.error("writing history failed; \(batch.count) lines not kept: \(error)")
            }
        }
    }

    /// Indexes for search what an earlier version wrote (PostgreSQL's phrase pairs; nothing on
    /// SQLite), a batch at a time while the server serves, once at start. Until a line is done a
    /// phrase search checks it whole, as before: the same lines found, more slowly.
    func runHistorySearchBackfill() async {
        let started = ContinuousClock.now
        var indexed = 0
        while !Task.isCancelled {
            do {
                let done = try await store.indexHistoryForSearch(batch: historySearchIndexBatch)
                guard done > 0 else { break }
                indexed += done
            } catch {
                logger.warning("history search: indexing earlier lines stopped (next start goes on): \(error)")
                return
            }
        }
        if indexed > 0 {
            logger.info("history search: indexed \(indexed) earlier lines in \(ContinuousClock.now - started)")
        }
    }

    /// Deletes history past the retention, now and then every hour.
    func runHistoryExpiry() async {
        // Runs even while history is off: a reload may turn it on.
        while !Task.isCancelled {
            let days = config.historyDays
            if days > 0, let removed = try? await store.expireHistory(olderThan: days), removed > 0 {
                logger.info("history: removed \(removed) messages older than \(days) days")
            }
            try? await Task.sleep(for: .seconds(3600))
        }
    }

    /// Sends earlier messages to one client with their original time: a `time` tag for
    /// clients with server-time, "(sent … ago)" for the others. A stored message keeps its
    /// msgid (`msgids`, in order), so clients can tell it is the one CHATHISTORY gives.
    func replay(
        _ state: ChatState, _ client: Client,
        _ messages: [(source: String, command: String, target: String, text: String, at: Date)],
        msgids: [String]? = nil, out: inout Outbox
    ) {
        let now = Date()
        for (number, message) in messages.enumerated() {
            // A multiline message comes back line by line (its msgid on the first line).
            let pieces = Self.multilinePieces(message.text)
            for (index, piece) in pieces.enumerated() {
                let msgid = index == 0 ? msgids?[number] ?? MessageStamp.msgid() : MessageStamp.msgid()
                var text = piece.text
                if index == pieces.count - 1 && !state[client].tagMask.contains(.serverTime) {
                    text += " (sent \(TimeText.ago(from: message.at, to: now)))"
                }
                out.send(
                    client,
                    IRCMessage(
                        tags: [IRCTag("time", MessageStamp.time(message.at)), IRCTag("msgid", msgid)],
                        source: shownSource(message.source), command: message.command,
                        params: [message.target, text]))
            }
        }
    }

    /// The last lines of the channels `client` just joined, in the order joined: one step off
    /// the event loop for all of them (a JOIN of 50 channels made 50 steps, each waiting its
    /// turn on a busy machine, and held the client's next line until the last).
    func sendBacklog(_ client: Client, _ joined: [JoinedChannel]) {
        guard historyEnabled, config.joinBacklog > 0, !joined.isEmpty else { return }
        let store = self.store
        let limit = config.joinBacklog
        let account = chat.withLock { state in state[client].account?.id }
        later(
            client,
            { () -> [(JoinedChannel, [HistoryRecord])] in
                await self.flushHistory()  // include what was said in the last moments
                var backlogs: [(JoinedChannel, [HistoryRecord])] = []
                for channel in joined {
                    let keys =
                        (try? await store.readableHistoryTargets(
                            channel: channel.key, current: channel.historyKey, accountID: account))
                    let records =
                        (try? await store.latestHistory(targets: keys ?? [channel.historyKey], limit: limit)) ?? []
                    if !records.isEmpty { backlogs.append((channel, records)) }
                }
                return backlogs
            }
        ) { backlogs in
            guard !backlogs.isEmpty else { return }
            self.withState { state, out in
                for (channel, records) in backlogs {
                    // A topic kept as an event is not sent outside a batch: a client would take it
                    // as the channel's topic now.
                    for record in records where record.command != "TOPIC" {
                        // Reactions, replies and edits come as CHATHISTORY gives them (KeptTags).
                        if record.command == "TAGMSG" || record.command == "EDIT" || !record.tags.isEmpty {
                            self.sendStored(state, client, record, to: channel.name, inBatch: nil, out: &out)
                        } else {
                            self.replay(
                                state, client,
                                [(record.source, record.command, channel.name, record.text, record.createdAt)],
                                msgids: [record.msgid], out: &out)
                        }
                    }
                }
            }
        }
    }
}

/// History waiting to be written, in its own lock (it is not chat state): lines are queued
/// under the chat lock and taken by a flush that needs no chat lock.
struct HistoryQueue {
    var records: [HistoryRecord] = []
    /// Accounts seen in channel incarnations, written with the next batch.
    var access: Set<HistoryAccess> = []
    var flushScheduled = false
    /// Lines in the batch taken last: a large one means lines come fast, and the next collects longer.
    var lastBatch = 0
    /// The last write: each waits for the one before, so batches land in order and the final
    /// flush at shutdown returns only when everything taken has been written.
    var writing: Task<Void, Never>?

    /// When the caller should flush, if no flush is scheduled yet (nil: one is); marks one scheduled.
    mutating func takeFlush() -> Duration? {
        guard !flushScheduled else { return nil }
        flushScheduled = true
        return lastBatch >= Core.busyHistoryBatch ? Core.busyHistoryFlushDelay : Core.historyFlushDelay
    }
}

extension ChatState {
    /// Where a channel made now keeps its history. A registered or family channel lives on,
    /// so its history does too; any other channel that empties is gone, and one made again
    /// under its name is a new incarnation with a history of its own: what was said in a
    /// `+s +k` room never reaches whoever takes the name next.
    func historyKey(forNew folded: String) -> String {
        if registered[folded] != nil || guarded[folded] != nil { return folded }
        return folded + " " + String(UInt64.random(in: 1...UInt64.max), radix: 36)
    }
}
