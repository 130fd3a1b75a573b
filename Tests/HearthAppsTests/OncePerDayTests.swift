import Foundation
import HearthStore
import HearthTesting
import Testing

@testable import HearthApps

/// One cookie per day of a person's life, whatever time zone they set (issue 33, item 3).
@Suite struct OncePerDayTests {
    static func at(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }
    static let utc = LocalDays(identifier: "UTC")
    static let losAngeles = LocalDays(identifier: "America/Los_Angeles")
    static let kiritimati = LocalDays(identifier: "Pacific/Kiritimati")  // UTC+14

    /// The day given at `iso` in `zone`, or the test fails.
    static func given(_ last: LocalDay?, _ iso: String, _ zone: LocalDays) throws -> (LocalDay, Bool) {
        guard case .give(let day, let continues) = OncePerDay.decide(last: last, now: at(iso), in: zone) else {
            Issue.record("nothing may be given at \(iso) in \(zone.name)")
            throw CancellationError()
        }
        return (day, continues)
    }

    static func next(_ last: LocalDay, _ iso: String, _ zone: LocalDays) -> LocalDay? {
        guard case .wait(let next) = OncePerDay.decide(last: last, now: at(iso), in: zone) else { return nil }
        return next
    }

    @Test func theIssuesZoneHopsOpenNothing() throws {
        // 27 November's cookie opened in UTC at 05:00 (21:00 on the 26th in Los Angeles).
        let (first, _) = try Self.given(nil, "2026-11-27T05:00:00Z", Self.utc)
        #expect(first.day == "2026-11-27" && first.start == Self.at("2026-11-27T00:00:00Z"))
        #expect(first.end == Self.at("2026-11-28T00:00:00Z"))
        // Los Angeles' 26th is a day already passed; its 27th overlaps the UTC 27th: the 28th is next.
        let inLA = try #require(Self.next(first, "2026-11-27T05:00:00Z", Self.losAngeles))
        #expect(inLA.day == "2026-11-28" && inLA.start == Self.at("2026-11-28T08:00:00Z"))
        // UTC+14 later that day: its 28th started at 10:00 UTC on the 27th, before the UTC 27th ended.
        let inKiritimati = try #require(Self.next(first, "2026-11-27T12:00:00Z", Self.kiritimati))
        #expect(inKiritimati.day == "2026-11-29" && inKiritimati.start == Self.at("2026-11-28T10:00:00Z"))
        #expect(Self.next(first, "2026-11-28T09:59:59Z", Self.kiritimati) == inKiritimati)
        // Its 29th starts 10 hours after the UTC 27th ended: a real next day, so the streak goes on.
        let (second, continues) = try Self.given(first, "2026-11-28T10:00:00Z", Self.kiritimati)
        #expect(second.day == "2026-11-29" && continues)
        // Back to UTC or Los Angeles: their dates up to the 29th are behind.
        #expect(Self.next(second, "2026-11-29T05:00:00Z", Self.utc)?.day == "2026-11-30")
        #expect(Self.next(second, "2026-11-29T05:00:00Z", Self.losAngeles)?.day == "2026-11-30")
    }

