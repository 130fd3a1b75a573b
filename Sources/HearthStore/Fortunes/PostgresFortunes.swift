import Foundation
import PostgresNIO

/// Fortune cookies, points and shared places on PostgreSQL. One cookie per account and date is
/// the unique index's job; which day may follow which is the app's rule (`OncePerDay`), kept by
/// opening only after the cookie the rule was decided from.
extension PostgresStore: FortuneStore {
    static let fortuneColumns =
        "id, accountId, day, sayingKey, round, text, numbers, lat, lon, place, points, openedAt, dayStart, dayEnd,"
        + " streak"

    static func fortune(_ row: PostgresRow) throws -> Stored<FortuneRecord> {
        let (id, accountId, day, sayingKey, round, text, numbers, lat, lon, place, points, openedAt, start, end) =
            try row.decode(
                (
                    Int64, Int64, String, String, Int64, String, String, Double?, Double?, String?, Int64, Date, Date,
                    Date
                ).self)
        let streak = try row.makeRandomAccess()[14].decode(Int64.self)
        let record = FortuneRecord(
            accountId: accountId, day: day, sayingKey: sayingKey, round: Int(round), text: text, numbers: numbers,
            lat: lat, lon: lon, place: place, points: Int(points), openedAt: openedAt,
            localDay: LocalDay(day: day, start: start, end: end), streak: Int(streak))
        return Stored(id: id, record)
    }

    static func latestFortune(_ accountID: Int64) -> PostgresQuery {
        """
        SELECT \(unescaped: fortuneColumns) FROM fortune WHERE accountId = \(accountID)
        ORDER BY dayEnd DESC, id DESC LIMIT 1
        """
    }

    public func lastFortune(accountID: Int64) async throws -> Stored<FortuneRecord>? {
        try await rows(Self.latestFortune(accountID)).first.map(Self.fortune)
    }

    public func fortune(id: Int64) async throws -> Stored<FortuneRecord>? {
        try await rows("SELECT \(unescaped: Self.fortuneColumns) FROM fortune WHERE id = \(id)").first.map(Self.fortune)
    }

    public func fortuneRound(accountID: Int64) async throws -> (round: Int, seen: Set<String>) {
        let round = try await rows("SELECT COALESCE(MAX(round), 0) FROM fortune WHERE accountId = \(accountID)")[0]
            .decode(Int64.self)
        let seen = try await rows(
            "SELECT sayingKey FROM fortune WHERE accountId = \(accountID) AND round = \(round)"
        ).map { try $0.decode(String.self) }
        return (Int(round), Set(seen))
    }

    /// The account's row is locked first, so two opens for one account take turns and the
    /// second sees the first's cookie as the latest.
    public func openFortune(_ fortune: FortuneRecord, after: Int64?) async throws -> (
        fortune: Stored<FortuneRecord>, isNew: Bool
    ) {
        try await transaction { db in
            try await db.query("SELECT 1 FROM account WHERE id = \(fortune.accountId) FOR UPDATE", logger: self.logger)
            if let row = try await db.rows(Self.latestFortune(fortune.accountId), self.logger).first {
                let latest = try Self.fortune(row)
                if !FortuneRules.mayOpen(latest: latest.id, after: after) { return (latest, false) }
            }
            let inserted = try await db.rows(
                """
                INSERT INTO fortune (accountId, day, sayingKey, round, text, numbers, lat, lon, place, points, openedAt,
                  dayStart, dayEnd, streak)
                VALUES (\(fortune.accountId), \(fortune.day), \(fortune.sayingKey), \(Int64(fortune.round)),
                  \(fortune.text), \(fortune.numbers), \(fortune.lat), \(fortune.lon), \(fortune.place),
                  \(Int64(fortune.points)), \(fortune.openedAt), \(fortune.dayStart), \(fortune.dayEnd),
                  \(Int64(fortune.streak)))
                ON CONFLICT (accountId, day) DO NOTHING
                RETURNING \(unescaped: Self.fortuneColumns)
                """, self.logger)
            guard let row = inserted.first else {
                let existing = try await db.rows(
                    """
                    SELECT \(unescaped: Self.fortuneColumns) FROM fortune
                    WHERE accountId = \(fortune.accountId) AND day = \(fortune.day)
                    """, self.logger)[0]
                return (try Self.fortune(existing), false)
            }
            try await db.query(
                """
                INSERT INTO pointsEvent (accountId, kind, day, points, createdAt, dayStart, dayEnd)
                VALUES (\(fortune.accountId), 'fortune', \(fortune.day), \(Int64(fortune.points)), \(fortune.openedAt),
                  \(fortune.dayStart), \(fortune.dayEnd))
                ON CONFLICT DO NOTHING
                """, logger: self.logger)
            if let location = fortune.sharedLocation {
                try await Self.shareLocation(db, accountID: fortune.accountId, location, self.logger)
            }
            return (try Self.fortune(row), true)
        }
    }

    public func fortunes(of accountID: Int64, page: Int, pageSize: Int) async throws -> (
        fortunes: [Stored<FortuneRecord>], total: Int
    ) {
        let total = try await rows("SELECT COUNT(*) FROM fortune WHERE accountId = \(accountID)")[0].decode(Int64.self)
        let found = try await rows(
            """
            SELECT \(unescaped: Self.fortuneColumns) FROM fortune WHERE accountId = \(accountID) ORDER BY day DESC
            LIMIT \(Int64(pageSize)) OFFSET \(Int64((page - 1) * pageSize))
            """
        ).map(Self.fortune)
        return (found, Int(total))
    }

