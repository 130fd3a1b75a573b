import Foundation
import PostgresNIO

/// Fortune cookies, points and shared places on PostgreSQL. One cookie per account and day is
/// the unique index's job: a second open that day returns the first.
extension PostgresStore: FortuneStore {
    static let fortuneColumns = "id, accountId, day, sayingKey, round, text, numbers, lat, lon, place, points, openedAt"

    static func fortune(_ row: PostgresRow) throws -> Stored<FortuneRecord> {
        let (id, accountId, day, sayingKey, round, text, numbers, lat, lon, place, points, openedAt) = try row.decode(
            (Int64, Int64, String, String, Int64, String, String, Double?, Double?, String?, Int64, Date).self)
        let record = FortuneRecord(
            accountId: accountId, day: day, sayingKey: sayingKey, round: Int(round), text: text, numbers: numbers,
            lat: lat, lon: lon, place: place, points: Int(points), openedAt: openedAt)
        return Stored(id: id, record)
    }

    public func fortune(accountID: Int64, day: String) async throws -> Stored<FortuneRecord>? {
        try await rows(
            "SELECT \(unescaped: Self.fortuneColumns) FROM fortune WHERE accountId = \(accountID) AND day = \(day)"
        )
        .first.map(Self.fortune)
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

    public func openFortune(_ fortune: FortuneRecord) async throws -> (fortune: Stored<FortuneRecord>, isNew: Bool) {
        try await transaction { db in
            let inserted = try await db.rows(
                """
                INSERT INTO fortune (accountId, day, sayingKey, round, text, numbers, lat, lon, place, points, openedAt)
                VALUES (\(fortune.accountId), \(fortune.day), \(fortune.sayingKey), \(Int64(fortune.round)),
                  \(fortune.text), \(fortune.numbers), \(fortune.lat), \(fortune.lon), \(fortune.place),
                  \(Int64(fortune.points)), \(fortune.openedAt))
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
                INSERT INTO pointsEvent (accountId, kind, day, points, createdAt)
                VALUES (\(fortune.accountId), 'fortune', \(fortune.day), \(Int64(fortune.points)), \(fortune.openedAt))
                ON CONFLICT DO NOTHING
                """, logger: self.logger)
            if let lat = fortune.lat, let lon = fortune.lon {
                try await Self.shareLocation(
                    db, accountID: fortune.accountId,
                    SharedLocation(lat: lat, lon: lon, label: fortune.place, at: fortune.openedAt), self.logger)
            }
            return (try Self.fortune(row), true)
        }
    }

    public func fortuneDays(accountID: Int64) async throws -> [String] {
        try await rows("SELECT day FROM fortune WHERE accountId = \(accountID) ORDER BY day DESC")
            .map { try $0.decode(String.self) }
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

    public func addPoints(accountID: Int64, kind: String, day: String, points: Int, now: Date) async throws -> Bool {
        !(try await rows(
            """
            INSERT INTO pointsEvent (accountId, kind, day, points, createdAt)
            VALUES (\(accountID), \(kind), \(day), \(Int64(points)), \(now))
            ON CONFLICT DO NOTHING RETURNING 1
            """)).isEmpty
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
        try await client.withConnection { db in
            try await Self.shareLocation(db, accountID: accountID, location, self.logger)
        }
    }

    public func lastLocation(accountID: Int64) async throws -> SharedLocation? {
        try await rows("SELECT lat, lon, label, at FROM lastLocation WHERE accountId = \(accountID)").first.map { row in
            let (lat, lon, label, at) = try row.decode((Double, Double, String?, Date).self)
            return SharedLocation(lat: lat, lon: lon, label: label, at: at)
        }
    }
}
