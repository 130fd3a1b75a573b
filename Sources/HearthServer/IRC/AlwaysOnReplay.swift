import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// What a device of an always-on account missed: the lines of its channels and its
/// conversations since it last left, from history, as CHATHISTORY would give them, between two
/// notices ("While you were away", for `nc` users too).
extension Core {
    /// After login or registration: replays what this device missed, if its account is always-on
    /// and the device was here before.
    func replayMissed(_ client: Client) {
        let found = chat.withLock { state -> (AccountRef, [(key: String, history: String)])? in
            guard let account = state[client].account, state[client].registered, isAlwaysOn(state, account.id)
            else { return nil }
            return (
                account, state[client].channels.compactMap { key in state.channels[key].map { (key, $0.historyKey) } }
            )
        }
        guard historyEnabled, let (account, channels) = found else { return }
        let (store, device) = (self.store, client.device)
        later(
            client,
            { () -> (records: [HistoryRecord], more: Bool, names: [Int64: String])? in
                await self.flushHistory()  // what was said in the last moments too
                return try? await Self.missedLines(store, account: account.id, device: device, channels: channels)
            }
        ) { missed in
            guard let missed, !missed.records.isEmpty else { return }
            self.withState { state, out in
                let count = missed.records.count
                let earlier = missed.more ? " (the last \(count); CHATHISTORY has earlier ones)" : ""
                self.notice(
                    state, client, "While you were away: \(count) line\(count == 1 ? "" : "s")\(earlier)", out: &out)
                self.sendHistory(state, client, missed.records, missed.names, batchType: nil, out: &out)
                self.notice(state, client, "End of what you missed.", out: &out)
            }
        }
    }

    /// The lines of `channels` (folded name, history key) and of the account's conversations
    /// since `device` last left, oldest first, at most `maxReplayedLines` (the newest); nil when the
    /// device was never here.
    static func missedLines(
        _ store: Store, account: Int64, device: String, channels: [(key: String, history: String)]
    ) async throws -> (records: [HistoryRecord], more: Bool, names: [Int64: String])? {
        guard let since = try await store.readMarker(accountID: account, target: AlwaysOnRules.deviceTarget(device))
        else { return nil }
        var targets: [String] = []
        for channel in channels {
            targets += try await store.readableHistoryTargets(
                channel: channel.key, current: channel.history, accountID: account)
        }
        targets += try await store.historyTargets(
            channels: [], accountID: account, from: since, to: Date.distantFuture, limit: maxReplayedLines
        ).map(\.target)
        guard !targets.isEmpty else { return ([], false, [:]) }
        var records = try await store.history(
            targets: targets, after: .time(since), before: nil, limit: maxReplayedLines + 1, newestFirst: true)
        let more = records.count > maxReplayedLines
        if more { records.removeFirst() }
        // Outside a batch an old topic would be taken for today's (as in the join backlog).
        records.removeAll { $0.command == "TOPIC" }
        return (records, more, await conversationNames(store, records))
    }
}