    public func allFortunes(of accountID: Int64) async throws -> [Stored<FortuneRecord>] {
        try await rows(
            "SELECT \(unescaped: Self.fortuneColumns) FROM fortune WHERE accountId = \(accountID) ORDER BY day"
        )
        .map(Self.fortune)
    }

    static func lastPointsDay(_ accountID: Int64, _ kind: String) -> PostgresQuery {
        """
        SELECT day, dayStart, dayEnd FROM pointsEvent WHERE accountId = \(accountID) AND kind = \(kind)
        ORDER BY dayEnd DESC, day DESC LIMIT 1
        """
    }

    static func localDay(_ row: PostgresRow) throws -> LocalDay {
        let (day, start, end) = try row.decode((String, Date, Date).self)
        return LocalDay(day: day, start: start, end: end)
    }

    public func lastPointsDay(accountID: Int64, kind: String) async throws -> LocalDay? {
        try await rows(Self.lastPointsDay(accountID, kind)).first.map(Self.localDay)
    }

    /// Adds `kind` points for `day` if the latest day they were given for is still `after`; the
    /// account's row is locked so two first visits take turns.
    public func addPoints(
        accountID: Int64, kind: String, day: LocalDay, points: Int, now: Date, after: LocalDay?
    ) async throws -> Bool {
        try await transaction { db in
            try await db.query("SELECT 1 FROM account WHERE id = \(accountID) FOR UPDATE", logger: self.logger)
            let latest = try await db.rows(Self.lastPointsDay(accountID, kind), self.logger).first.map(Self.localDay)
            guard FortuneRules.mayAddPoints(latest: latest, after: after) else { return false }
            return
                !(try await db.rows(
                    """
                    INSERT INTO pointsEvent (accountId, kind, day, points, createdAt, dayStart, dayEnd)
                    VALUES (\(accountID), \(kind), \(day.day), \(Int64(points)), \(now), \(day.start), \(day.end))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, self.logger)).isEmpty
        }
    }

    /// The account's row is locked first, as when a cookie is opened.
    public func setFirstZone(accountID: Int64, zone: String) async throws -> Bool {
        try await transaction { db in
            try await db.query("SELECT 1 FROM account WHERE id = \(accountID) FOR UPDATE", logger: self.logger)
            let first = try await db.rows(
                """
                INSERT INTO setting (accountId, key, value) VALUES (\(accountID), 'tz', \(zone))
                ON CONFLICT DO NOTHING RETURNING 1
                """, self.logger)
            guard !first.isEmpty else { return false }
            let given = try await db.rows(
                """
                SELECT day, openedAt FROM fortune WHERE accountId = \(accountID)
                UNION ALL SELECT day, createdAt FROM pointsEvent WHERE accountId = \(accountID)
                """, self.logger
            ).map { row in try row.decode((String, Date).self) }.map { (day: $0.0, at: $0.1) }
            for day in LocalDay.placed(given, zone: zone) {
                try await db.query(
                    """
                    UPDATE fortune SET dayStart = \(day.start), dayEnd = \(day.end)
                    WHERE accountId = \(accountID) AND day = \(day.day)
                    """, logger: self.logger)
                try await db.query(
                    """
                    UPDATE pointsEvent SET dayStart = \(day.start), dayEnd = \(day.end)
                    WHERE accountId = \(accountID) AND day = \(day.day)
                    """, logger: self.logger)
            }
            return true
        }
    }

    public func points(of accountID: Int64) async throws -> Int {
        Int(
            try await rows("SELECT COALESCE(SUM(points), 0)::BIGINT FROM pointsEvent WHERE accountId = \(accountID)")[0]
                .decode(Int64.self))
    }

    public func topPoints(limit: Int, friendsOf: Int64?) async throws -> [(name: String, points: Int)] {
        let everyone = friendsOf == nil
        let me = friendsOf ?? -1
        return try await rows(
            """
            SELECT account.name, SUM(points)::BIGINT AS total FROM pointsEvent
            JOIN account ON account.id = pointsEvent.accountId
            WHERE \(everyone) OR account.id = \(me) OR (
              EXISTS (SELECT 1 FROM follow WHERE followerId = \(me) AND followeeId = account.id)
              AND EXISTS (SELECT 1 FROM follow WHERE followerId = account.id AND followeeId = \(me)))
            GROUP BY account.id ORDER BY total DESC, account.nameKey COLLATE "C" LIMIT \(Int64(limit))
            """
        ).map { row in
            let (name, total) = try row.decode((String, Int64).self)
            return (name, Int(total))
        }
    }

    static func shareLocation(
        _ db: PostgresConnection, accountID: Int64, _ location: SharedLocation, _ logger: Logger
    ) async throws {
        try await db.query(
            """
            INSERT INTO lastLocation (accountId, lat, lon, label, at)
            VALUES (\(accountID), \(location.lat), \(location.lon), \(location.label), \(location.at))
            ON CONFLICT (accountId) DO UPDATE
              SET lat = excluded.lat, lon = excluded.lon, label = excluded.label, at = excluded.at
            """, logger: logger)
    }

    public func shareLocation(accountID: Int64, _ location: SharedLocation) async throws {
        let logger = self.logger
        try await connection { db in try await Self.shareLocation(db, accountID: accountID, location, logger) }
    }

    public func lastLocation(accountID: Int64) async throws -> SharedLocation? {
        try await rows("SELECT lat, lon, label, at FROM lastLocation WHERE accountId = \(accountID)").first.map { row in
            let (lat, lon, label, at) = try row.decode((Double, Double, String?, Date).self)
            return SharedLocation(lat: lat, lon: lon, label: label, at: at)
        }
    }
}
