import Foundation

/// At most `maxPerMinute` mention pushes per account in a minute of the server's clock; the
/// rest are counted and sent as one summary when the minute ends, so a busy channel cannot
/// ring someone's phone for every line. Minutes are whole minutes of the clock (not sliding),
/// so one account gets at most twice the limit across a minute's edge.
struct MentionPushLimit: Sendable {
    /// Mention pushes per account per minute; past this they are held for the summary.
    static let maxPerMinute = 5
    /// Accounts tracked at once (those mentioned this minute); past this an account's further
    /// mentions this minute are dropped, not pushed.
    static let maxAccounts = 10_000

    enum Decision: Equatable {
        /// Push it now.
        case send
        /// Held; the first held one of a minute asks for the summary at `summaryAt`.
        case hold(summaryAt: Date?)
    }

    struct Minute: Sendable {
        var start: Date
        var sent = 0
        var held = 0
        /// Where the held mentions were said, in order, once each.
        var places: [String] = []
    }

    private var minutes: [Int64: Minute] = [:]

    static func minuteStart(_ now: Date) -> Date {
        Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    mutating func admit(_ accountID: Int64, place: String, now: Date) -> Decision {
        let start = Self.minuteStart(now)
        if minutes[accountID].map({ $0.start != start && $0.held == 0 }) == true { minutes[accountID] = nil }
        if minutes[accountID] == nil {
            if minutes.count >= Self.maxAccounts {
                minutes = minutes.filter { $0.value.start == start || $0.value.held > 0 }
            }
            guard minutes.count < Self.maxAccounts else { return .hold(summaryAt: nil) }
            minutes[accountID] = Minute(start: start)
        }
        var minute = minutes[accountID]!
        defer { minutes[accountID] = minute }
        if minute.start == start && minute.sent < Self.maxPerMinute {
            minute.sent += 1
            return .send
        }
        minute.held += 1
        if !minute.places.contains(place) { minute.places.append(place) }
        return .hold(summaryAt: minute.held == 1 ? minute.start.addingTimeInterval(60) : nil)
    }

    /// The held mentions' count and places when the summary is due (forgetting them), or nil.
    mutating func takeHeld(_ accountID: Int64) -> (count: Int, places: [String])? {
        guard let minute = minutes.removeValue(forKey: accountID), minute.held > 0 else { return nil }
        return (minute.held, minute.places)
    }
}
