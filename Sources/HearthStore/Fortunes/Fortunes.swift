import Foundation

/// One opened fortune cookie: one per account per day of their life.
public struct FortuneRecord: Codable, Sendable, Equatable {
    public var accountId: Int64
    /// The local date it was opened on, `yyyy-MM-dd` in the account's time zone.
    public var day: String
    /// When that local day started and ended (its zone's midnights).
    public var dayStart: Date
    public var dayEnd: Date
    /// The streak this cookie made (1: none), decided when it was opened.
    public var streak: Int
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

    /// `localDay` nil: `day` as a UTC day.
    public init(
        accountId: Int64, day: String, sayingKey: String, round: Int, text: String, numbers: String, lat: Double?,
        lon: Double?,
        place: String?, points: Int, openedAt: Date, localDay: LocalDay? = nil, streak: Int = 1
    ) {
        let span = localDay ?? .utc(day)
        (self.accountId, self.day, self.dayStart, self.dayEnd) = (accountId, day, span.start, span.end)
        (self.sayingKey, self.round, self.text, self.numbers) = (sayingKey, round, text, numbers)
        (self.lat, self.lon, self.place, self.points, self.openedAt) = (lat, lon, place, points, openedAt)
        self.streak = streak
    }

    public var localDay: LocalDay { LocalDay(day: day, start: dayStart, end: dayEnd) }
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
    func fortune(id: Int64) async throws -> Stored<FortuneRecord>?

    /// The sayings seen in the account's current pass through the catalogue, and that pass.
    func fortuneRound(accountID: Int64) async throws -> (round: Int, seen: Set<String>)

    /// The account's latest cookie (the one whose day ends last).
    func lastFortune(accountID: Int64) async throws -> Stored<FortuneRecord>?

    /// Saves a cookie and its points if the account's latest cookie is still `after` (the one
    /// the caller decided from; nil: none) and none has its date; otherwise the latest is
    /// returned and nothing changes.
    func openFortune(_ fortune: FortuneRecord, after: Int64?) async throws -> (
        fortune: Stored<FortuneRecord>, isNew: Bool
    )

    func fortunes(of accountID: Int64, page: Int, pageSize: Int) async throws -> (
        fortunes: [Stored<FortuneRecord>], total: Int
    )

    /// All of an account's cookies, oldest first (stats and the map).
    func allFortunes(of accountID: Int64) async throws -> [Stored<FortuneRecord>]

    /// The latest day `kind` points were given for (nil: never).
    func lastPointsDay(accountID: Int64, kind: String) async throws -> LocalDay?

    /// Adds `kind` points for `day` if the latest day they were given for is still `after`
    /// (what the caller decided from) and not `day`: false when they were given meanwhile.
    func addPoints(accountID: Int64, kind: String, day: LocalDay, points: Int, now: Date, after: LocalDay?)
        async throws -> Bool

    func points(of accountID: Int64) async throws -> Int

    /// Sets the account's time zone (`tz`) if it has none yet, and gives the days it was given
    /// without one (UTC days) their dates' instants there (`LocalDay.dated`), in one
    /// transaction: the date someone was told stays theirs, in the zone they turn out to live
    /// in. False, and nothing changed, when it had a zone.
    func setFirstZone(accountID: Int64, zone: String) async throws -> Bool

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
}
