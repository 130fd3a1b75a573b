import Foundation
import GRDB

extension SQLiteStore {
    public func fortune(id: Int64) async throws -> Stored<FortuneRecord>? {
        try await pool.read { db in try Stored<FortuneRecord>.fetchOne(db, key: id) }
    }

    /// The sayings seen in the account's current pass through the catalogue, and that pass.
    public func fortuneRound(accountID: Int64) async throws -> (round: Int, seen: Set<String>) {
        try await pool.read { db in
            let round =
                try Int.fetchOne(db, sql: "SELECT MAX(round) FROM fortune WHERE accountId = ?", arguments: [accountID])
                ?? 0
            let seen = try String.fetchAll(
                db, sql: "SELECT sayingKey FROM fortune WHERE accountId = ? AND round = ?",
                arguments: [accountID, round])
            return (round, Set(seen))
        }
    }

    static let latestFortune = "SELECT * FROM fortune WHERE accountId = ? ORDER BY dayEnd DESC, id DESC LIMIT 1"

    public func lastFortune(accountID: Int64) async throws -> Stored<FortuneRecord>? {
        try await pool.read { db in
            try Stored<FortuneRecord>.fetchOne(db, sql: Self.latestFortune, arguments: [accountID])
        }
    }

    /// Saves a cookie and its points if the account's latest cookie is still `after` and none
    /// has its date; otherwise the latest is returned and nothing changes.
    public func openFortune(_ fortune: FortuneRecord, after: Int64?) async throws -> (
        fortune: Stored<FortuneRecord>, isNew: Bool
    ) {
        try await pool.write { db in
            let latest = try Stored<FortuneRecord>.fetchOne(db, sql: Self.latestFortune, arguments: [fortune.accountId])
            if let latest, !FortuneRules.mayOpen(latest: latest.id, after: after) { return (latest, false) }
            if let existing = try Stored<FortuneRecord>.fetchOne(
                db, sql: "SELECT * FROM fortune WHERE accountId = ? AND day = ?",
                arguments: [fortune.accountId, fortune.day])
            {
                return (existing, false)
            }
            let record = try fortune.insertStored(db)
            try db.execute(
                sql: """
                    INSERT INTO pointsEvent (accountId, kind, day, points, createdAt, dayStart, dayEnd)
                    VALUES (?, 'fortune', ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    fortune.accountId, fortune.day, fortune.points, fortune.openedAt, fortune.dayStart, fortune.dayEnd,
                ])
            if let location = fortune.sharedLocation {
                try Self.shareLocation(db, accountID: fortune.accountId, location)
            }
            return (record, true)
        }
    }

    public func fortunes(of accountID: Int64, page: Int, pageSize: Int = StoreLimits.fortunePageSize) async throws -> (
        fortunes: [Stored<FortuneRecord>], total: Int
    ) {
        try await pool.read { db in
            let total =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fortune WHERE accountId = ?", arguments: [accountID])
                ?? 0
            let rows = try Stored<FortuneRecord>.fetchAll(
                db, sql: "SELECT * FROM fortune WHERE accountId = ? ORDER BY day DESC LIMIT ? OFFSET ?",
                arguments: [accountID, pageSize, (page - 1) * pageSize])
            return (rows, total)
        }
    }

    /// All of an account's cookies, oldest first (stats and the map).
    public func allFortunes(of accountID: Int64) async throws -> [Stored<FortuneRecord>] {
        try await pool.read { db in
            try Stored<FortuneRecord>.fetchAll(
                db, sql: "SELECT * FROM fortune WHERE accountId = ? ORDER BY day", arguments: [accountID])
        }
    }

    // MARK: points

    static func lastPointsDay(_ db: Database, accountID: Int64, kind: String) throws -> LocalDay? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT day, dayStart, dayEnd FROM pointsEvent WHERE accountId = ? AND kind = ?
                ORDER BY dayEnd DESC, day DESC LIMIT 1
                """, arguments: [accountID, kind]
        ).map { row in LocalDay(day: row[0], start: row[1], end: row[2]) }
    }

    public func lastPointsDay(accountID: Int64, kind: String) async throws -> LocalDay? {
        try await pool.read { db in try Self.lastPointsDay(db, accountID: accountID, kind: kind) }
    }

    /// Adds `kind` points for `day` if the latest day they were given for is still `after`.
    public func addPoints(
        accountID: Int64, kind: String, day: LocalDay, points: Int, now: Date, after: LocalDay?
    ) async throws -> Bool {
        try await pool.write { db in
            let latest = try Self.lastPointsDay(db, accountID: accountID, kind: kind)
            guard FortuneRules.mayAddPoints(latest: latest, after: after) else { return false }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO pointsEvent (accountId, kind, day, points, createdAt, dayStart, dayEnd)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [accountID, kind, day.day, points, now, day.start, day.end])
            return db.changesCount == 1
        }
    }

