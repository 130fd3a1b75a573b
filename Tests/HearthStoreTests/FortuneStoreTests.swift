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

    /// Rows kept before days had instants read as UTC days, and each cookie gets the streak of
    /// its run of consecutive dates.
    @Test func olderRowsBecomeUTCDaysWithTheirStreaksOnSQLite() throws {
        let queue = try DatabaseQueue()
        let migrator = Migrations.migrator
        let ids = migrator.migrations
        let mine = try #require(ids.firstIndex(of: "v15-local-day-instants"))
        try migrator.migrate(queue, upTo: ids[mine - 1])
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO account (id, name, nameKey, passwordHash, createdAt) VALUES (1, 'a', 'a', 'h', ?)",
                arguments: [Date()])
            for day in Self.legacyDays {
                try db.execute(
                    sql: """
                        INSERT INTO fortune (accountId, day, sayingKey, round, text, numbers, points, openedAt)
                        VALUES (1, ?, ?, 1, 't', '1 2 3 4 5 6', 10, ?)
                        """, arguments: [day, "k" + day, Date()])
                try db.execute(
                    sql: """
                        INSERT INTO pointsEvent (accountId, kind, day, points, createdAt)
                        VALUES (1, 'login', ?, 2, ?)
                        """,
                    arguments: [day, Date()])
            }
        }
        try migrator.migrate(queue)
        try queue.read { db in
            let rows = try Stored<FortuneRecord>.fetchAll(db, sql: "SELECT * FROM fortune ORDER BY day")
            #expect(rows.map(\.localDay) == Self.legacyDays.map(LocalDay.utc))
            #expect(rows.map(\.streak) == Self.legacyStreaks)
            let last = try SQLiteStore.lastPointsDay(db, accountID: 1, kind: "login")
            #expect(last == .utc(Self.legacyDays.last!))
        }
    }

    @Test func olderRowsBecomeUTCDaysWithTheirStreaksOnPostgres() async throws {
        let url = try await TestPostgres.freshDatabase("legacy")
        let logger = Logger(label: "legacy-test")
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: .disable),
            id: 1, logger: logger)
        func run(_ sql: String) async throws {
            for statement in PostgresMigrations.statements(sql) {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
        let mine = try #require(PostgresMigrations.all.firstIndex { $0.0 == "v12-local-day-instants" })
        try await run("CREATE TABLE hearth_migrations (identifier TEXT PRIMARY KEY, appliedAt TIMESTAMPTZ NOT NULL)")
        for (identifier, sql) in PostgresMigrations.all[...mine] {
            try await run("INSERT INTO hearth_migrations VALUES ('\(identifier)', now())")
            if identifier != PostgresMigrations.all[mine].0 { try await run(sql) }
        }
        try await run(
            "INSERT INTO account (id, name, nameKey, passwordHash, createdAt) VALUES (1, 'a', 'a', 'h', now())")
        for day in Self.legacyDays {
            try await run(
                """
                INSERT INTO fortune (accountId, day, sayingKey, round, text, numbers, points, openedAt)
                VALUES (1, '\(day)', 'k\(day)', 1, 't', '1 2 3 4 5 6', 10, now());
                INSERT INTO pointsEvent (accountId, kind, day, points, createdAt)
                VALUES (1, 'login', '\(day)', 2, now())
                """)
        }
        try await run(PostgresMigrations.all[mine].1)
        try await connection.close()
        let store = try await PostgresStore.open(url)
        do {
            let rows = try await store.allFortunes(of: 1)
            #expect(rows.map(\.localDay) == Self.legacyDays.map(LocalDay.utc))
            #expect(rows.map(\.streak) == Self.legacyStreaks)
            #expect(try await store.lastPointsDay(accountID: 1, kind: "login") == .utc(Self.legacyDays.last!))
            await store.close()
        } catch {
            await store.close()
            throw error
        }
    }

    static let legacyDays = ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-03", "2026-03-04"]
    static let legacyStreaks = [1, 2, 3, 1, 2]
}
