import Foundation

/// Where "now" comes from. The server uses the system clock; tests use one they can move,
/// to cross midnights, time zones and DST changes without waiting.
public struct HearthClock: Sendable {
    public let now: @Sendable () -> Date
    /// Nanoseconds that only go forward, for rates (flood control's buckets refill by it): the
    /// system's monotonic clock; a clock a test moves gives its time, so a bucket refills only
    /// when the test moves it (a loaded machine cannot let one more line through).
    public let ticks: @Sendable () -> UInt64

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
        ticks = { UInt64(max(0, now().timeIntervalSince1970) * 1e9) }
    }

    private init(now: @escaping @Sendable () -> Date, ticks: @escaping @Sendable () -> UInt64) {
        (self.now, self.ticks) = (now, ticks)
    }

    /// Ticks are CLOCK_MONOTONIC's, as NIO's deadlines.
    public static let system = HearthClock(
        now: { Date() },
        ticks: {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        })
}
