import HearthStore
import Testing

@testable import HearthApps

/// The kinship calculator on one family of four generations with in-laws, a remarriage and
/// siblings entered without parents.
@Suite struct FamilyKinshipTests {
    // 1 gran ⚭ 2 grandpa: 3 alice, 11 joe. alice ⚭ 4 bob: 5 dan, 7 fay. dan ⚭ 6 eve: 8 gus: 10 ivy.
    // fay: 9 hal. joe: 12 kim: 13 lee. bob ⚭ 14 mia: 16 ned. 20 and 21 siblings; 21: 22.
    static let links: [FamilyLink] = {
        var links = [(1, 2), (3, 4), (5, 6), (4, 14)].map { FamilyLink(from: $0.0, to: $0.1, kind: .partner) }
        let parents: [(Int64, Int64)] = [
            (1, 3), (2, 3), (1, 11), (2, 11), (3, 5), (4, 5), (3, 7), (4, 7), (5, 8), (6, 8), (8, 10), (7, 9),
            (11, 12), (12, 13), (4, 16), (14, 16), (21, 22),
        ]
        links += parents.map { FamilyLink(from: $0.0, to: $0.1, kind: .parent) }
        links.append(FamilyLink(from: 20, to: 21, kind: .sibling))
        return links
    }()
    static let sex: [Int64: FamilyKinship.Sex] = [
        1: .female, 2: .male, 3: .female, 4: .male, 5: .male, 6: .female, 7: .female, 8: .male, 9: .male,
        10: .female, 11: .male, 12: .female, 13: .male, 14: .female, 16: .male,
    ]

    func term(_ b: Int64, _ a: Int64) -> String? {
        FamilyKinship.relation(of: b, to: a, links: Self.links, sex: Self.sex)?.term
    }

    @Test func parentsChildrenAndGenerations() {
        #expect(term(5, 3) == "son")
        #expect(term(3, 5) == "mother")
        #expect(term(1, 5) == "grandmother")
        #expect(term(8, 1) == "great-grandson")
        #expect(term(1, 10) == "great-great-grandmother")
        #expect(term(22, 21) == "child")
    }

    @Test func siblingsHalfSiblingsAuntsAndNieces() {
        #expect(term(7, 5) == "sister")
        #expect(term(16, 5) == "half-brother")
        #expect(term(11, 5) == "uncle")
        #expect(term(5, 11) == "nephew")
        #expect(term(11, 8) == "great-uncle")
        #expect(term(8, 11) == "grandnephew")
        // Siblings entered without parents: related through parents nobody entered.
        #expect(term(20, 21) == "sibling")
        #expect(term(20, 22) == "aunt or uncle")
        #expect(FamilyKinship.relation(of: 20, to: 22, links: Self.links, sex: [:])?.commonAncestors == [])
    }

    @Test func cousinsAndRemovals() {
        #expect(term(12, 5) == "first cousin")
        #expect(FamilyKinship.relation(of: 12, to: 5, links: Self.links, sex: Self.sex)?.commonAncestors == [1, 2])
        #expect(term(13, 5) == "first cousin once removed")
        #expect(term(8, 12) == "first cousin once removed")
        #expect(term(9, 8) == "first cousin")
        #expect(term(10, 13) == "second cousin once removed")
        #expect(term(10, 9) == "first cousin once removed")
    }

    @Test func partnersInLawsAndSteps() {
        #expect(term(4, 3) == "husband")
        let eve = FamilyKinship.relation(of: 6, to: 3, links: Self.links, sex: Self.sex)
        #expect(eve?.term == "daughter-in-law" && eve?.through == 5)
        #expect(term(3, 6) == "mother-in-law")
        #expect(term(7, 6) == "sister-in-law")
        #expect(term(6, 7) == "sister-in-law")
        #expect(term(14, 5) == "stepmother")
        #expect(term(5, 14) == "stepson")
        // Without a sex given, the words stay neutral.
        #expect(FamilyKinship.relation(of: 6, to: 3, links: Self.links, sex: [:])?.term == "child-in-law")
    }

    @Test func strangersAndOneselfAreNotRelated() {
        #expect(term(30, 5) == nil)
        #expect(term(5, 5) == nil)
        #expect(term(20, 5) == nil)
    }
}
