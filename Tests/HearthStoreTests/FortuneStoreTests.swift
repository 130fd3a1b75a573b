import Foundation
import GRDB
import HearthTesting
import Logging
import PostgresNIO
import Testing

@testable import HearthStore

/// Days given once (cookies, first visits) keep their instants, and are saved only after the
/// day the app decided from (issue 33, item 3), on both engines.
@Suite struct FortuneStoreTests {
    static func at(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }

    static func cookie(_ accountID: Int64, _ day: LocalDay, streak: Int = 1) -> FortuneRecord {
        FortuneRecord(
            accountId: accountID, day: day.day, sayingKey: "k-\(day.day)", round: 1, text: "t", numbers: "1 2 3 4 5 6",
            lat: nil, lon: nil, place: nil, points: 10, openedAt: day.start, localDay: day, streak: streak)
    }

    @Test(arguments: Engine.allCases)
    func cookiesOpenOnlyAfterTheOneDecidedFrom(engine: Engine) async throws {
        try await engine.withStore { store in
            let me = try await AccountStoreTests.make(store, "hop")
            #expect(try await store.lastFortune(accountID: me.id) == nil)
            let utc27 = LocalDay(
                day: "2026-11-27", start: Self.at("2026-11-27T00:00:00Z"), end: Self.at("2026-11-28T00:00:00Z"))
            let (first, isNew) = try await store.openFortune(Self.cookie(me.id, utc27), after: nil)
            #expect(isNew && first.localDay == utc27 && first.streak == 1)
            // Decided from "no cookie yet", but one was opened meanwhile: nothing changes.
            let plus14 = LocalDay(
                day: "2026-11-29", start: Self.at("2026-11-28T10:00:00Z"), end: Self.at("2026-11-29T10:00:00Z"))
            let (stale, staleIsNew) = try await store.openFortune(Self.cookie(me.id, plus14, streak: 2), after: nil)
            #expect(!staleIsNew && stale.id == first.id)
            let (second, secondIsNew) = try await store.openFortune(
                Self.cookie(me.id, plus14, streak: 2), after: first.id)
            #expect(secondIsNew && second.streak == 2 && second.localDay == plus14)
            #expect(try await store.lastFortune(accountID: me.id)?.id == second.id)
            #expect(try await store.points(of: me.id) == 20)

            // First visits: the same, by the day decided from.
            #expect(try await store.lastPointsDay(accountID: me.id, kind: "login") == nil)
            #expect(
                try await store.addPoints(
                    accountID: me.id, kind: "login", day: utc27, points: 2, now: utc27.start, after: nil))
            #expect(
                !(try await store.addPoints(
                    accountID: me.id, kind: "login", day: plus14, points: 2, now: plus14.start, after: nil)))
            #expect(try await store.lastPointsDay(accountID: me.id, kind: "login") == utc27)
            #expect(
                try await store.addPoints(
                    accountID: me.id, kind: "login", day: plus14, points: 2, now: plus14.start, after: utc27))
            #expect(try await store.lastPointsDay(accountID: me.id, kind: "login") == plus14)
            #expect(try await store.points(of: me.id) == 24)
        }
    }

    /// The first zone an account sets gives the days it was given without one (UTC days) their
    /// dates' instants there; a later zone changes no day.
    @Test(arguments: Engine.allCases)
    func theFirstZoneSetPlacesTheDaysGivenBefore(engine: Engine) async throws {
        try await engine.withStore { store in
            let me = try await AccountStoreTests.make(store, "kai")
            let utc27 = LocalDay.utc("2026-11-27")
            _ = try await store.openFortune(Self.cookie(me.id, utc27), after: nil)
            #expect(
                try await store.addPoints(
                    accountID: me.id, kind: "login", day: utc27, points: 2, now: utc27.start, after: nil))
            let tokyo27 = LocalDay(
                day: "2026-11-27", start: Self.at("2026-11-26T15:00:00Z"), end: Self.at("2026-11-27T15:00:00Z"))
            #expect(try await store.setFirstZone(accountID: me.id, zone: "Asia/Tokyo"))
            #expect(try await store.settings(me.id)["tz"] == "Asia/Tokyo")
            #expect(try await store.lastFortune(accountID: me.id)?.localDay == tokyo27)
            #expect(try await store.lastPointsDay(accountID: me.id, kind: "login") == tokyo27)
            #expect(!(try await store.setFirstZone(accountID: me.id, zone: "America/Los_Angeles")))
            #expect(try await store.settings(me.id)["tz"] == "Asia/Tokyo")
            #expect(try await store.lastFortune(accountID: me.id)?.localDay == tokyo27)
            #expect(try await store.lastPointsDay(accountID: me.id, kind: "login") == tokyo27)
            #expect(try await store.points(of: me.id) == 12)
        }
    }

    /// A day placed in the first zone still covers the moment its cookie was opened: opened at
    /// 12:00 UTC, placed in UTC+14 (the 27th there ends at 10:00 UTC), the day ends just after
    /// 12:00 UTC, so the 28th there (starting at 10:00 UTC) cannot give a second cookie at once.
    /// Placed in UTC-12 (the 27th there starts at 12:00 UTC), a cookie opened at 00:30 UTC
    /// moves the start back to it.
    @Test(arguments: Engine.allCases)
    func theFirstZoneSetKeepsTheMomentsTheDaysWereGiven(engine: Engine) async throws {
        try await engine.withStore { store in
            let east = try await AccountStoreTests.make(store, "kiri")
            var noon = Self.cookie(east.id, LocalDay.utc("2026-11-27"))
            noon.openedAt = Self.at("2026-11-27T12:00:00Z")
            _ = try await store.openFortune(noon, after: nil)
            #expect(try await store.setFirstZone(accountID: east.id, zone: "Pacific/Kiritimati"))
            let placed = try #require(try await store.lastFortune(accountID: east.id)?.localDay)
            #expect(placed.start == Self.at("2026-11-26T10:00:00Z"))
            #expect(placed.end == Self.at("2026-11-27T12:00:01Z"))
            let next = LocalDay.dated("2026-11-28", zone: "Pacific/Kiritimati")
            #expect(next.start < placed.end, "the 28th there overlaps the cookie's moment")

            let west = try await AccountStoreTests.make(store, "baker")
            var early = Self.cookie(west.id, LocalDay.utc("2026-11-27"))
            early.openedAt = Self.at("2026-11-27T00:30:00Z")
            _ = try await store.openFortune(early, after: nil)
            #expect(try await store.setFirstZone(accountID: west.id, zone: "Etc/GMT+12"))
            let moved = try #require(try await store.lastFortune(accountID: west.id)?.localDay)
            #expect(moved.start == Self.at("2026-11-27T00:30:00Z"))
            #expect(moved.end == Self.at("2026-11-28T12:00:00Z"))
        }
    }

    /// Rows kept before days had instants (an upgrade): each gets its date's instants in the zone
    /// its account has set (UTC if none), so nobody loses a day on the upgrade: kai, at UTC+9,
    /// opens the next Tokyo day's cookie and first-visit bonus at Tokyo's midnight (with UTC
    /// instants the last day would end 9 h later and overlap it). Cookies get their runs' streaks.
    @Test(arguments: Engine.allCases)
    func olderRowsGetTheirDaysInTheAccountsZone(engine: Engine) async throws {
        try await Self.withLegacyRows(engine) { store in
            let tokyo = { (day: String, start: String, end: String) in
                LocalDay(day: day, start: Self.at(start), end: Self.at(end))
            }
            let last = tokyo("2026-03-04", "2026-03-03T15:00:00Z", "2026-03-04T15:00:00Z")
            let rows = try await store.allFortunes(of: 1)
            #expect(rows.map(\.day) == Self.legacyDays)
            #expect(rows.first?.localDay == tokyo("2026-02-27", "2026-02-26T15:00:00Z", "2026-02-27T15:00:00Z"))
            #expect(rows.last?.localDay == last)
            #expect(rows.map(\.streak) == Self.legacyStreaks)
            #expect(try await store.lastPointsDay(accountID: 1, kind: "login") == last)
            // Tokyo's next day starts as the last one ends: its cookie and first visit are given.
            let next = tokyo("2026-03-05", "2026-03-04T15:00:00Z", "2026-03-05T15:00:00Z")
            #expect(next.day > last.day && next.start >= last.end)
            let lastCookie = try #require(try await store.lastFortune(accountID: 1))
            let (opened, isNew) = try await store.openFortune(
                Self.cookie(1, next, streak: lastCookie.streak + 1), after: lastCookie.id)
            #expect(isNew && opened.localDay == next && opened.streak == 3)
            #expect(
                try await store.addPoints(
                    accountID: 1, kind: "login", day: next, points: 2, now: next.start, after: last))
            // No zone set: UTC days. A zone with a DST gap at midnight: its day starts after the gap,
            // as Foundation and PostgreSQL both say.
            #expect(try await store.lastFortune(accountID: 2)?.localDay == .utc("2026-03-04"))
            #expect(
                try await store.lastPointsDay(accountID: 3, kind: "login")
                    == LocalDay(
                        day: "2022-09-11", start: Self.at("2022-09-11T04:00:00Z"),
                        end: Self.at("2022-09-12T03:00:00Z")))
        }
    }

    /// A store of `engine` migrated from rows kept before v15 (SQLite) / v12 (PostgreSQL): kai
    /// (Asia/Tokyo) and uma (no zone) with `legacyDays` of cookies and first visits, and sol
    /// (America/Santiago) with a first visit on the day Chile's clocks skipped midnight.
    static func withLegacyRows(_ engine: Engine, _ body: (any Store) async throws -> Void) async throws {
        var rows = [
            "INSERT INTO account (id, name, nameKey, passwordHash, createdAt) VALUES"
                + " (1, 'kai', 'kai', 'h', '2022-01-01 00:00:00Z'), (2, 'uma', 'uma', 'h', '2022-01-01 00:00:00Z'),"
                + " (3, 'sol', 'sol', 'h', '2022-01-01 00:00:00Z')",
            "INSERT INTO setting (accountId, key, value) VALUES (1, 'tz', 'Asia/Tokyo'), (3, 'tz', 'America/Santiago')",
            "INSERT INTO pointsEvent (accountId, kind, day, points, createdAt)"
                + " VALUES (3, 'login', '2022-09-11', 2, '2022-09-11 12:00:00Z')",
        ]
        for account in [1, 2] {
            for day in legacyDays {
                rows.append(
                    "INSERT INTO fortune (accountId, day, sayingKey, round, text, numbers, points, openedAt)"
                        + " VALUES (\(account), '\(day)', 'k\(day)', 1, 't', '1 2 3 4 5 6', 10, '\(day) 01:00:00Z')")
                for kind in ["fortune", "login"] {
                    rows.append(
                        "INSERT INTO pointsEvent (accountId, kind, day, points, createdAt)"
                            + " VALUES (\(account), '\(kind)', '\(day)', 2, '\(day) 01:00:00Z')")
                }
            }
        }
        try await MigratedStore.with(
            engine, before: "v15-local-day-instants", "v12-local-day-instants", rows: rows, body)
    }

    static let legacyDays = ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-03", "2026-03-04"]
    static let legacyStreaks = [1, 2, 3, 1, 2]
}
