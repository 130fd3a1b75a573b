import Foundation
import HearthStore
import Testing

/// Server bans (UBAN) and what a registered channel keeps across restarts: its mask lists and
/// its access list.
@Suite struct ModerationStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: Engine.allCases)
    func serverBansAreReplacedRemovedAndExpire(engine: Engine) async throws {
        try await engine.withStore { store in
            let forever = ServerBan(
                target: "mallory", kind: .account, reason: "spam", setBy: "oper", createdAt: Self.now)
            var net = ServerBan(
                target: "203.0.113.0/24", kind: .address, reason: "flood", setBy: "oper",
                createdAt: Self.now.addingTimeInterval(1), expiresAt: Self.now.addingTimeInterval(60))
            try await store.addServerBan(forever)
            try await store.addServerBan(net)
            #expect(try await store.serverBans(now: Self.now) == [forever, net])
            net.reason = "still flooding"
            try await store.addServerBan(net)
            #expect(try await store.serverBans(now: Self.now).last?.reason == "still flooding", "replaced")
            #expect(try await store.serverBans(now: Self.now.addingTimeInterval(60)) == [forever], "expired")
            #expect(try await store.serverBans(now: Self.now).count == 1, "an expired ban is deleted")
            #expect(try await store.removeServerBan(target: "mallory"))
            #expect(!(try await store.removeServerBan(target: "mallory")))
            #expect(try await store.serverBans(now: Self.now).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func aRegisteredChannelKeepsItsListsAndAccessUntilDropped(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann")
            let bob = try await AccountStoreTests.make(store, "bob")
            _ = try await store.register(RegisteredChannel(nameKey: "#den", name: "#den", ownerId: ann.id))
            let ban = ChannelListEntry(
                nameKey: "#den", mode: "b", mask: "eve!*@*", setBy: "ann", setAt: Self.now, byOper: false)
            let invite = ChannelListEntry(
                nameKey: "#den", mode: "I", mask: "a:bob", setBy: "ann", setAt: Self.now.addingTimeInterval(1),
                byOper: true)
            try await store.saveChannelLists(nameKey: "#den", [ban, invite])
            #expect(try await store.channelListEntries() == [ban, invite])
            try await store.saveChannelLists(nameKey: "#den", [invite])
            #expect(try await store.channelListEntries() == [invite], "replaced whole")
            try await store.saveChannelLists(nameKey: "#none", [ban])
            #expect(try await store.channelListEntries() == [invite], "an unregistered channel keeps nothing")

            try await store.setChannelAccess(nameKey: "#den", accountId: bob.id, level: .voice)
            try await store.setChannelAccess(nameKey: "#den", accountId: bob.id, level: .op)
            #expect(try await store.channelAccess() == [ChannelAccess(nameKey: "#den", accountId: bob.id, level: .op)])
            try await store.setChannelAccess(nameKey: "#den", accountId: bob.id, level: nil)
            #expect(try await store.channelAccess().isEmpty)
            try await store.setChannelAccess(nameKey: "#den", accountId: bob.id, level: .voice)

            try await store.dropChannel(nameKey: "#den")
            #expect(try await store.channelListEntries().isEmpty, "dropped with the channel")
            #expect(try await store.channelAccess().isEmpty)
        }
    }
}
