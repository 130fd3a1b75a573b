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
}
