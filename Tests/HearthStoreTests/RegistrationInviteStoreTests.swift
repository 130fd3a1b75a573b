import Foundation
import HearthStore
import Testing

/// Invite codes a registration claims before the account exists: an operator's, good for N
/// registrations, and a family's, taken out and then used to join.
@Suite struct RegistrationInviteStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: Engine.allCases)
    func anOperatorsInviteGivesItsUsesAndTakesOneBack(engine: Engine) async throws {
        try await engine.withStore { store in
            let later = Self.now.addingTimeInterval(86400)
            try await store.addRegistrationInvite(codeHash: "k1:two", uses: 2, expiresAt: later, now: Self.now)
            #expect(try await store.claimRegistrationInvite(codeHashes: ["k1:two"], now: Self.now))
            #expect(try await store.claimRegistrationInvite(codeHashes: ["other", "k1:two"], now: Self.now))
            #expect(!(try await store.claimRegistrationInvite(codeHashes: ["k1:two"], now: Self.now)), "used up")
            try await store.returnRegistrationInvite(codeHashes: ["k1:two"])
            #expect(try await store.claimRegistrationInvite(codeHashes: ["k1:two"], now: Self.now), "given back")
            #expect(!(try await store.claimRegistrationInvite(codeHashes: ["k1:none"], now: Self.now)))
            try await store.addRegistrationInvite(codeHash: "k1:old", uses: 5, expiresAt: later, now: Self.now)
            #expect(!(try await store.claimRegistrationInvite(codeHashes: ["k1:old"], now: later)), "expired")
        }
    }

    /// Ten registrations racing for a single-use code: one gets it.
    @Test(arguments: Engine.allCases)
    func racingClaimsOfTheLastUseGetItOnce(engine: Engine) async throws {
        try await engine.withStore { store in
            try await store.addRegistrationInvite(
                codeHash: "k1:once", uses: 1, expiresAt: Self.now.addingTimeInterval(60), now: Self.now)
            let family = try await store.foundFamily(
                name: "Home", founderID: try await AccountStoreTests.make(store, "ann").id)
            _ = try await store.addFamilyInvite(
                FamilyInvite(
                    codeHash: "k1:fam", familyId: family.id, inviterId: family.founderId, relation: .child,
                    expiresAt: Self.now.addingTimeInterval(60)),
                now: Self.now)
            let (claims, takes) = try await withThrowingTaskGroup(of: (Bool, Bool).self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        async let claim = store.claimRegistrationInvite(codeHashes: ["k1:once"], now: Self.now)
                        async let take = store.takeFamilyInvite(codeHashes: ["k1:fam"], now: Self.now)
                        return (try await claim, try await take != nil)
                    }
                }
                return try await group.reduce(into: (0, 0)) {
                    $0.0 += $1.0 ? 1 : 0
                    $0.1 += $1.1 ? 1 : 0
                }
            }
            #expect(claims == 1 && takes == 1)
        }
    }

    @Test(arguments: Engine.allCases)
    func aTakenFamilyInviteJoinsOrGoesBack(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann")
            let bea = try await AccountStoreTests.make(store, "bea")
            let family = try await store.foundFamily(name: "Home", founderID: ann.id)
            let invite = FamilyInvite(
                codeHash: "k1:fam", familyId: family.id, inviterId: ann.id, relation: .child,
                expiresAt: Self.now.addingTimeInterval(60))
            _ = try await store.addFamilyInvite(invite, now: Self.now)
            let taken = try #require(try await store.takeFamilyInvite(codeHashes: ["x", "k1:fam"], now: Self.now))
            #expect(try await store.takeFamilyInvite(codeHashes: ["k1:fam"], now: Self.now) == nil, "taken out")
            _ = try await store.addFamilyInvite(taken, now: Self.now)  // the registration failed: back
            let again = try #require(try await store.takeFamilyInvite(codeHashes: ["k1:fam"], now: Self.now))
            let joined = try await store.joinFamily(invite: again, accountID: bea.id, now: Self.now)
            #expect(joined.id == family.id)
            #expect(try await store.familyMemberIDs(family.id) == [ann.id, bea.id])
            #expect(try await store.familyLinks(family.id).count == 1)  // ann is bea's parent
            await #expect(throws: FamilyError.self) {
                try await store.joinFamily(invite: again, accountID: bea.id, now: Self.now)
            }
            #expect(
                try await store.takeFamilyInvite(codeHashes: ["k1:fam"], now: Self.now.addingTimeInterval(61)) == nil)
        }
    }
}
