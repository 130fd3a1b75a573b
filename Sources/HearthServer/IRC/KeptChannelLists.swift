import Foundation
import HearthProtocol
import HearthStore

/// One of a registered channel's saves, made in order by one task (`Core.runChannelSaves`):
/// its topic and modes, or its +b/+e/+I lists whole.
enum ChannelSave: Sendable {
    case record(RegisteredChannel)
    case lists(nameKey: String, [ChannelListEntry])
    /// RENAME: the channel's record, lists and history move to the new name, in order with the
    /// saves before and after it (a TOPIC right after the RENAME is saved under the new name).
    /// `done` finishes when it has been tried.
    case rename(from: String, to: String, name: String, done: AsyncStream<Never>.Continuation)

    var nameKey: String {
        switch self {
        case .record(let record): record.nameKey
        case .lists(let nameKey, _): nameKey
        case .rename(_, let to, _, _): to
        }
    }

    func run(_ store: any Store) async throws {
        switch self {
        case .record(let record): try await store.save(record)
        case .lists(let nameKey, let entries): try await store.saveChannelLists(nameKey: nameKey, entries)
        case .rename(let from, let to, let name, let done):
            defer { done.finish() }
            try await store.renameChannel(from: from, to: to, name: name)
        }
    }
}

/// What registered channels keep across restarts besides topic and modes: their ban, exception
/// and invite-exception lists, and the accounts they give op or voice on join.
extension Core {
    /// Reads the kept lists and access lists (at start, with the registered channels).
    func loadKeptLists() async throws {
        let entries = try await store.channelListEntries()
        let access = try await store.channelAccess()
        chat.withLock { state in
            for entry in entries {
                guard let mode = entry.mode.first, ChannelLists.modes[mode] != nil else { continue }
                let kept = ChannelLists.Entry(
                    mask: entry.mask, setBy: entry.setBy, at: entry.setAt, byOper: entry.byOper)
                _ = state.moderation.keptLists[entry.nameKey, default: ChannelLists()].add(mode, kept)
            }
            for grant in access { state.moderation.access[grant.nameKey, default: [:]][grant.accountId] = grant.level }
        }
    }

    /// Queues a save of a registered channel's lists when they differ from what was kept.
    func keepLists(_ state: inout ChatState, _ channel: ChannelState) {
        guard state.registered[channel.key] != nil else { return }
        let now = Self.entries(channel.lists, of: channel.key)
        guard now != Self.entries(state.moderation.keptLists[channel.key] ?? ChannelLists(), of: channel.key) else {
            return
        }
        state.moderation.keptLists[channel.key] = channel.lists
        saves.yield(.lists(nameKey: channel.key, now))
    }

    /// A registered channel made again (after a restart, or once everyone left) gets its lists back.
    func restoreLists(_ state: ChatState, _ channel: ChannelState) {
        if let kept = state.moderation.keptLists[channel.key] { channel.lists = kept }
    }

    /// A registration dropped: nothing of its lists is kept (the store dropped them with it).
    func forgetKeptLists(_ state: inout ChatState, nameKey: String) {
        state.moderation.keptLists[nameKey] = nil
        state.moderation.access[nameKey] = nil
    }

    private static func entries(_ lists: ChannelLists, of nameKey: String) -> [ChannelListEntry] {
        ChannelLists.modes.keys.sorted().flatMap { mode in
            lists[mode].map {
                ChannelListEntry(
                    nameKey: nameKey, mode: String(mode), mask: $0.mask, setBy: $0.setBy, setAt: $0.at,
                    byOper: $0.byOper)
            }
        }
    }
}

extension ChatState {
    /// What a registered channel's access list gives `client`'s account on joining it.
    func accessLevel(_ client: Client, in nameKey: String) -> ChannelAccess.Level? {
        guard registered[nameKey] != nil, let account = self[client].account else { return nil }
        return moderation.access[nameKey]?[account.id]
    }
}
