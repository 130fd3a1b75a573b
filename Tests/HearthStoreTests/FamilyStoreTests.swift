import Foundation
import HearthStore
import Testing

/// The families' rules as each engine applies them, in its own transaction.
@Suite struct FamilyStoreTests {
    @Test(arguments: Engine.allCases)
    func linksAreCheckedAndStoredTheSameWay(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann")
            let bob = try await AccountStoreTests.make(store, "bob")
            let cat = try await AccountStoreTests.make(store, "cat")
            let family = try await store.foundFamily(name: "Oaks", founderID: ann.id)
            try await AccountDeletionStoreTests.invite(store, family.id, by: ann.id, code: "b")
            _ = try await store.joinFamily(codeHashes: ["b"], accountID: bob.id)
            await #expect(throws: FamilyError.selfLink) {
                try await store.link(family.id, from: ann.id, to: ann.id, kind: .sibling)
            }
            await #expect(throws: FamilyError.notMember) {
                try await store.link(family.id, from: ann.id, to: cat.id, kind: .parent)
            }
            try await store.link(family.id, from: ann.id, to: bob.id, kind: .parent)
            await #expect(throws: FamilyError.wouldCycle) {
                try await store.link(family.id, from: bob.id, to: ann.id, kind: .parent)
            }
            try await store.link(family.id, from: bob.id, to: ann.id, kind: .partner)
            #expect(
                Set(try await store.familyLinks(family.id)) == [
                    FamilyLink(from: ann.id, to: bob.id, kind: .parent),
                    FamilyLink(from: min(ann.id, bob.id), to: max(ann.id, bob.id), kind: .partner),
                ])
        }
    }

    @Test(arguments: Engine.allCases)
    func joiningLeavingAndFoundingFollowTheRules(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann")
            let bob = try await AccountStoreTests.make(store, "bob")
            let family = try await store.foundFamily(name: "Oaks", founderID: ann.id, maxFounded: 1)
            await #expect(throws: FamilyError.foundedTooMany) {
                try await store.foundFamily(name: "Elms", founderID: ann.id, maxFounded: 1)
            }
            try await AccountDeletionStoreTests.invite(store, family.id, by: ann.id, code: "b1")
            try await AccountDeletionStoreTests.invite(store, family.id, by: ann.id, code: "b2")
            _ = try await store.joinFamily(codeHashes: ["b1"], accountID: bob.id)
            await #expect(throws: FamilyError.alreadyMember) {
                try await store.joinFamily(codeHashes: ["b2"], accountID: bob.id)
            }
            await #expect(throws: FamilyError.founderMustStay) {
                try await store.leaveFamily(family.id, accountID: ann.id)
            }
            try await store.leaveFamily(family.id, accountID: bob.id)
            await #expect(throws: FamilyError.notMember) { try await store.leaveFamily(family.id, accountID: bob.id) }
            #expect(try await store.familyMemberIDs(family.id) == [ann.id])
        }
    }
}
