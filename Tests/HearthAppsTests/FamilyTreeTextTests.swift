import Foundation
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
        #expect(lines.joined().filter { $0 == "c" }.count == 1)
    }
}
