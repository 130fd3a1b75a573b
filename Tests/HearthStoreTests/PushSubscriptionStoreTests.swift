import Foundation
import HearthStore
import Testing

/// Web Push subscriptions: one per device, renewed, limited per account, expiring, removed.
@Suite struct PushSubscriptionStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func device(_ account: Int64, _ n: Int, kinds: Set<PushKind> = [.dm], at: Date = now) -> PushSubscription {
        PushSubscription(
            accountId: account, endpoint: "https://push.example/\(n)", p256dh: "key\(n)", auth: "auth\(n)",
            source: .web, kinds: kinds, createdAt: at, expiresAt: PushRules.expiry(from: at))
    }

    @Test(arguments: Engine.allCases)
    func aDeviceIsSavedRenewedAndRemoved(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            #expect(try await store.savePushSubscription(Self.device(ann, 1), now: Self.now))
            var renewed = Self.device(ann, 1, kinds: [.dm, .family])
            renewed.source = .irc
            #expect(try await store.savePushSubscription(renewed, now: Self.now))
            let held = try await store.pushSubscriptions(accountID: ann, now: Self.now)
            #expect(held == [renewed], "one device, its new keys and kinds")
            #expect(!(try await store.removePushSubscription(endpoint: renewed.endpoint, accountID: ann + 1)))
            #expect(try await store.removePushSubscription(endpoint: renewed.endpoint, accountID: nil))
            #expect(try await store.pushSubscriptions(accountID: ann, now: Self.now).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func anAccountHoldsTheLimitAndNotOneMore(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            let bob = try await AccountStoreTests.make(store, "bob").id
            for n in 0..<PushRules.maxPerAccount {
                #expect(try await store.savePushSubscription(Self.device(ann, n), now: Self.now))
            }
            #expect(!(try await store.savePushSubscription(Self.device(ann, 99), now: Self.now)), "over the limit")
            #expect(try await store.savePushSubscription(Self.device(ann, 0), now: Self.now), "a renewal fits")
            // The device signs in as bob: it is his now, and ann has room again.
            #expect(try await store.savePushSubscription(Self.device(bob, 0), now: Self.now))
            #expect(try await store.pushSubscriptions(accountID: bob, now: Self.now).count == 1)
            #expect(try await store.savePushSubscription(Self.device(ann, 99), now: Self.now))
        }
    }

    @Test(arguments: Engine.allCases)
    func anExpiredDeviceIsNotListedAndGoes(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            #expect(try await store.savePushSubscription(Self.device(ann, 1), now: Self.now))
            let expired = PushRules.expiry(from: Self.now)
            #expect(try await store.pushSubscriptions(accountID: ann, now: expired).isEmpty)
            #expect(try await store.savePushSubscription(Self.device(ann, 2, at: expired), now: expired))
            #expect(!(try await store.removePushSubscription(endpoint: "https://push.example/1", accountID: nil)))
        }
    }

    @Test func kindsAreStoredAsText() {
        #expect(PushKind.text([.family, .dm]) == "dm,family")
        #expect(PushKind.set("dm,family,bogus") == [.dm, .family])
    }
}
