import Foundation
import HearthStore

/// What is given once a day (a fortune cookie, the first-visit bonus) is given once per day of
/// the person's life, whatever time zone they set: a local day is its date *and* the instants
/// it starts and ends. A day may be given only if its date is later than the last one given
/// and it starts no earlier than that one ended, so days never overlap in absolute time and
/// changing zone can neither go back to a day already passed nor open one that overlaps.
public enum OncePerDay {
    public enum Decision: Equatable, Sendable {
        /// `day` (the one now, where the person is) may be given; whether it carries the streak on.
        case give(LocalDay, continuesStreak: Bool)
        /// Not now: `next` is the first day of this zone that may be given.
        case wait(next: LocalDay)
    }

    /// Whether `day` may follow `last`.
    public static func mayFollow(_ last: LocalDay, with day: LocalDay) -> Bool {
        day.day > last.day && day.start >= last.end
    }

    /// The decision at `now` in `zone`, given the last day given (nil: none yet).
    public static func decide(last: LocalDay?, now: Date, in zone: LocalDays) -> Decision {
        let today = zone.localDay(containing: now)
        guard let last else { return .give(today, continuesStreak: false) }
        if mayFollow(last, with: today) {
            return .give(today, continuesStreak: continuesStreak(from: last, to: today, in: zone))
        }
        // Dates only grow, and `last` ends within about two days of now: a few steps at most.
        var next = zone.following(today)
        while !mayFollow(last, with: next) { next = zone.following(next) }
        return .wait(next: next)
    }

    /// A streak goes on when no day that could have been given was skipped: the day before
    /// `day` (in its zone) overlaps `last` or does not come after its date. Same zone, that is
    /// the next calendar day; a traveller going east, whose next date overlaps the last day,
    /// keeps the streak with the date after; going west, with the next date, hours later.
    public static func continuesStreak(from last: LocalDay, to day: LocalDay, in zone: LocalDays) -> Bool {
        !mayFollow(last, with: zone.preceding(day))
    }

    /// The streak still running at `now` in `zone`, for a last day given that made a streak of
    /// `streak`: it is alive while that day covers now, or the next day that may be given would
    /// carry it on. (A day's streak is decided when it is given, in the zone of that moment:
    /// a DST day and a change of zone cannot be told apart afterwards.)
    public static func currentStreak(last: LocalDay?, streak: Int, now: Date, in zone: LocalDays) -> Int {
        guard let last else { return 0 }
        switch decide(last: last, now: now, in: zone) {
        case .wait: return streak
        case .give(_, let continues): return continues ? streak : 0
        }
    }
}
