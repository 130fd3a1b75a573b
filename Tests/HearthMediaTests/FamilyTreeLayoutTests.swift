import Testing

@testable import HearthMedia

/// The one layout the text tree and the picture are drawn from, on the shapes families have.
@Suite struct FamilyTreeLayoutTests {
    // bob 1, alice 2, cat 3, gran 4, dan 5, eve 6, fay 7, gus 8, dora 9
    @Test func threeGenerationsHangFromTheGrandparentWhoJoinedLast() {
        // gran joined after the couple and their child: she is still above them.
        let layout = FamilyTreeLayout(people: [1, 2, 3, 4], parents: [(1, 3), (2, 3), (4, 2)], partners: [(1, 2)])
        #expect(layout.roots.map { layout.units[$0].people } == [[4]])
        let couple = layout.units[layout.unitOf[2]!]
        #expect(couple.people == [1, 2] && couple.row == 1 && couple.parent == layout.unitOf[4])
        #expect(layout.units[layout.unitOf[3]!].parent == layout.unitOf[1])
        #expect(layout.place(4)!.row == 0 && layout.place(3)!.row == 2)
    }

    @Test func inLawsBothAboveTheCoupleWhichHangsUnderOne() {
        // dan ⚭ eve are bob's parents, gran alice's.
        let layout = FamilyTreeLayout(
            people: [1, 2, 4, 5, 6], parents: [(5, 1), (6, 1), (4, 2)], partners: [(1, 2), (5, 6)])
        #expect(layout.roots.map { layout.units[$0].people } == [[4], [5, 6]])
        #expect(layout.units[layout.unitOf[1]!].parent == layout.unitOf[5])
        #expect(layout.place(4)!.row == 0 && layout.place(1)!.row == 1 && layout.place(2)!.row == 1)
        // Nobody shares a place.
        let places = [1, 2, 4, 5, 6].map { layout.place($0)! }
        for (i, a) in places.enumerated() {
            for b in places.dropFirst(i + 1) where a.row == b.row { #expect(abs(a.x - b.x) >= 1) }
        }
    }

    @Test func twoChildrenSitUnderTheirParentsCentred() {
        let layout = FamilyTreeLayout(
            people: [1, 2, 3, 7], parents: [(1, 3), (2, 3), (1, 7), (2, 7)], partners: [(1, 2)])
        let couple = layout.units[layout.unitOf[1]!]
        #expect(couple.children.map { layout.units[$0].people } == [[3], [7]])
        let middle = couple.x + 1
        #expect(middle == (layout.place(3)!.x + layout.place(7)!.x + 1) / 2)
    }

    @Test func aRemarriageIsOneUnitWithTheOneWhoRemarriedInTheMiddle() {
        let layout = FamilyTreeLayout(
            people: [1, 2, 9, 3, 8], parents: [(1, 3), (2, 3), (1, 8), (9, 8)], partners: [(1, 2), (1, 9)])
        #expect(layout.units[layout.unitOf[1]!].people == [2, 1, 9])
        #expect(layout.units.count == 3)
        #expect(layout.place(3)!.row == 1 && layout.place(8)!.row == 1)
    }

    @Test func linksToStrangersAndSelfLinksAreIgnored() {
        let layout = FamilyTreeLayout(people: [1, 2], parents: [(1, 99), (2, 2)], partners: [(1, 42)])
        #expect(layout.units.map(\.people) == [[1], [2]])
        #expect(layout.rows == 1)
    }
}