    @Test func hoppingEveryHourNeverGivesMoreThanOneDayADay() throws {
        // Someone trying every zone every hour for ten days gets no more days than days lived.
        let zones = [Self.utc, Self.losAngeles, Self.kiritimati, LocalDays(identifier: "Etc/GMT+12")]
        var last: LocalDay?
        var given: [LocalDay] = []
        var now = Self.at("2026-11-27T00:00:00Z")
        while now < Self.at("2026-12-07T00:00:00Z") {
            for zone in zones {
                if case .give(let day, _) = OncePerDay.decide(last: last, now: now, in: zone) {
                    given.append(day)
                    last = day
                }
            }
            now += 3600
        }
        #expect(given.count <= 10, "\(given.map(\.day))")
        for (a, b) in zip(given, given.dropFirst()) { #expect(b.start >= a.end && b.day > a.day) }
    }

    @Test func aTravellerOneZoneWestOrEastKeepsTheirStreak() throws {
        let london = LocalDays(identifier: "Europe/London")  // UTC in November
        let azores = LocalDays(identifier: "Atlantic/Azores")  // UTC−1
        let paris = LocalDays(identifier: "Europe/Paris")  // UTC+1
        let (first, _) = try Self.given(nil, "2026-11-27T12:00:00Z", london)
        // West: the 28th in the Azores starts an hour after London's 27th ended.
        let west = try #require(Self.next(first, "2026-11-28T00:30:00Z", azores))
        #expect(west.day == "2026-11-28" && west.start == Self.at("2026-11-28T01:00:00Z"))
        #expect(try Self.given(first, "2026-11-28T01:00:00Z", azores) == (west, true))
        // East: Paris' 28th started an hour before London's 27th ended, so the 29th is next —
        // and since the 28th could not be had, the 29th carries the streak on.
        let east = try #require(Self.next(first, "2026-11-27T23:30:00Z", paris))
        #expect(east.day == "2026-11-29" && east.start == Self.at("2026-11-28T23:00:00Z"))
        let (day, continues) = try Self.given(first, "2026-11-28T23:00:00Z", paris)
        #expect(day == east && continues)
        // Skipping a day that could have been had ends it.
        #expect(try Self.given(day, "2026-11-30T23:00:00Z", paris).1 == false)
    }

    @Test func crossingTheDateLineWestwardGivesNoDateTwice() throws {
        let honolulu = LocalDays(identifier: "Pacific/Honolulu")  // UTC−10, a day behind UTC+14
        let (first, _) = try Self.given(nil, "2026-11-28T09:00:00Z", Self.kiritimati)  // the 28th in UTC+14
        // Honolulu's 28th starts exactly when it ended, but it is the same date: not again.
        #expect(Self.next(first, "2026-11-28T12:00:00Z", honolulu)?.day == "2026-11-29")
        let (day, continues) = try Self.given(first, "2026-11-29T10:00:00Z", honolulu)
        #expect(day.day == "2026-11-29" && continues)
    }

    @Test func daylightSavingDaysAreDaysAndSkippingThemEndsTheStreak() throws {
        let paris = LocalDays(identifier: "Europe/Paris")
        let (saturday, _) = try Self.given(nil, "2026-03-28T12:00:00Z", paris)
        // The 29th has 23 hours in Paris: it follows the 28th and carries the streak on.
        let (sunday, continues) = try Self.given(saturday, "2026-03-29T12:00:00Z", paris)
        #expect(continues && sunday.end.timeIntervalSince(sunday.start) == 23 * 3600)
        // Skip the short day: the 30th does not continue the 28th.
        #expect(try Self.given(saturday, "2026-03-30T12:00:00Z", paris).1 == false)
        // The 25th of October has 25 hours: the next cookie is 24h 30m after 00:30.
        let (long, _) = try Self.given(nil, "2026-10-24T22:30:00Z", paris)
        #expect(Self.next(long, "2026-10-24T22:30:00Z", paris)?.start == Self.at("2026-10-25T23:00:00Z"))
        #expect(OncePerDay.currentStreak(last: long, streak: 4, now: Self.at("2026-10-26T22:59:00Z"), in: paris) == 4)
        #expect(OncePerDay.currentStreak(last: long, streak: 4, now: Self.at("2026-10-26T23:00:00Z"), in: paris) == 0)
    }

    /// Someone who stays in one zone and opens a cookie on every local day gets every one, each
    /// carrying the streak on, through DST changes, a DST gap at midnight (Santiago's 2022-09-11
    /// starts at 01:00: its end was 01:00 the next day, an hour into it, and that day was lost),
    /// half-hour DST (Lord Howe) and +13/+14 zones.
    @Test func aPersonInOneZoneGetsEveryDay() throws {
        let zones = [
            "America/Santiago", "Asia/Tokyo", "America/Los_Angeles", "Europe/Paris", "Australia/Lord_Howe",
            "Pacific/Kiritimati", "Pacific/Apia", "Etc/GMT+12", "UTC",
        ]
        for name in zones {
            let zone = LocalDays(identifier: name)
            var last: LocalDay?
            var day = zone.localDay(containing: Self.at("2022-01-01T12:00:00Z"))
            for i in 0..<800 {
                // A different hour each day, from just after midnight to late evening.
                let now = day.start.addingTimeInterval(Double((i * 5) % 23) * 3600 + 60)
                guard case .give(let given, let continues) = OncePerDay.decide(last: last, now: now, in: zone) else {
                    Issue.record("\(name): \(day.day) was not given at \(now)")
                    break
                }
                #expect(given == day && continues == (last != nil), "\(name) \(day.day)")
                last = given
                day = zone.following(day)
            }
        }
    }

    /// A new user's cookie opened before they set a zone keeps its date (the one they were told)
    /// in the first zone they set (review of issue 33 item 3): kai, in Tokyo, opens the 27th's at
    /// 10:00 there, sets Asia/Tokyo, and the 28th opens at Tokyo's midnight with the streak on
    /// (as a UTC day the 27th overlapped Tokyo's 28th and that day was lost). A later change of
    /// zone is a move.
    @Test func theFirstZoneSetKeepsTheDatesGivenBefore() async throws {
        let clock = TestClock("2026-11-27T01:00:00Z")
        try await withBot(clock: clock.hearth) { bot in
            let kai = try await bot.user("kai")
            #expect(await kai.ask("!fortune").contains("Your fortune for Friday 27 November"))
            #expect(await kai.ask("!set tz Asia/Tokyo").contains("tz is now Asia/Tokyo"))
            let waiting = await kai.ask("!fortune")
            #expect(waiting.contains("You opened today's cookie already"), "\(waiting)")
            #expect(waiting.contains("Next cookie in 14h (midnight Asia/Tokyo)."), "\(waiting)")
            clock.set("2026-11-27T15:00:00Z")
            let opened = await kai.ask("!fortune")
            #expect(opened.contains("Your fortune for Saturday 28 November"), "\(opened)")
            #expect(opened.contains("(2-day streak, +2 bonus)"), "\(opened)")
            // Moving west after today's cookie gives no other today.
            #expect(await kai.ask("!set tz America/Los_Angeles").contains("tz is now America/Los_Angeles"))
            let west = await kai.ask("!fortune")
            #expect(
                west.contains("Next cookie in 41h (midnight America/Los_Angeles, Sunday 29 November)."), "\(west)")
        }
    }

