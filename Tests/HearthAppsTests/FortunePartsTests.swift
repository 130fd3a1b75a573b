import Foundation
import Testing

@testable import HearthApps

@Suite struct FortunePartsTests {
    @Test func strfileSourceIsSplitOnPercentLines() {
        let text = "First one.\n%\nSecond,\non two lines.\n%\n\n%\r\nThird.\r\n%\n"
        #expect(FortuneCatalogue.parse(text) == ["First one.", "Second,\non two lines.", "Third."])
        let long = String(repeating: "x", count: FortuneCatalogue.maxSayingLength + 1)
        #expect(FortuneCatalogue.parse("ok\n%\n\(long)\n%\n") == ["ok"])
        // Duplicates collapse; keys are stable.
        let a = FortuneCatalogue(["one", "two", "one"])
        #expect(a.sayings.count == 2)
        #expect(a.sayings.map(\.key) == FortuneCatalogue(["one", "two"]).sayings.map(\.key))
    }

    @Test func builtInCatalogueHasEnoughSayings() {
        let texts = FortuneCatalogue.builtinTexts()
        #expect(texts.count >= 200)
        #expect(Set(texts).count == texts.count)
    }

    @Test func daysFollowTheTimeZoneAndDST() throws {
        let paris = LocalDays(identifier: "Europe/Paris")
        let instant = try Date("2026-10-24T22:30:00Z", strategy: .iso8601)  // 00:30 on the 25th in Paris
        #expect(paris.day(instant) == "2026-10-25")
        #expect(LocalDays(identifier: "America/Los_Angeles").day(instant) == "2026-10-24")
        // The 25th of October 2026 has 25 hours in Paris (clocks go back).
        let midnight = paris.nextMidnight(after: instant)
        #expect(midnight == (try Date("2026-10-25T23:00:00Z", strategy: .iso8601)))
        #expect(LocalDays.countdown(from: instant, to: midnight) == "24h 30m")
        #expect(LocalDays.countdown(from: instant, to: instant.addingTimeInterval(59)) == "1m")
        #expect(LocalDays.countdown(from: instant, to: instant) == "under a minute")
        #expect(LocalDays(identifier: "Nowhere/Atlantis").name == "UTC")
    }
}
