import Foundation
import HearthMedia
import HearthStore
import Testing

@testable import HearthApps

@Suite struct FamilyTreeTextTests {
    static func member(_ id: Int64, _ name: String) -> FamilyMember {
        FamilyMember(
            accountId: id, name: name, role: id == 1 ? .founder : .member,
            joinedAt: Date(timeIntervalSince1970: Double(id)))
    }

    @Test func couplesSideBySideChildrenBelow() {
        let members = [(1, "ann"), (2, "bob"), (3, "cat"), (4, "dan"), (5, "eve"), (6, "fay")].map {
            Self.member(Int64($0.0), $0.1)
        }
        let links = [
            FamilyLink(from: 1, to: 2, kind: .partner), FamilyLink(from: 1, to: 3, kind: .parent),
            FamilyLink(from: 2, to: 4, kind: .parent),
            FamilyLink(from: 3, to: 5, kind: .parent), FamilyLink(from: 3, to: 4, kind: .sibling),
        ]
        #expect(
            FamilyTreeText.render(members: members, links: links) == [
                "ann ⚭ bob",
                "├─ cat",
                "│  └─ eve",
                "└─ dan",
                "fay",
            ])
    }

    @Test func everyoneOnceEvenWithOddLinks() {
        let members = [(1, "a"), (2, "b"), (3, "c")].map { Self.member(Int64($0.0), $0.1) }
        // Two parents of the same child who are not partners, and a sibling link.
        let links = [
            FamilyLink(from: 1, to: 3, kind: .parent), FamilyLink(from: 2, to: 3, kind: .parent),
            FamilyLink(from: 1, to: 2, kind: .sibling),
        ]
        let lines = FamilyTreeText.render(members: members, links: links)
        for name in ["a", "b", "c"] {
            #expect(
                lines.filter { $0.hasSuffix(name) || $0.contains(name + " ") || $0.contains(" " + name) }.count >= 1)
        }
        #expect(lines.filter { $0.hasSuffix("─ c") || $0 == "c" }.count == 1)
        #expect(lines == ["a  (sibling of b)", "└─ c", "b  (sibling of a; parent of c)"])
    }

    static func people(_ names: [String]) -> [FamilyMember] {
        names.enumerated().map { Self.member(Int64($0.offset + 1), $0.element) }
    }

    /// The case: gran joins last as alice's parent; the text put her alone at the end.
    @Test func aGrandparentWhoJoinsLastIsAboveTheCouple() {
        let members = Self.people(["bob", "alice", "cat", "gran"])
        let links = [
            FamilyLink(from: 1, to: 2, kind: .partner), FamilyLink(from: 1, to: 3, kind: .parent),
            FamilyLink(from: 2, to: 3, kind: .parent), FamilyLink(from: 4, to: 2, kind: .parent),
        ]
        #expect(FamilyTreeText.render(members: members, links: links) == ["gran", "└─ bob ⚭ alice", "   └─ cat"])
    }

    @Test func inLawsTheCoupleUnderOneSideTheOtherSideSaysWhose() {
        let members = Self.people(["bob", "alice", "dan", "eve", "gran", "cat", "dot"])
        let links = [
            FamilyLink(from: 1, to: 2, kind: .partner), FamilyLink(from: 3, to: 4, kind: .partner),
            FamilyLink(from: 3, to: 1, kind: .parent), FamilyLink(from: 4, to: 1, kind: .parent),
            FamilyLink(from: 5, to: 2, kind: .parent), FamilyLink(from: 1, to: 6, kind: .parent),
            FamilyLink(from: 2, to: 6, kind: .parent), FamilyLink(from: 1, to: 7, kind: .parent),
            FamilyLink(from: 2, to: 7, kind: .parent),
        ]
        #expect(
            FamilyTreeText.render(members: members, links: links) == [
                "dan ⚭ eve", "└─ bob ⚭ alice", "   ├─ cat", "   └─ dot", "gran  (parent of alice)",
            ])
    }

    @Test func aRemarriageShowsBothPartnersAndAllChildren() {
        let members = Self.people(["bob", "alice", "dora", "cat", "gus"])
        let links = [
            FamilyLink(from: 1, to: 2, kind: .partner), FamilyLink(from: 1, to: 3, kind: .partner),
            FamilyLink(from: 1, to: 4, kind: .parent), FamilyLink(from: 2, to: 4, kind: .parent),
            FamilyLink(from: 1, to: 5, kind: .parent), FamilyLink(from: 3, to: 5, kind: .parent),
        ]
        #expect(
            FamilyTreeText.render(members: members, links: links) == ["alice ⚭ bob ⚭ dora", "├─ cat", "└─ gus"])
    }

    /// The text and the picture come from one layout: the text's nesting is the layout's forest.
    @Test func theTextFollowsTheLayoutThePictureDraws() {
        let members = Self.people(["bob", "alice", "cat", "gran"])
        let links = [
            FamilyLink(from: 1, to: 2, kind: .partner), FamilyLink(from: 2, to: 3, kind: .parent),
            FamilyLink(from: 4, to: 2, kind: .parent),
        ]
        let layout = FamilyTreeText.layout([1, 2, 3, 4], links)
        let picture = FamilyTreePicture.layout(
            people: members.map { .init(id: $0.accountId, name: $0.name) },
            parents: [(2, 3), (4, 2)], partners: [(1, 2)])
        for id in Int64(1)...4 {
            #expect(layout.place(id)!.row == picture[id]!.row && layout.place(id)!.x == picture[id]!.x)
        }
    }
}
