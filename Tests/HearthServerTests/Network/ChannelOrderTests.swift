import Foundation
import HearthProtocol
import Testing

@testable import HearthServer

/// The pure part of the network's order of channel changes: what a change did, made again on
/// whatever state the database holds when its turn comes.
@Suite struct ChannelOrderTests {
    static let base = NetworkChannel(
        name: "#kk", topic: "", topicSetBy: "", modes: ChannelModes(flags: [.noOutside, .topicLock]), lists: [],
        topicSetAt: 0, prefixes: ["a 1": "o", "b 2": ""])

    static func changed(_ edit: (inout NetworkChannel) -> Void) -> ChannelDelta {
        var after = base
        edit(&after)
        return ChannelDelta(from: base, to: after)
    }

    static let fromA = changed {
        $0.modes.key = "alpha"
        $0.topic = "by a"
        $0.lists = [.init(mode: "b", mask: "x!*@*", setBy: "a", at: 1)]
    }
    static let fromB = changed {
        $0.modes.key = "beta"
        $0.modes.limit = 5
        $0.lists = [.init(mode: "b", mask: "y!*@*", setBy: "b", at: 2)]
        $0.prefixes?["b 2"] = "v"
    }

    /// Two changes made at once from the same state: whichever the database takes second sets
    /// the key, and neither's other changes (a ban each, a topic, a limit, a voice) are lost.
    @Test func concurrentChangesKeepEachOthersWorkAndTheLaterKeyWins() {
        let ab = Self.fromB.applied(to: Self.fromA.applied(to: Self.base))
        let ba = Self.fromA.applied(to: Self.fromB.applied(to: Self.base))
        #expect(ab.modes.key == "beta" && ba.modes.key == "alpha")
        for state in [ab, ba] {
            #expect(Set((state.lists ?? []).map(\.mask)) == ["x!*@*", "y!*@*"])
            #expect(state.topic == "by a" && state.modes.limit == 5 && state.prefixes?["b 2"] == "v")
            #expect(state.prefixes?["a 1"] == "o")
        }
    }

    @Test func removalsAndListLimitsApplyAsMODEWould() {
        var full = Self.base
        full.lists = (0..<IRCLimits.bansPerChannel).map { .init(mode: "b", mask: "m\($0)!*@*", setBy: "a", at: 0) }
        let unban = ChannelDelta(
            from: full,
            to: {
                var c = full
                c.lists?.removeFirst()
                return c
            }())
        #expect(unban.removed == [.init(mode: "b", mask: "m0!*@*")])
        // A ban past the list's limit is skipped; the removal of one not there changes nothing.
        let over = Self.fromA.applied(to: full)
        #expect(over.lists?.count == IRCLimits.bansPerChannel && over.modes.key == "alpha")
        #expect(unban.applied(to: Self.base).lists?.isEmpty == true)
        // Masks compare as IRC folds them.
        let upper = ChannelDelta(
            from: full,
            to: {
                var c = full
                c.lists![0].mask = "M0!*@*"
                return c
            }())
        #expect(upper.added.isEmpty && upper.removed.isEmpty)
    }

    /// The database's turn: the stored state is read back, the change made on it; the same
    /// state again is no change (nothing is published); prefixes of members gone are dropped.
    @Test func aChangeIsMadeOnTheStoredState() throws {
        let change = ChannelChange(
            who: NetworkUser(node: "a", session: 1), channelKey: "#kk", historyKey: "#kk 1", name: "#kk",
            delta: Self.fromA, base: Self.fromA.applied(to: Self.base), members: ["a 1", "b 2"])
        let first = try #require(change.next(stored: nil))
        #expect(NetworkChannel(stored: first, name: "#kk", version: 1)?.modes.key == "alpha")
        #expect(change.next(stored: first) == nil)
        var stored = Self.fromB.applied(to: Self.base)
        stored.prefixes?["c 9"] = "o"
        let next = try #require(change.next(stored: stored.stored()))
        let state = try #require(NetworkChannel(stored: next, name: "#kk", version: 2))
        #expect(state.modes.key == "alpha" && state.modes.limit == 5 && state.version == 2)
        #expect(state.prefixes == ["a 1": "o", "b 2": "v"])
    }

    /// What members are shown: only the prefix letters that changed, by nick.
    @Test func shownChangesNameOnlyWhatChanged() {
        let delta = Self.changed {
            $0.prefixes = ["a 1": "ov", "b 2": "", "c 3": "v"]
            $0.modes.flags.insert(.moderated)
        }
        let changes = delta.modeChanges(
            nick: { ["a 1": "ann", "b 2": "bob"][$0] }, had: { Self.base.prefixes?[$0] ?? "" })
        #expect(changes == [.flag(.moderated, on: true), .member(.voice, nick: "ann", adding: true)])
    }
}
