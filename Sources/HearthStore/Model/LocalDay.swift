import Foundation

/// A day of someone's life: its date where they were (`yyyy-MM-dd`) and the instants it starts
/// and ends there. Kept with what is given once a day, so that changing time zone cannot
/// make a day twice (see the fortunes app's `OncePerDay`).
public struct LocalDay: Sendable, Equatable, Hashable {
    public var day: String
    public var start: Date
    public var end: Date
    public init(day: String, start: Date, end: Date) { (self.day, self.start, self.end) = (day, start, end) }

    /// The day of `calendar`'s time zone that `instant` falls in: from its first moment
    /// (midnight, or just after a DST gap) to the next day's. (A day added to a start of 01:00
    /// after a gap at midnight is 01:00 the next day, an hour into it: the next day's first
    /// moment is found from its noon.)
    public init(containing instant: Date, calendar: Calendar) {
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        let start = calendar.startOfDay(for: instant)
        let nextNoon = calendar.date(byAdding: .day, value: 1, to: start.addingTimeInterval(12 * 3600))!
        self.init(
            day: String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!), start: start,
            end: calendar.startOfDay(for: nextNoon))
    }

    /// The day dated `day` (`yyyy-MM-dd`) in `calendar`'s time zone; nil when that zone has
    /// no such date (not a date, or one skipped crossing the date line).
    public init?(date day: String, calendar: Calendar) {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3,
            let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
        else { return nil }
        self.init(containing: noon, calendar: calendar)
        guard self.day == day else { return nil }
    }

    /// The day dated `day` in the zone named `zone` (UTC when nil, unknown, or without that
    /// date): how a day given before its zone was known is placed once it is (an upgrade, the
    /// first zone someone sets). The date told stays; it gets that zone's instants.
    public static func dated(_ day: String, zone: String?) -> LocalDay {
        zone.flatMap(TimeZone.init(identifier:)).flatMap { LocalDay(date: day, calendar: calendar($0)) } ?? .utc(day)
    }

    /// `dated(day, zone:)` stretched to cover the moments something was given on it: a cookie
    /// opened at 12:00 UTC on a UTC day placed in UTC+14 (which ends at 10:00 UTC) would
    /// otherwise let the next local day, starting before that cookie was opened, give another.
    public static func placed(_ day: String, zone: String?, covering moments: [Date]) -> LocalDay {
        var placed = dated(day, zone: zone)
        if let first = moments.min(), first < placed.start { placed.start = first }
        if let last = moments.max(), last >= placed.end { placed.end = last.addingTimeInterval(1) }
        return placed
    }

    /// Each date something was given on (`given`: its date and moment), `placed` in `zone`:
    /// what the first zone someone sets does to the days they were given things on.
    public static func placed(_ given: [(day: String, at: Date)], zone: String?) -> [LocalDay] {
        Dictionary(grouping: given, by: \.day).map { placed($0.key, zone: zone, covering: $0.value.map(\.at)) }
    }

    /// A Gregorian calendar in `zone`, for the initialisers above.
    public static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// `day` as a UTC day: how a record made without a zone is read.
    public static func utc(_ day: String) -> LocalDay {
        let start = ISO8601DateFormatter().date(from: day + "T00:00:00Z") ?? Date(timeIntervalSince1970: 0)
        return LocalDay(day: day, start: start, end: start.addingTimeInterval(86_400))
    }
}
