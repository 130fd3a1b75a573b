import Foundation
import GRDB

/// The text GRDB stores for a `Date` ("yyyy-MM-dd HH:mm:ss.SSS", UTC, to the nearest
/// millisecond), written by hand: GRDB's `DateFormatter` went through ICU for every history row and
/// was a large part of the history writer's CPU. Instants outside `fastMillis` (before 1970,
/// after 9999) still go through GRDB, so the text is GRDB's for every date.
enum SQLiteDateText {
    /// Bytes in the text: "2026-11-27 22:12:59.123".
    static let length = 23
    /// Milliseconds since 1970 written by hand: from 1970-01-01 to the end of 9999 (four-digit years).
    static let fastMillis: Range<Double> = 0..<253_402_300_800_000

    /// GRDB's text for `date`.
    static func text(_ date: Date) -> String {
        withText(date) { String(decoding: $0, as: UTF8.self) }
    }

    /// Hands GRDB's text for `date` to `body` as UTF-8, without a `String` in the common case.
    static func withText<R>(_ date: Date, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        // The same arithmetic as Foundation's formatter: ICU is given milliseconds as a Double.
        let millis = ((date.timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate) * 1000)
            .rounded()
        guard fastMillis.contains(millis) else {
            var text = String.fromDatabaseValue(date.databaseValue) ?? ""
            return try text.withUTF8(body)
        }
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            write(Int64(millis), into: buffer)
            return try body(UnsafeBufferPointer(buffer))
        }
    }

    /// Writes `millis` (≥ 0, within `fastMillis`) as "yyyy-MM-dd HH:mm:ss.SSS".
    private static func write(_ millis: Int64, into out: UnsafeMutableBufferPointer<UInt8>) {
        let days = millis / 86_400_000
        let inDay = millis % 86_400_000
        let (year, month, day) = civil(days)
        var at = 0
        func put(_ value: Int64, digits: Int, then separator: UInt8?) {
            var rest = value
            for index in stride(from: at + digits - 1, through: at, by: -1) {
                out[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                rest /= 10
            }
            at += digits
            if let separator {
                out[at] = separator
                at += 1
            }
        }
        put(year, digits: 4, then: UInt8(ascii: "-"))
        put(month, digits: 2, then: UInt8(ascii: "-"))
        put(day, digits: 2, then: UInt8(ascii: " "))
        put(inDay / 3_600_000, digits: 2, then: UInt8(ascii: ":"))
        put(inDay / 60_000 % 60, digits: 2, then: UInt8(ascii: ":"))
        put(inDay / 1000 % 60, digits: 2, then: UInt8(ascii: "."))
        put(inDay % 1000, digits: 3, then: nil)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (≥ 0), after Howard
    /// Hinnant's `civil_from_days`.
    private static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March is 0
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
