import Foundation

/// One opened fortune cookie: one per account per local day.
public struct FortuneRecord: Codable, Sendable, Equatable {
    public var accountId: Int64
    /// The local date it was opened on, `yyyy-MM-dd` in the account's time zone.
    public var day: String
    /// Which catalogue saying (a hash of its text), and which pass through the catalogue.
    public var sayingKey: String
    public var round: Int
    public var text: String
    /// Six lucky numbers, space-separated.
    public var numbers: String
    public var lat: Double?
    public var lon: Double?
    public var place: String?
    public var points: Int
    public var openedAt: Date

    public init(
        accountId: Int64, day: String, sayingKey: String, round: Int, text: String, numbers: String, lat: Double?,
        lon: Double?,
        place: String?, points: Int, openedAt: Date
    ) {
        (self.accountId, self.day, self.sayingKey, self.round, self.text, self.numbers) = (
            accountId, day, sayingKey, round, text, numbers
        )
        (self.lat, self.lon, self.place, self.points, self.openedAt) = (lat, lon, place, points, openedAt)
    }
}

/// A place someone shared (`!loc`, or where a fortune was opened).
public struct SharedLocation: Sendable, Equatable {
    public var lat: Double
    public var lon: Double
    public var label: String?
    public var at: Date
    public init(lat: Double, lon: Double, label: String?, at: Date) {
        (self.lat, self.lon, self.label, self.at) = (lat, lon, label, at)
    }
}

/// The fortunes part of the store, the same on every engine.
public protocol FortuneStore: Sendable {
    func fortune(accountID: Int64, day: String) async throws -> Stored<FortuneRecord>?

    func fortune(id: Int64) async throws -> Stored<FortuneRecord>?

    /// The sayings seen in the account's current pass through the catalogue, and that pass.
    func fortuneRound(accountID: Int64) async throws -> (round: Int, seen: Set<String>)

    /// Saves today's cookie and its points, unless one was opened for that day meanwhile
    /// (then that one is returned and nothing changes).
    func openFortune(_ fortune: FortuneRecord) async throws -> (fortune: Stored<FortuneRecord>, isNew: Bool)

    /// Every day the account opened a cookie on, newest first (for streaks).
    func fortuneDays(accountID: Int64) async throws -> [String]

    func fortunes(of accountID: Int64, page: Int, pageSize: Int) async throws -> (
        fortunes: [Stored<FortuneRecord>], total: Int
    )

    /// All of an account's cookies, oldest first (stats and the map).
    func allFortunes(of accountID: Int64) async throws -> [Stored<FortuneRecord>]

    /// Adds points once per (kind, day): false when they were given already.
    func addPoints(accountID: Int64, kind: String, day: String, points: Int, now: Date) async throws -> Bool

    func points(of accountID: Int64) async throws -> Int

    /// The leaderboard: everyone, or only `friendsOf` and their friends (mutual follows).
    func topPoints(limit: Int, friendsOf: Int64?) async throws -> [(name: String, points: Int)]

    func shareLocation(accountID: Int64, _ location: SharedLocation) async throws

    func lastLocation(accountID: Int64) async throws -> SharedLocation?
}

extension FortuneStore {
    public func fortunes(of accountID: Int64, page: Int) async throws -> (fortunes: [Stored<FortuneRecord>], total: Int)
    {
        try await fortunes(of: accountID, page: page, pageSize: StoreLimits.fortunePageSize)
    }

    public func addPoints(accountID: Int64, kind: String, day: String, points: Int) async throws -> Bool {
        try await addPoints(accountID: accountID, kind: kind, day: day, points: points, now: Date())
    }
}
