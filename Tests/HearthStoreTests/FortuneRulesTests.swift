import Foundation
import HearthStore
import Testing

/// A cookie or points are given only while what the caller saw is still the latest.
@Suite struct FortuneRulesTests {
    @Test func aCookieOpensOnlyAfterTheLatestTheCallerSaw() {
        #expect(FortuneRules.mayOpen(latest: nil, after: nil))
        #expect(FortuneRules.mayOpen(latest: 4, after: 4))
        #expect(!FortuneRules.mayOpen(latest: 5, after: 4))
        #expect(!FortuneRules.mayOpen(latest: 5, after: nil))
    }

    @Test func pointsAreGivenOnlyAfterTheLatestDayTheCallerSaw() {
        let monday = LocalDay.utc("2026-11-23")
        let tuesday = LocalDay.utc("2026-11-24")
        #expect(FortuneRules.mayAddPoints(latest: nil, after: nil))
        #expect(FortuneRules.mayAddPoints(latest: monday, after: monday))
        #expect(!FortuneRules.mayAddPoints(latest: tuesday, after: monday))
        #expect(!FortuneRules.mayAddPoints(latest: monday, after: nil))
    }

    @Test func aCookieSharesWhereItWasOpenedOnlyWhenItSaid() {
        let at = Date(timeIntervalSince1970: 1_000)
        var cookie = FortuneRecord(
            accountId: 1, day: "2026-11-23", sayingKey: "k", round: 1, text: "t", numbers: "1", lat: nil, lon: nil,
            place: nil, points: 1, openedAt: at)
        #expect(cookie.sharedLocation == nil)
        (cookie.lat, cookie.lon, cookie.place) = (51.5, -0.1, "London")
        #expect(cookie.sharedLocation == SharedLocation(lat: 51.5, lon: -0.1, label: "London", at: at))
    }
}
