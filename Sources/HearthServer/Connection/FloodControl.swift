import NIOCore

/// A token bucket per connection (like Ergo's fake lag): a burst is processed at once,
/// after that lines wait until tokens refill instead of being dropped.
/// The token buckets' sizes and refill rates, per kind of connection (`flood-…` settings,
/// changed by a reload).
public struct FloodTiers: Sendable, Equatable {
    /// Lines a registered client may send at once, and per second after that.
    public var burst = 16.0
    public var rate = 4.0
    /// Looser, but capped, for accounts marked as bots (`!set bot on`): a recipe block or a
    /// relay's answers go through without waiting, a runaway bot still cannot flood.
    public var botBurst = 40.0
    public var botRate = 10.0
    /// Stricter before registration.
    public var unregisteredBurst = 8.0
    public var unregisteredRate = 2.0

    public static let standard = FloodTiers()
    public init() {}
}

/// A token bucket per connection (like Ergo's fake lag): a burst is processed at once,
/// after that lines wait until tokens refill instead of being dropped.
struct FloodControl {
    var tiers = FloodTiers.standard
    /// The reload generation `tiers` come from (see `Core.configGeneration`).
    var generation = 0

    enum Tier { case unregistered, registered, bot }

    var tokens = FloodTiers.standard.unregisteredBurst
    var last = NIODeadline.now()
    var enabled = true

    /// Takes a token; returns how long to wait when none is left. The tier is read only when
    /// it is needed (it takes the chat lock).
    mutating func take(_ tier: @autoclosure () -> Tier, now clock: @autoclosure () -> NIODeadline = .now())
        -> TimeAmount?
    {
        guard enabled else { return nil }
        // The clock is read only when it is needed (not for exempt connections).
        let now = clock()
        let (burst, rate): (Double, Double)
        switch tier() {
        case .unregistered: (burst, rate) = (tiers.unregisteredBurst, tiers.unregisteredRate)
        case .registered: (burst, rate) = (tiers.burst, tiers.rate)
        case .bot: (burst, rate) = (tiers.botBurst, tiers.botRate)
        }
        let elapsed = Double((now - last).nanoseconds) / 1e9
        tokens = min(burst, tokens + elapsed * rate)
        last = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        // At most a minute: a rate that small is refused by the settings, but never trap here.
        let wait = min((1 - tokens) / rate, 60)
        return .nanoseconds(Int64(wait * 1e9))
    }
}
