import Foundation
import HearthKit
import HearthStore

/// Calendar days in a user's time zone: which day it is, when the next one starts, and
/// streaks of consecutive days.
public struct LocalDays: Sendable {
    public let timeZone: TimeZone
    /// The zone as the user set it ("UTC", "Europe/Paris").
    public let name: String
    private let calendar: Calendar

    public init(timeZone: TimeZone, name: String? = nil) {
        self.timeZone = timeZone
        self.name = name ?? timeZone.identifier
        self.calendar = LocalDay.calendar(timeZone)
    }

    public init(identifier: String) {
        if let zone = TimeZone(identifier: identifier) {
            self.init(timeZone: zone, name: identifier)
        } else {
            self.init(timeZone: TimeZone(identifier: "UTC")!, name: "UTC")
        }
    }

    /// The local date of `date`, as `yyyy-MM-dd`.
    public func day(_ date: Date) -> String { localDay(containing: date).day }

    /// When the next local day starts (midnight, or the first moment after it on a DST day).
    public func nextMidnight(after date: Date) -> Date { localDay(containing: date).end }

    /// The local day `date` falls in: its date and the instants it starts and ends.
    public func localDay(containing date: Date) -> LocalDay { LocalDay(containing: date, calendar: calendar) }

    /// The local day after `day` (which must be a day of this zone).
    public func following(_ day: LocalDay) -> LocalDay { localDay(containing: day.end) }

    /// The local day before `day` (which must be a day of this zone).
    public func preceding(_ day: LocalDay) -> LocalDay { localDay(containing: day.start.addingTimeInterval(-1)) }

    /// "7h 12m", "45m", "under a minute".
    public static func countdown(from date: Date, to target: Date) -> String {
        let minutes = Int((target.timeIntervalSince(date) / 60).rounded(.up))
        if minutes < 1 { return "under a minute" }
        if minutes < 60 { return "\(minutes)m" }
        return minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes / 60)h \(minutes % 60)m"
    }

    /// Days between two `yyyy-MM-dd` dates (b − a).
    public static func distance(_ a: String, _ b: String) -> Int? {
        guard let da = utcDate(a), let db = utcDate(b) else { return nil }
        return Int((db.timeIntervalSince(da) / 86400).rounded())
    }

    static func utcDate(_ day: String) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return utc.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }
}
