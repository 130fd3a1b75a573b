import HearthTesting
import NIOCore
import Testing

@testable import HearthServer

/// The token bucket on its own, with a clock the test sets: each tier's burst, then its rate.
@Suite struct FloodControlTests {
    static func burst(_ tier: FloodControl.Tier, at now: NIODeadline, _ flood: inout FloodControl) -> Int {
        var taken = 0
        while flood.take(tier, now: now) == nil { taken += 1 }
        return taken
    }

    @Test(arguments: [
        (FloodControl.Tier.unregistered, FloodTiers.standard.unregisteredBurst, FloodTiers.standard.unregisteredRate),
        (.registered, FloodTiers.standard.burst, FloodTiers.standard.rate),
        (.bot, FloodTiers.standard.botBurst, FloodTiers.standard.botRate),
    ])
    func eachTierHasItsBurstThenItsRate(tier: FloodControl.Tier, burst: Double, rate: Double) {
        let start = NIODeadline.now()
        var flood = FloodControl()
        flood.tokens = burst
        flood.last = start
        #expect(Self.burst(tier, at: start, &flood) == Int(burst))
        // Over the limit: told to wait about one token's time, nothing is lost.
        let wait = flood.take(tier, now: start)
        #expect(wait != nil && abs(Double(wait!.nanoseconds) / 1e9 - 1 / rate) < 0.01)
        // One second later, `rate` more lines go through.
        #expect(Self.burst(tier, at: start + .seconds(1), &flood) == Int(rate))
        // However long it waits, never more than the burst at once.
        #expect(Self.burst(tier, at: start + .seconds(3600), &flood) == Int(burst))
    }

    @Test func botsAreLooserButCapped() {
        #expect(
            FloodTiers.standard.botBurst > FloodTiers.standard.burst
                && FloodTiers.standard.botRate > FloodTiers.standard.rate)
        #expect(FloodTiers.standard.unregisteredBurst < FloodTiers.standard.burst)
    }
}