    public func setFirstZone(accountID: Int64, zone: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO setting (accountId, key, value) VALUES (?, 'tz', ?)",
                arguments: [accountID, zone])
            guard db.changesCount == 1 else { return false }
            let given = try Row.fetchAll(
                db,
                sql: """
                    SELECT day, openedAt AS at FROM fortune WHERE accountId = ?
                    UNION ALL SELECT day, createdAt FROM pointsEvent WHERE accountId = ?
                    """,
                arguments: [accountID, accountID]
            ).map { (day: $0["day"] as String, at: $0["at"] as Date) }
            for day in LocalDay.placed(given, zone: zone) {
                for table in ["fortune", "pointsEvent"] {
                    try db.execute(
                        sql: "UPDATE \(table) SET dayStart = ?, dayEnd = ? WHERE accountId = ? AND day = ?",
                        arguments: [day.start, day.end, accountID, day.day])
                }
            }
            return true
        }
    }

    public func points(of accountID: Int64) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COALESCE(SUM(points), 0) FROM pointsEvent WHERE accountId = ?", arguments: [accountID])
                ?? 0
        }
    }

    /// The leaderboard: everyone, or only `friendsOf` and their friends (mutual follows).
    public func topPoints(limit: Int, friendsOf: Int64?) async throws -> [(name: String, points: Int)] {
        try await pool.read { db in
            let friendFilter =
                friendsOf == nil
                ? ""
                : """
                 AND (account.id = :me OR (
                   EXISTS (SELECT 1 FROM follow WHERE followerId = :me AND followeeId = account.id)
                   AND EXISTS (SELECT 1 FROM follow WHERE followerId = account.id AND followeeId = :me)))
                """
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT account.name, SUM(points) AS total FROM pointsEvent JOIN account ON account.id =
                      pointsEvent.accountId
                    WHERE 1 = 1 \(friendFilter)
                    GROUP BY account.id ORDER BY total DESC, account.nameKey LIMIT :limit
                    """,
                arguments: ["me": friendsOf, "limit": limit])
            return rows.map { ($0[0], $0[1]) }
        }
    }

    // MARK: locations

    static func shareLocation(_ db: Database, accountID: Int64, _ location: SharedLocation) throws {
        try db.execute(
            sql: """
                INSERT INTO lastLocation (accountId, lat, lon, label, at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(accountId) DO UPDATE SET lat = excluded.lat, lon = excluded.lon, label =
                  excluded.label, at = excluded.at
                """, arguments: [accountID, location.lat, location.lon, location.label, location.at])
    }

    public func shareLocation(accountID: Int64, _ location: SharedLocation) async throws {
        try await pool.write { db in try Self.shareLocation(db, accountID: accountID, location) }
    }

    public func lastLocation(accountID: Int64) async throws -> SharedLocation? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT lat, lon, label, at FROM lastLocation WHERE accountId = ?", arguments: [accountID]
            ).map {
                SharedLocation(lat: $0[0], lon: $0[1], label: $0[2], at: $0[3])
            }
        }
    }
}
