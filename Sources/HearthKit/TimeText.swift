import Foundation

/// Human time spans: "just now", "12 min ago", "3 h ago", "2 days ago".
public enum TimeText {
    public static func ago(from date: Date, to now: Date = Date()) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        case ..<(2 * 86_400): return "yesterday"
        default: return "\(seconds / 86_400) days ago"
        }
    }

    /// `2026-11-25T16:37:11Z`, for `<time datetime>`: by hand, since a formatter made per page
    /// (ICU underneath) cost more than the rest of a page's rendering.
    public static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
