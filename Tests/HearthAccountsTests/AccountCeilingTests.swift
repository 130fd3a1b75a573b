import Foundation
import HearthProtocol
import Synchronization
import Testing

@testable import HearthAccounts

/// Issue 34: 17 addresses × 3 wrong passwords passed the 50-failure account ceiling and locked
/// the owner out of every password path; one guess each time the wait ended kept it so.
@Suite struct AccountCeilingTests {
    /// The 17 addresses; with IPv6, 17 /64s are one /56 of one customer.
    static let attackerSets = [
        (0..<17).map { "198.51.100.\($0 + 1)" }, (0..<17).map { "2001:db8:0:\(String($0, radix: 16))::1" },
    ]

    /// One password attempt: nil when refused, else whether it was judged.
    @discardableResult
    static func guess(_ throttle: LoginThrottle, _ address: String, right: Bool = false) async -> Bool {
        guard let attempt = try? await throttle.start(accountKey: "owner", address: address) else { return false }
        throttle.finish(attempt, success: right)
        return true
    }

    static func attack(_ throttle: LoginThrottle, addresses: [String]) async -> Int {
        var judged = 0
        for address in addresses {
            for _ in 0..<LoginThrottle.freeFailures where await guess(throttle, address) { judged += 1 }
        }
        return judged
    }

    @Test(arguments: attackerSets)
    func seventeenAddressesDoNotLockTheOwnerOut(attackers: [String]) async throws {
        let clock = MovingClock()
        let throttle = LoginThrottle(clock: clock.hearth)
        #expect(await Self.guess(throttle, "192.0.2.10", right: true))  // the owner at home, once
        let judged = await Self.attack(throttle, addresses: attackers)
        #expect(judged >= LoginThrottle.freeFailuresPerAccount)  // the ceiling is reached
        // The owner's right password from a fresh address, IPv4 or IPv6, and from home.
        #expect(await Self.guess(throttle, "203.0.113.7", right: true))
        #expect(await Self.guess(throttle, "2001:db8:ffff::7", right: true))
        #expect(await Self.guess(throttle, "192.0.2.10", right: true))
        // The attackers' addresses are slowed.
        for address in attackers { #expect(!(await Self.guess(throttle, address))) }
    }

    @Test func aSustainedAttackerGetsFewGuessesPerAddressAndTheOwnerAlwaysGetsIn() async throws {
        let clock = MovingClock()
        let throttle = LoginThrottle(clock: clock.hearth)
        #expect(await Self.guess(throttle, "192.0.2.10", right: true))
        _ = await Self.attack(throttle, addresses: (1...17).map { "198.51.100.\($0)" })
        var used: [String] = []
        for round in 1...200 {
            // Each time a wait would end, a fresh address (and every used one) guesses again.
            clock.advance(LoginThrottle.maxDelay)
            let fresh = "10.\(round / 250).\(round % 250).1"
            var judged = 0
            for _ in 0..<5 where await Self.guess(throttle, fresh) { judged += 1 }
            #expect(judged == LoginThrottle.freshFailuresPastCeiling, "round \(round)")
            for address in used.suffix(2) { #expect(!(await Self.guess(throttle, address)), "\(address)") }
            used.append(fresh)
            if round % 20 == 0 {
                // The owner, from a new place each time and from home, with a typo first.
                let away = "2001:db8:\(String(round, radix: 16))::1"
                #expect(await Self.guess(throttle, away))
                #expect(await Self.guess(throttle, away, right: true), "round \(round)")
                #expect(await Self.guess(throttle, "192.0.2.10", right: true), "round \(round)")
            }
        }
    }
}

/// A clock the test moves.
final class MovingClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var hearth: HearthClock { HearthClock { self.now } }
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
}
