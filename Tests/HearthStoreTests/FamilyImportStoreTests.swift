import Foundation
import HearthStore
import Testing

/// A file's people and ties imported in one store call (`importFamily`), on both engines: people
/// already in the tree are found, each tie is decided as a single link is (a cycle through the
/// tree or through a tie of the same file is refused), and a file that would pass the family's
/// people limit writes nothing.
@Suite struct FamilyImportStoreTests {
    typealias Person = FamilyImport.Person
    typealias Tie = FamilyImport.Tie

    static func links(_ store: any EngineStore, _ family: Int64) async throws -> Set<String> {
        Set(
            try await store.familyLinks(family).map {
                "\($0.from)>\($0.to):\($0.kind):\($0.date ?? "-"):\($0.place ?? "-")"
            })
    }

    @Test(arguments: Engine.allCases)
    func peopleAreFoundOrAddedAndTiesDecidedAsSingleLinks(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann")
            let bob = try await AccountStoreTests.make(store, "bob")
            let family = try await store.foundFamily(name: "Oaks", founderID: ann.id)
            try await AccountDeletionStoreTests.invite(store, family.id, by: ann.id, code: "b")
            _ = try await store.joinFamily(codeHashes: ["b"], accountID: bob.id)
            let rose = try await store.addFamilyPerson(FamilyPerson(familyId: family.id, name: "Rose", born: "1931"))
            try await store.link(family.id, from: rose.treeID, to: ann.id, kind: .parent)

            let people = [
                Person(xref: "@R@", name: "ROSE", born: "1931"), Person(xref: "@A@", name: "Ann"),
                Person(xref: "@B@", name: "bob"), Person(xref: "@K@", name: "Kid", born: "1960", bornPlace: "Lyon"),
                Person(xref: "@G@", name: "Gran", bornPlace: ""),
            ]
            let ties = [
                Tie(from: "@A@", to: "@K@", kind: .parent),
                // Kid would be Rose's parent, and Rose is Kid's grandparent through the tree.
                Tie(from: "@K@", to: "@R@", kind: .parent),
                Tie(from: "@G@", to: "@R@", kind: .parent),
                // A cycle through the tie just above, of the same file.
                Tie(from: "@R@", to: "@G@", kind: .parent),
                Tie(from: "@B@", to: "@A@", kind: .partner),
                Tie(from: "@A@", to: "@B@", kind: .partner, date: "1990", place: "Paris"),
                Tie(from: "@A@", to: "@K@", kind: .parent),
                Tie(from: "@K@", to: "@X@", kind: .sibling), Tie(from: "@A@", to: "@A@", kind: .sibling),
            ]
            let outcome = try await store.importFamily(family.id, people: people, ties: ties, by: ann.id, now: Date())
            #expect(outcome.peopleAdded == 2 && outcome.tiesAdded == 3 && outcome.refused == 2)
            #expect(outcome.ids["@R@"] == rose.treeID && outcome.ids["@A@"] == ann.id && outcome.ids["@B@"] == bob.id)
            let stored = try await store.familyPeople(family.id)
            let kid = try #require(stored.first { $0.name == "Kid" })
            let gran = try #require(stored.first { $0.name == "Gran" })
            #expect(outcome.ids["@K@"] == kid.treeID && outcome.ids["@G@"] == gran.treeID && stored.count == 3)
            #expect(kid.born == "1960" && kid.bornPlace == "Lyon" && kid.addedBy == ann.id && gran.bornPlace == nil)
            let (low, high) = (min(ann.id, bob.id), max(ann.id, bob.id))
            let expected: Set<String> = [
                "\(rose.treeID)>\(ann.id):parent:-:-", "\(ann.id)>\(kid.treeID):parent:-:-",
                "\(gran.treeID)>\(rose.treeID):parent:-:-", "\(low)>\(high):partner:1990:Paris",
            ]
            #expect(try await Self.links(store, family.id) == expected)
            // The single link refuses what the import refused.
            await #expect(throws: FamilyError.wouldCycle) {
                try await store.link(family.id, from: kid.treeID, to: rose.treeID, kind: .parent)
            }

            // The same file again adds nothing; a partner tie without a date keeps the one kept.
            let again = try await store.importFamily(family.id, people: people, ties: ties, by: ann.id, now: Date())
            #expect(again.peopleAdded == 0 && again.tiesAdded == 0 && again.refused == 2)
            #expect(try await store.familyPeople(family.id).count == 3)
            #expect(try await Self.links(store, family.id) == expected)