    /// The bot in process with a clock the test moves: the issue's exact commands and answers,
    /// the countdown after a change of zone, and what a cookie's streak says.
    @Test func theBotRefusesZoneHopsAndCountsDownToTheRightDay() async throws {
        let clock = TestClock("2026-11-27T05:00:00Z")
        try await withBot(clock: clock.hearth) { bot in
            let ann = try await bot.user("ann")
            #expect(await ann.ask("!fortune").contains("Your fortune for Friday 27 November"))
            #expect(await ann.ask("!set tz America/Los_Angeles").contains("tz is now America/Los_Angeles"))
            let la = await ann.ask("!fortune")
            #expect(
                la.contains(
                    "Your last cookie was for Friday 27 November, and Thursday 26 November here (America/Los_Angeles)"
                        + " overlaps that day — one cookie per day of your life, whatever your time zone."), "\(la)")
            #expect(la.contains("Next cookie in 27h (midnight America/Los_Angeles, Saturday 28 November)."), "\(la)")
            clock.set("2026-11-27T12:00:00Z")
            _ = await ann.ask("!set tz Pacific/Kiritimati")
            let plus14 = await ann.ask("!fortune")
            #expect(
                plus14.contains("and Saturday 28 November here (Pacific/Kiritimati) overlaps that day"), "\(plus14)")
            #expect(plus14.contains("Next cookie in 22h (midnight Pacific/Kiritimati)."), "\(plus14)")
            #expect(await ann.ask("!fortunes").contains("ann's cookies (1)"))
            clock.set("2026-11-28T10:00:00Z")
            let opened = await ann.ask("!fortune")
            #expect(opened.contains("Your fortune for Sunday 29 November"), "\(opened)")
            #expect(opened.contains("+12 points (2-day streak, +2 bonus)"), "\(opened)")
            #expect(opened.contains("Next cookie in 24h (midnight Pacific/Kiritimati)"), "\(opened)")
            // Same date again in UTC the next morning: today's cookie, and its countdown from here.
            clock.set("2026-11-29T05:00:00Z")
            _ = await ann.ask("!set tz UTC")
            let again = await ann.ask("!fortune")
            #expect(again.contains("You opened today's cookie already"), "\(again)")
            #expect(again.contains("Next cookie in 19h (midnight UTC)."), "\(again)")
            #expect(await ann.ask("!fortune stats").contains("2 opened · streak 2 days (longest 2)"))
        }
    }
}
