import Foundation
import HearthProtocol
import Synchronization

/// How many times something may happen per address (an IPv6 /64 counting as one) within a
/// window, e.g. accounts registered per hour: unlike `LoginThrottle`, every use counts,
/// right or wrong.
public final class AddressQuota: Sendable {
    public let limit: Int
    public let window: TimeInterval
    /// Addresses not counted (loopback, when the operator turned flood control off for tests).
    private let exempt: @Sendable (String) -> Bool
    /// The server's: a test's stands still, so a loaded machine cannot end a window mid-story.
    private let clock: HearthClock
    private let uses = Mutex<[String: [Date]]>([:])
    /// Addresses remembered at most (the one used longest ago is dropped).
    public static let maxAddresses = 100_000

    public init(
        limit: Int, window: TimeInterval, clock: HearthClock = .system,
        exempt: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.limit = limit
        self.window = window
        self.clock = clock
        self.exempt = exempt
    }

    /// Counts one use; returns nil when allowed, or the seconds until the next one is.
    public func take(_ address: String) -> TimeInterval? {
        guard !exempt(address) else { return nil }
        let now = clock.now()
        let key = AddressGroup.key(address)
        return uses.withLock { uses in
            let recent = (uses[key] ?? []).filter { now.timeIntervalSince($0) < window }
            if recent.count >= limit {
                uses[key] = recent
                return recent[0].addingTimeInterval(window).timeIntervalSince(now)
            }
            if uses[key] == nil && uses.count >= Self.maxAddresses,
                let oldest = uses.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) })?.key
            {
                uses[oldest] = nil
            }
            uses[key] = recent + [now]
            return nil
        }
    }

    /// Gives back a use that did not happen after all (e.g. the name was taken).
    public func giveBack(_ address: String) {
        let key = AddressGroup.key(address)
        uses.withLock { uses in
            if uses[key]?.isEmpty == false { uses[key]!.removeLast() }
        }
    }
}
