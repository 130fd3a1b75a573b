import HearthStore
import Testing

/// Keyset pages read one row past their size, on every engine.
@Suite struct KeysetPageTests {
    @Test func theRowPastThePageOnlySaysThereIsMore() {
        #expect(KeysetPage.rowsToRead(3) == 4)
        #expect(KeysetPage.split([1, 2, 3, 4], size: 3) == ([1, 2, 3], true))
        #expect(KeysetPage.split([1, 2, 3], size: 3) == ([1, 2, 3], false))
        #expect(KeysetPage.split([Int](), size: 3) == ([], false))
    }

    @Test func aPeoplePageContinuesAfterItsLastName() {
        let size = StoreLimits.peoplePageSize
        let names = (0...size).map { "n\($0)" }
        let full = PeoplePage(read: names)
        #expect(full.names == Array(names.prefix(size)) && full.next == names[size - 1])
        let last = PeoplePage(read: Array(names.prefix(size)))
        #expect(last.names.count == size && last.next == nil)
    }

    @Test func aChannelsEarlierIncarnationsAreReadAfterTheLiveOne() {
        let (above, below) = HistoryRules.incarnations(of: "#oak")
        #expect(above < "#oak 1" && "#oak zz" < below && !(above < "#oaks" && "#oaks" < below))
        #expect(HistoryRules.readable(current: "#oak 9", earlier: ["#oak 1", "#oak 9"]) == ["#oak 9", "#oak 1"])
    }
}