            await #expect(throws: FamilyError.notFound) {
                try await store.importFamily(family.id + 99, people: people, ties: [], by: ann.id, now: Date())
            }
        }
    }

    /// Up to `FamilyPersonRules.maxPeople` in more than one batch of `FamilyImport.batchRows`
    /// rows; a file one person past it writes nothing, not its people nor its ties.
    @Test(arguments: Engine.allCases)
    func aFilePastThePeopleLimitWritesNothing(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann")
            let family = try await store.foundFamily(name: "Many", founderID: ann.id)
            let many = (0..<FamilyPersonRules.maxPeople - 2).map { Person(xref: "@P\($0)@", name: "P\($0)") }
            #expect(many.count > FamilyImport.batchRows)
            let siblings = (1...FamilyImport.batchRows + 1).map { Tie(from: "@P0@", to: "@P\($0)@", kind: .sibling) }
            let first = try await store.importFamily(family.id, people: many, ties: siblings, by: ann.id, now: Date())
            #expect(first.peopleAdded == many.count && first.tiesAdded == siblings.count && first.refused == 0)
            // Every xref names its own person, however the rows were numbered.
            let byID = Dictionary(uniqueKeysWithValues: try await store.familyPeople(family.id).map { ($0.treeID, $0) })
            #expect(byID.count == many.count)
            #expect(many.allSatisfy { byID[first.ids[$0.xref] ?? 0]?.name == $0.name })
            let links = try await Self.links(store, family.id)
            #expect(links.count == siblings.count)

            let three = (0..<3).map { Person(xref: "@N\($0)@", name: "N\($0)") }
            let tie = Tie(from: "@P1@", to: "@P2@", kind: .partner)
            await #expect(throws: FamilyPersonError.tooManyToImport(held: many.count, adding: 3)) {
                try await store.importFamily(
                    family.id, people: many + three, ties: [tie, Tie(from: "@N0@", to: "@P1@", kind: .parent)],
                    by: ann.id, now: Date())
            }
            #expect(try await store.familyPeople(family.id).count == many.count)
            #expect(try await Self.links(store, family.id) == links)

            // Two more fill the family exactly; a file of people it holds already still imports.
            let two = try await store.importFamily(
                family.id, people: Array(three.prefix(2)), ties: [], by: ann.id, now: Date())
            #expect(two.peopleAdded == 2)
            let known = try await store.importFamily(family.id, people: many, ties: [tie], by: ann.id, now: Date())
            #expect(known.peopleAdded == 0 && known.tiesAdded == 1)
            await #expect(throws: FamilyPersonError.tooManyToImport(held: FamilyPersonRules.maxPeople, adding: 1)) {
                try await store.importFamily(family.id, people: [three[2]], ties: [], by: ann.id, now: Date())
            }
            #expect(try await store.familyPeople(family.id).count == FamilyPersonRules.maxPeople)
        }
    }

    /// The import's rules with plain values, no engine.
    @Test func theRulesDecideFromPlainValues() throws {
        let parents = FamilyRules.parents([
            FamilyLink(from: 1, to: 2, kind: .parent), FamilyLink(from: 2, to: 3, kind: .parent),
            FamilyLink(from: 4, to: 3, kind: .partner),
        ])
        #expect(FamilyRules.ancestors(of: 3, parents: parents) == [1, 2, 3])
        #expect(FamilyRules.ancestors(of: 4, parents: parents) == [4])

        let ids: [String: Int64] = ["a": 1, "b": 2, "c": 3, "d": -4]
        let decided = try FamilyImport.links(
            [
                // Refused: through the first tie, then through the family's link.
                Tie(from: "c", to: "d", kind: .parent), Tie(from: "d", to: "c", kind: .parent),
                Tie(from: "a", to: "d", kind: .partner, date: "", place: "Lyon"),
                Tie(from: "d", to: "a", kind: .partner, date: "2001"), Tie(from: "b", to: "a", kind: .parent),
                Tie(from: "b", to: "c", kind: .parent), Tie(from: "a", to: "e", kind: .parent),
            ], ids: ids, members: [1, 2, 3, -4], links: [FamilyLink(from: 1, to: 2, kind: .parent)])
        #expect(
            decided.links == [
                FamilyLink(from: 3, to: -4, kind: .parent),
                FamilyLink(from: -4, to: 1, kind: .partner, date: "2001", place: "Lyon"),
                FamilyLink(from: 2, to: 3, kind: .parent),
            ])
        #expect(decided.added == 3 && decided.refused == 2)

        let file = [Person(xref: "x", name: "ANN", born: "1990"), Person(xref: "y", name: "Zoe", sex: "")]
        let member = FamilyMember(accountId: 7, name: "ann", role: .founder, joinedAt: Date())
        let facts = FamilyPerson(id: 1, familyId: 1, name: "ann", born: "1990", accountId: 7)
        var plan = try FamilyImport.Plan(file, familyID: 1, members: [member], people: [facts], by: 7, now: Date())
        #expect(plan.ids == ["x": 7] && plan.rows.map(\.name) == ["Zoe"] && plan.rows[0].sex == nil)
        plan.added([5])
        #expect(plan.ids == ["x": 7, "y": -5])
        let full = (0..<FamilyPersonRules.maxPeople).map { FamilyPerson(id: Int64($0), familyId: 1, name: "p\($0)") }
        #expect(throws: FamilyPersonError.tooManyToImport(held: FamilyPersonRules.maxPeople, adding: 2)) {
            try FamilyImport.Plan(file, familyID: 1, members: [member], people: full, by: 7, now: Date())
        }
    }
}
