import Foundation

/// Where "now" comes from. The server uses the system clock; tests use one they can move,
/// to cross midnights, time zones and DST changes without waiting.
public struct HearthClock: Sendable {
    public let now: @Sendable () -> Date
    public init(now: @escaping @Sendable () -> Date) { self.now = now }
    public static let system = HearthClock { Date() }
}
