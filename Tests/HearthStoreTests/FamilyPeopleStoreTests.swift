import Foundation
import HearthStore
import Testing

/// People who are not users, on both engines: linked like members, claimed by a member (their
/// links move to the account), and kept in the tree when a member leaves it.
@Suite struct FamilyPeopleStoreTests {
    @Test(arguments: Engine.allCases)
    func peopleAreLinkedClaimedAndKeptWhenAMemberGoes(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann")
            let bob = try await AccountStoreTests.make(store, "bob")
            let family = try await store.foundFamily(name: "Oaks", founderID: ann.id)
            try await AccountDeletionStoreTests.invite(store, family.id, by: ann.id, code: "b")
            _ = try await store.joinFamily(codeHashes: ["b"], accountID: bob.id)
            let rose = try await store.addFamilyPerson(
                FamilyPerson(familyId: family.id, name: "Rose", sex: "F", born: "1931", bornPlace: "Lyon", died: "2019")
            )
            let tim = try await store.addFamilyPerson(FamilyPerson(familyId: family.id, name: "tim"))
            #expect(rose.treeID == -rose.id)
            try await store.link(family.id, from: rose.treeID, to: ann.id, kind: .parent)
            try await store.link(family.id, from: ann.id, to: tim.treeID, kind: .parent)
            try await store.link(family.id, from: ann.id, to: bob.id, kind: .partner, date: "1990", place: "Paris")
            await #expect(throws: FamilyError.wouldCycle) {
                try await store.link(family.id, from: tim.treeID, to: rose.treeID, kind: .parent)
            }
            // A person of another family is not one of this family's.
            let elms = try await store.foundFamily(name: "Elms", founderID: bob.id)
            let stranger = try await store.addFamilyPerson(FamilyPerson(familyId: elms.id, name: "Zed"))
            await #expect(throws: FamilyError.notMember) {
                try await store.link(family.id, from: stranger.treeID, to: ann.id, kind: .parent)
            }
            let partner = try await store.familyLinks(family.id).first { $0.kind == .partner }
            #expect(partner?.date == "1990" && partner?.place == "Paris")
            #expect(try await store.familyPeople(family.id).first?.bornPlace == "Lyon")

            // Bob claims tim: tim's link to ann is now bob's; bob cannot be a second person.
            try await store.claimFamilyPerson(id: tim.id, familyID: family.id, accountID: bob.id)
            var links = Set(try await store.familyLinks(family.id).map { "\($0.from)>\($0.to):\($0.kind)" })
            #expect(links.contains("\(ann.id)>\(bob.id):parent") && !links.contains("\(ann.id)>\(tim.treeID):parent"))
            await #expect(throws: FamilyPersonError.claimed) {
                try await store.claimFamilyPerson(id: tim.id, familyID: family.id, accountID: ann.id)
            }
            await #expect(throws: FamilyPersonError.alreadyAPerson) {
                try await store.claimFamilyPerson(id: rose.id, familyID: family.id, accountID: bob.id)
            }
            // Rose, ann's parent, cannot become ann: that link would be ann's to herself.
            await #expect(throws: FamilyError.selfLink) {
                try await store.claimFamilyPerson(id: rose.id, familyID: family.id, accountID: ann.id)
            }
            #expect(try await store.familyPeople(family.id).first { $0.id == rose.id }?.accountId == nil)

            // Bob deletes his account: he stays ann's child in the tree, as tim again.
            try await store.deleteAccount(id: bob.id)
            let people = try await store.familyPeople(family.id)
            #expect(people.first { $0.id == tim.id }?.accountId == nil)
            links = Set(try await store.familyLinks(family.id).map { "\($0.from)>\($0.to):\($0.kind)" })
            #expect(
                links.contains("\(ann.id)>\(tim.treeID):parent") && links.contains("\(rose.treeID)>\(ann.id):parent"))
            #expect(!links.contains { $0.contains("\(bob.id)") && !$0.contains("-\(bob.id)") })

            #expect(try await store.removeFamilyPerson(id: rose.id, familyID: family.id))
            #expect(!(try await store.removeFamilyPerson(id: rose.id, familyID: family.id)))
            #expect(try await store.familyLinks(family.id).allSatisfy { $0.from != rose.treeID })
        }
    }

    @Test func datesAndTheLimitOfPeople() throws {
        #expect(FamilyPersonRules.date("1931") == "1931")
        #expect(FamilyPersonRules.date("1931-05") == "1931-05")
        #expect(FamilyPersonRules.date("2000-02-29") == "2000-02-29")
        for bad in ["19x1", "1931-13", "1931-02-30", "0000", "31", "1931-5", "1931-05-02-01", "", "１９３１"] {
            #expect(FamilyPersonRules.date(bad) == nil, "\(bad)")
        }
        try FamilyPersonRules.checkAdding(count: FamilyPersonRules.maxPeople - 1)
        #expect(throws: FamilyPersonError.tooMany) {
            try FamilyPersonRules.checkAdding(count: FamilyPersonRules.maxPeople)
        }
    }
}
