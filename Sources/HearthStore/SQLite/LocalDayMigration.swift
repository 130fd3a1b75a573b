import Foundation
import GRDB

/// SQLite's `v15-local-day-instants`: a day given once (a cookie, a first visit) keeps when it
/// started and ended where the person was, so a change of time zone cannot make the same day
/// twice; a cookie keeps the streak it made. SQLite makes a column NOT NULL only by rebuilding
/// its table (GRDB turns foreign keys off for a migration, so nothing cascades).
enum LocalDayMigration {
    /// An older row's date was its day in the person's zone, and the next day was given on a
    /// later date there: the row gets that date's instants in the zone set now (UTC if none),
    /// so the next local day follows it, as before (`LocalDay.dated`). UTC instants would
    /// overlap the next day of everyone east of UTC and cost them a day.
    static func run(_ db: Database) throws {
        let start = DatabaseFunction("hearthLegacyDayStart", argumentCount: 2, pure: true) { values in
            LocalDay.dated(String.fromDatabaseValue(values[1]) ?? "", zone: String.fromDatabaseValue(values[0])).start
        }
        let end = DatabaseFunction("hearthLegacyDayEnd", argumentCount: 2, pure: true) { values in
            LocalDay.dated(String.fromDatabaseValue(values[1]) ?? "", zone: String.fromDatabaseValue(values[0])).end
        }
        db.add(function: start)
        db.add(function: end)
        defer {
            db.remove(function: start)
            db.remove(function: end)
        }
        let zone = "(SELECT value FROM setting WHERE setting.accountId = t.accountId AND key = 'tz')"
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'fortune'") ?? 0
        // A cookie's streak: its place in its run of consecutive dates.
        try db.execute(
            sql: """
                CREATE TABLE fortune_new (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                  day TEXT NOT NULL, sayingKey TEXT NOT NULL, round INTEGER NOT NULL, text TEXT NOT NULL,
                  numbers TEXT NOT NULL, lat DOUBLE, lon DOUBLE, place TEXT, points INTEGER NOT NULL,
                  openedAt DATETIME NOT NULL, dayStart DATETIME NOT NULL, dayEnd DATETIME NOT NULL,
                  streak INTEGER NOT NULL DEFAULT 1);
                INSERT INTO fortune_new (id, accountId, day, sayingKey, round, text, numbers, lat, lon, place, points,
                  openedAt, dayStart, dayEnd, streak)
                SELECT id, accountId, day, sayingKey, round, text, numbers, lat, lon, place, points, openedAt,
                  hearthLegacyDayStart(zone, day), hearthLegacyDayEnd(zone, day),
                  ROW_NUMBER() OVER (PARTITION BY accountId, island ORDER BY day)
                FROM (SELECT t.*, \(zone) AS zone,
                        julianday(day) - ROW_NUMBER() OVER (PARTITION BY accountId ORDER BY day) AS island
                      FROM fortune AS t);
                DROP TABLE fortune;
                ALTER TABLE fortune_new RENAME TO fortune;
                CREATE UNIQUE INDEX fortune_account_day ON fortune(accountId, day);
                CREATE INDEX fortune_account_end ON fortune(accountId, dayEnd);
                CREATE TABLE pointsEvent_new (
                  accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                  kind TEXT NOT NULL, day TEXT NOT NULL, points INTEGER NOT NULL, createdAt DATETIME NOT NULL,
                  dayStart DATETIME NOT NULL, dayEnd DATETIME NOT NULL,
                  PRIMARY KEY (accountId, kind, day));
                INSERT INTO pointsEvent_new (accountId, kind, day, points, createdAt, dayStart, dayEnd)
                SELECT accountId, kind, day, points, createdAt, hearthLegacyDayStart(zone, day),
                  hearthLegacyDayEnd(zone, day)
                FROM (SELECT t.*, \(zone) AS zone FROM pointsEvent AS t);
                DROP TABLE pointsEvent;
                ALTER TABLE pointsEvent_new RENAME TO pointsEvent;
                """)
        // Cookie numbers are never given out again.
        try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name IN ('fortune', 'fortune_new')")
        try db.execute(
            sql: """
                INSERT INTO sqlite_sequence (name, seq)
                VALUES ('fortune', MAX(?, (SELECT COALESCE(MAX(id), 0) FROM fortune)))
                """, arguments: [sequence])
    }
}
