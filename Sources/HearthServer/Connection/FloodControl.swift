import NIOCore

/// A token bucket per connection (like Ergo's fake lag): a burst is processed at once,
/// after that lines wait until tokens refill instead of being dropped.
struct FloodControl {
    /// Lines a registered client may send at once.
    static let burst = 16.0
    /// Lines per second after the burst.
    static let ratePerSecond = 4.0
    /// Stricter limits before registration.
    static let unregisteredBurst = 8.0
    static let unregisteredRatePerSecond = 2.0
    /// Looser, but capped, for accounts marked as bots (`!set bot on`): a recipe block or a
    /// relay's answers go through without waiting, a runaway bot still cannot flood.
    static let botBurst = 40.0
    static let botRatePerSecond = 10.0

    enum Tier { case unregistered, registered, bot }

    var tokens = FloodControl.unregisteredBurst
    var last = NIODeadline.now()
    var enabled = true

    /// Takes a token; returns how long to wait when none is left.
    mutating func take(_ tier: Tier, now: NIODeadline = .now()) -> TimeAmount? {
        guard enabled else { return nil }
        let (burst, rate): (Double, Double)
        switch tier {
        case .unregistered: (burst, rate) = (Self.unregisteredBurst, Self.unregisteredRatePerSecond)
        case .registered: (burst, rate) = (Self.burst, Self.ratePerSecond)
        case .bot: (burst, rate) = (Self.botBurst, Self.botRatePerSecond)
        }
        let elapsed = Double((now - last).nanoseconds) / 1e9
        tokens = min(burst, tokens + elapsed * rate)
        last = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        let wait = (1 - tokens) / rate
        return .nanoseconds(Int64(wait * 1e9))
    }
}
