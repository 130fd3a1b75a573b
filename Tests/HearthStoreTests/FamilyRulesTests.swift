import Foundation
import HearthStore
import Testing

/// The families' rules on their own, with no engine (each engine's store test runs them too).
@Suite struct FamilyRulesTests {
    @Test func nobodyIsLinkedToThemselves() {
        #expect(throws: FamilyError.selfLink) {
            try FamilyRules.link(from: 1, to: 1, kind: .sibling, members: [1], ancestorsOfFrom: [])
        }
    }

    @Test func bothEndsMustBeMembers() {
        #expect(throws: FamilyError.notMember) {
            try FamilyRules.link(from: 1, to: 2, kind: .partner, members: [1], ancestorsOfFrom: [])
        }
    }

    @Test func aParentLinkMayNotCloseACycle() throws {
        // 3 is a parent of 2, 2 of 1: 1 cannot become a parent of 3.
        #expect(throws: FamilyError.wouldCycle) {
            try FamilyRules.link(from: 1, to: 3, kind: .parent, members: [1, 3], ancestorsOfFrom: [1, 2, 3])
        }
        let down = try FamilyRules.link(from: 3, to: 1, kind: .parent, members: [1, 3], ancestorsOfFrom: [3])
        #expect(down == FamilyLink(from: 3, to: 1, kind: .parent))
    }

    @Test func symmetricLinksAreStoredLowerFirst() throws {
        for kind in [FamilyLinkKind.partner, .sibling] {
            let link = try FamilyRules.link(from: 9, to: 4, kind: kind, members: [4, 9], ancestorsOfFrom: [])
            #expect(link == FamilyLink(from: 4, to: 9, kind: kind))
        }
    }

    @Test func anInviteLinksTheNewcomerAsTheInviterChose() {
        let links = FamilyRelation.allCases.map { FamilyRules.link(for: $0, inviter: 1, newcomer: 2) }
        #expect(links.map { $0.map { [$0.from, $0.to] } } == [[2, 1], [1, 2], [1, 2], [1, 2]])
        #expect(links.map { $0?.kind } == [.parent, .parent, .partner, .sibling])
        #expect(FamilyRules.link(for: nil, inviter: 1, newcomer: 2) == nil)
    }

    @Test func foundingStopsAtTheLimit() throws {
        try FamilyRules.checkFounding(founded: 2, maxFounded: 3)
        #expect(throws: FamilyError.foundedTooMany) { try FamilyRules.checkFounding(founded: 3, maxFounded: 3) }
    }

    @Test func membersJoinOnceAndTheFounderStays() throws {
        #expect(throws: FamilyError.alreadyMember) { try FamilyRules.checkJoin(alreadyMember: true) }
        #expect(throws: FamilyError.notMember) { try FamilyRules.checkLeave(role: nil) }
        #expect(throws: FamilyError.founderMustStay) { try FamilyRules.checkLeave(role: .founder) }
        try FamilyRules.checkLeave(role: .member)
        try FamilyRules.checkLeave(role: .admin)
    }

    static func member(_ id: Int64, _ role: FamilyRole, joined: TimeInterval) -> FamilyMember {
        FamilyMember(accountId: id, name: "u\(id)", role: role, joinedAt: Date(timeIntervalSince1970: joined))
    }

    @Test func aFoundersFamilyPassesToAnAdminThenTheLongestStandingThenTheOlderAccount() {
        func heir(_ others: [FamilyMember]) -> Int64? {
            FamilyRules.departure(familyID: 7, name: "Elms", founderID: 1, leaving: 1, others: others).newFounderId
        }
        let founder = Self.member(1, .founder, joined: 0)
        #expect(heir([founder, Self.member(5, .member, joined: 10), Self.member(4, .member, joined: 20)]) == 5)
        #expect(heir([Self.member(5, .member, joined: 10), Self.member(6, .admin, joined: 30)]) == 6)
        #expect(heir([Self.member(9, .member, joined: 10), Self.member(8, .member, joined: 10)]) == 8)
    }

    @Test func aFamilyNobodyIsLeftInIsRemovedAndOthersAreUntouched() {
        let alone = FamilyRules.departure(
            familyID: 7, name: "Elms", founderID: 1, leaving: 1, others: [Self.member(1, .founder, joined: 0)])
        #expect(alone == FamilyDeparture(familyId: 7, name: "Elms", removed: true))
        let notFounder = FamilyRules.departure(familyID: 7, name: "Elms", founderID: 2, leaving: 1, others: [])
        #expect(notFounder == FamilyDeparture(familyId: 7, name: "Elms"))
    }
}
