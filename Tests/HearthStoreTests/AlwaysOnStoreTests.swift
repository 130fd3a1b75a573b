import Foundation
import HearthStore
import Testing

/// Always-on presences: kept, replaced, read back with the account's name and choice, dropped,
/// and gone with their account.
@Suite struct AlwaysOnStoreTests {
    static let since = Date(timeIntervalSince1970: 1_800_000_000)

    static func presence(_ account: Int64, _ channels: [String]) -> AlwaysOnPresence {
        AlwaysOnPresence(
            accountID: account, nick: "Ann", user: "~ann", host: "cloak.example", realname: "Ann A.",
            channels: channels, since: since)
    }

    @Test(arguments: Engine.allCases)
    func aPresenceIsKeptReplacedReadAndDropped(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            let bob = try await AccountStoreTests.make(store, "bob").id
            try await store.keepAlwaysOnPresence(Self.presence(ann, ["#den"]))
            try await store.keepAlwaysOnPresence(Self.presence(ann, ["#den", "#Kitchen"]))
            try await store.keepAlwaysOnPresence(Self.presence(bob, []))
            try await store.setSetting(ann, key: AlwaysOnRules.settingKey, value: "on")
            let kept = try await store.alwaysOnPresences()
            #expect(kept.map(\.presence) == [Self.presence(ann, ["#den", "#Kitchen"]), Self.presence(bob, [])])
            #expect(kept.map(\.accountName) == ["ann", "bob"])
            #expect(kept.map(\.choice) == [true, nil], "ann chose on; bob left it to the operator")
            try await store.dropAlwaysOnPresence(accountID: bob)
            #expect(try await store.alwaysOnPresences().map(\.presence.accountID) == [ann])
        }
    }

    @Test func aLoginNamesItsDevice() {
        #expect(AlwaysOnRules.splitLogin("ann")! == ("ann", ""))
        #expect(AlwaysOnRules.splitLogin("ann@Phone")! == ("ann", "phone"))
        let longest = String(repeating: "p", count: AlwaysOnRules.maxDeviceNameLength)
        #expect(AlwaysOnRules.splitLogin("ann@" + longest)! == ("ann", longest))
        #expect(AlwaysOnRules.splitLogin("ann@" + longest + "p") == nil, "one letter past the limit")
        #expect(AlwaysOnRules.splitLogin("ann@") == nil)
        #expect(AlwaysOnRules.splitLogin("ann@ph one") == nil)
    }
}
