import Foundation
import HearthProtocol

/// What one change did to a channel's ordered state (modes, key, limit, topic, lists,
/// prefixes): computed from the channel before and after a local change, then applied to the
/// state the database holds, so a concurrent change made elsewhere is kept, not overwritten.
struct ChannelDelta: Sendable, Equatable {
    var flagsOn: Set<ModeChange.Flag> = []
    var flagsOff: Set<ModeChange.Flag> = []
    /// nil: unchanged; .some(nil): removed.
    var key: String?? = nil
    var limit: Int?? = nil
    /// The new topic, who set it and when.
    var topic: (text: String, setBy: String, at: Double?)? = nil
    var added: [NetworkChannel.ListEntry] = []
    /// (mode, mask) of removed list entries.
    var removed: [Removed] = []
    /// Member → the prefix letters it has now ("" for none).
    var prefixes: [String: String] = [:]

    struct Removed: Sendable, Hashable {
        var mode: String
        var mask: String
    }

    var isEmpty: Bool { self == ChannelDelta() }

    static func == (lhs: ChannelDelta, rhs: ChannelDelta) -> Bool {
        lhs.flagsOn == rhs.flagsOn && lhs.flagsOff == rhs.flagsOff && lhs.key == rhs.key && lhs.limit == rhs.limit
            && lhs.topic?.text == rhs.topic?.text && lhs.topic?.setBy == rhs.topic?.setBy
            && lhs.topic?.at == rhs.topic?.at && lhs.added == rhs.added && lhs.removed == rhs.removed
            && lhs.prefixes == rhs.prefixes
    }

    /// What turns `old` into `new` (prefixes only of the members `new` names).
    init(from old: NetworkChannel, to new: NetworkChannel) {
        flagsOn = new.modes.flags.subtracting(old.modes.flags)
        flagsOff = old.modes.flags.subtracting(new.modes.flags)
        if old.modes.key != new.modes.key { key = .some(new.modes.key) }
        if old.modes.limit != new.modes.limit { limit = .some(new.modes.limit) }
        if old.topic != new.topic || old.topicSetBy != new.topicSetBy {
            topic = (new.topic, new.topicSetBy, new.topicSetAt)
        }
        let before = Set((old.lists ?? []).map(Self.listKey))
        let after = Set((new.lists ?? []).map(Self.listKey))
        added = (new.lists ?? []).filter { !before.contains(Self.listKey($0)) }
        removed = (old.lists ?? []).filter { !after.contains(Self.listKey($0)) }.map {
            Removed(mode: $0.mode, mask: $0.mask)
        }
        for (member, letters) in new.prefixes ?? [:] where (old.prefixes?[member] ?? "") != letters {
            prefixes[member] = letters
        }
    }

    init() {}

    /// `channel` with this change made (list entries already there, or past the list's limit,
    /// are skipped, as MODE skips them).
    func applied(to channel: NetworkChannel) -> NetworkChannel {
        var result = channel
        result.modes.flags.formUnion(flagsOn)
        result.modes.flags.subtract(flagsOff)
        if let key { result.modes.key = key }
        if let limit { result.modes.limit = limit }
        if let topic { (result.topic, result.topicSetBy, result.topicSetAt) = topic }
        var lists = result.lists ?? []
        let gone = Set(removed.map { Removed(mode: $0.mode, mask: IRCNames.fold($0.mask)) })
        lists.removeAll { gone.contains(Removed(mode: $0.mode, mask: IRCNames.fold($0.mask))) }
        for entry in added where !lists.contains(where: { Self.listKey($0) == Self.listKey(entry) }) {
            guard lists.count(where: { $0.mode == entry.mode }) < IRCLimits.bansPerChannel else { continue }
            lists.append(entry)
        }
        result.lists = lists
        result.prefixes = (result.prefixes ?? [:]).merging(prefixes) { $1 }
        return result
    }

    private static func listKey(_ entry: NetworkChannel.ListEntry) -> Removed {
        Removed(mode: entry.mode, mask: IRCNames.fold(entry.mask))
    }

    /// The MODE changes that show this delta to a client (`nick` names a member, nil: not here;
    /// `had` gives the prefix letters a member had before).
    func modeChanges(nick: (String) -> String?, had: (String) -> String) -> [ModeChange] {
        var changes: [ModeChange] = []
        changes += flagsOff.sorted { $0.rawValue < $1.rawValue }.map { .flag($0, on: false) }
        changes += flagsOn.sorted { $0.rawValue < $1.rawValue }.map { .flag($0, on: true) }
        if let key { changes.append(key.map { .setKey($0) } ?? .clearKey) }
        if let limit { changes.append(limit.map { .setLimit($0) } ?? .clearLimit) }
        // A list this version does not know (a newer node's) is not shown.
        let known = { (mode: String) in mode.count == 1 ? mode.first.flatMap(ModeChange.ListMode.init) : nil }
        for item in removed {
            if let mode = known(item.mode) { changes.append(.list(mode, mask: item.mask, adding: false)) }
        }
        for item in added {
            if let mode = known(item.mode) { changes.append(.list(mode, mask: item.mask, adding: true)) }
        }
        for (member, letters) in prefixes.sorted(by: { $0.key < $1.key }) {
            guard let name = nick(member) else { continue }
            let before = had(member)
            for mode in ModeChange.MemberMode.allCases
            where before.contains(mode.rawValue) != letters.contains(mode.rawValue) {
                changes.append(.member(mode, nick: name, adding: letters.contains(mode.rawValue)))
            }
        }
        return changes
    }
}

/// A channel's place in the network's order, kept with it (`ChannelState.ordered`): the last
/// state the database numbered, and this node's own changes not yet numbered, which stay on
/// top of whatever the network ordered before them.
struct ChannelOrder {
    /// The version of `confirmed`; 0: none known yet.
    var version: Int64 = 0
    var confirmed: NetworkChannel?
    /// This node's changes on their way to the database, oldest first.
    var pending: [ChannelDelta] = []
}

extension NetworkChannel {
    /// As the database keeps it (`NetworkChannelStore`): JSON.
    func stored() -> String {
        let record = Stored(
            topic: topic, topicSetBy: topicSetBy, topicSetAt: topicSetAt, modes: modes.serialized(showKey: true),
            lists: lists ?? [], prefixes: prefixes ?? [:])
        let encoder = JSONEncoder()
        // Sorted, so an unchanged state is the same text (`ChannelChange.next` compares them).
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(record)) ?? Data(), as: UTF8.self)
    }

    /// A stored state (nil for one this node cannot read).
    init?(stored text: String, name: String, version: Int64?) {
        guard let record = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)),
            let modes = ChannelModes(record.modes, ignoringUnknown: true)
        else { return nil }
        self.init(
            name: name, topic: record.topic, topicSetBy: record.topicSetBy, modes: modes, lists: record.lists,
            topicSetAt: record.topicSetAt, prefixes: record.prefixes, version: version)
    }

    private struct Stored: Codable {
        var topic: String
        var topicSetBy: String
        var topicSetAt: Double?
        var modes: [String]
        var lists: [ListEntry]
        var prefixes: [String: String]
    }
}
