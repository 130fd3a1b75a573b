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

    /// Past the ceiling, the attackers' network is slowed too, not only the addresses that failed.
    @Test(arguments: attackerSets)
    func aFreshAddressInTheAttackersNetworkIsSlowed(attackers: [String]) async throws {
        let throttle = LoginThrottle(clock: MovingClock().hearth)
        _ = await Self.attack(throttle, addresses: attackers)
        let neighbour = attackers[0].contains(":") ? "2001:db8:0:ffff::1" : "198.51.100.200"
        #expect(!(await Self.guess(throttle, neighbour)))
    }

    /// Reaches the ceiling from `LoginThrottle.freeFailuresPerAccount` networks, one guess each.
    static func reachCeiling(_ throttle: LoginThrottle) async {
        for i in 0..<LoginThrottle.freeFailuresPerAccount { #expect(await guess(throttle, "172.16.\(i).1")) }
    }

    /// Past the ceiling, one network's fresh addresses (each its own /64) make
    /// `freshFailuresPerNetwork` guesses in all, whatever their number: a customer's /48 holds
    /// 65,536 /64s, which each had 2 fresh guesses before.
    @Test func oneNetworksFreshAddressesAtItsLimitAndOnePast() async throws {
        let throttle = LoginThrottle(clock: MovingClock().hearth)
        await Self.reachCeiling(throttle)
        var judged = 0
        for i in 0..<1000 where await Self.guess(throttle, "2001:db8:5:\(String(i, radix: 16))::1") { judged += 1 }
        #expect(judged == LoginThrottle.freshFailuresPerNetwork)
        // Another network still has its own; the owner's fresh address gets in.
        #expect(await Self.guess(throttle, "2001:db8:6::1"))
        #expect(await Self.guess(throttle, "2001:db8:7::1", right: true))
    }

    /// Past the ceiling, all fresh addresses together make `freshGuessesPerAccount` wrong
    /// guesses, forgotten `accountForgetAfter` after the last; known addresses and tokens wait
    /// for none of it.
    @Test func theAccountsFreshGuessesAtTheLimitAndOnePast() async throws {
        let clock = MovingClock()
        let throttle = LoginThrottle(clock: clock.hearth)
        #expect(await Self.guess(throttle, "192.0.2.10", right: true))  // the owner at home, once
        await Self.reachCeiling(throttle)
        for i in 0..<LoginThrottle.freshGuessesPerAccount { #expect(await Self.guess(throttle, "10.\(i).0.1")) }
        #expect(!(await Self.guess(throttle, "10.200.0.1")), "one past the account's fresh guesses")
        #expect(!(await Self.guess(throttle, "203.0.113.7", right: true)), "a fresh owner now waits too")
        #expect(await Self.guess(throttle, "192.0.2.10", right: true), "the owner at home does not")
        let token = try await throttle.start(accountKey: nil, address: "203.0.113.7")
        throttle.finish(token, success: true)
        // The fresh guesses stay spent an hour after the last (the ceiling's delay lets one
        // attempt through now and then), and are forgotten just past it.
        clock.advance(LoginThrottle.accountForgetAfter)
        #expect(await Self.guess(throttle, "10.201.0.1"), "the ceiling's delay has passed: one guess")
        #expect(!(await Self.guess(throttle, "203.0.113.7", right: true)), "an hour after the last")
        clock.advance(1)
        #expect(await Self.guess(throttle, "203.0.113.7", right: true), "one second past it")
    }

    /// The bound docs/SECURITY.md gives: wrong passwords per hour on one account, whatever the
    /// number of networks (here a new one for every guess), while the owner at home gets in.
    static let guessesPerHourBound = 90

    @Test func aSustainedAttackerWithManyNetworksGetsTheBoundPerHour() async throws {
        let clock = MovingClock()
        let throttle = LoginThrottle(clock: clock.hearth)
        #expect(await Self.guess(throttle, "192.0.2.10", right: true))
        var judged = 0
        var network = 0
        for minute in 0..<120 {
            if minute == 60 {
                #expect(judged <= Self.guessesPerHourBound, "first hour")
                judged = 0
            }
            for _ in 0..<100 {
                network += 1
                if await Self.guess(throttle, "2001:db8:\(String(network, radix: 16))::1") { judged += 1 }
            }
            #expect(await Self.guess(throttle, "192.0.2.10", right: true), "minute \(minute)")
            clock.advance(60)
        }
        #expect(judged <= Self.guessesPerHourBound, "second hour")
        #expect(judged >= 3600 / Int(LoginThrottle.maxDelay) - 1, "the ceiling's delay still lets one through")
    }

    /// OPER has no owner to let in: past its ceiling, a fresh address waits like the rest.
    @Test func operatorPasswordsKeepTheirCeiling() async throws {
        let throttle = LoginThrottle(clock: MovingClock().hearth)
        var judged = 0
        for i in 0..<17 {
            for _ in 0..<LoginThrottle.freeFailures {
                guard let attempt = try? await throttle.start(operator: "root", address: "10.\(i).0.1") else {
                    continue
                }
                throttle.finish(attempt, success: false)
                judged += 1
            }
        }
        #expect(judged >= LoginThrottle.freeFailuresPerAccount)
        await #expect(throws: LoginThrottle.Refusal.self) {
            try await throttle.start(operator: "root", address: "203.0.113.7")
        }
    }

    /// A resume token or web session makes its address known like a password login; a
    /// password reset forgets every known address of the account.
    @Test func aTokenLoginMakesTheAddressKnownAndAResetForgetsIt() async throws {
        let throttle = LoginThrottle(clock: MovingClock().hearth)
        throttle.markKnown(accountKey: "owner", address: "2001:db8:aa:1::5")
        await Self.reachCeiling(throttle)
        for i in 0..<LoginThrottle.freshGuessesPerAccount { _ = await Self.guess(throttle, "10.\(i).0.1") }
        #expect(await Self.guess(throttle, "2001:db8:aa:1::9", right: true), "same /64 as the token's")
        throttle.forgetKnown(accountKey: "owner")
        #expect(!throttle.isKnown(accountKey: "owner", address: "2001:db8:aa:1::5"))
        #expect(!(await Self.guess(throttle, "2001:db8:aa:1::9", right: true)))
    }

    /// Known pairs are kept up to `maxKnown`; one more forgets the one seen longest ago.
    @Test func knownAddressesAtTheLimitAndOnePast() {
        let clock = MovingClock()
        let throttle = LoginThrottle(clock: clock.hearth)
        throttle.markKnown(accountKey: "oldest", address: "192.0.2.1")
        throttle.markKnown(accountKey: "again", address: "192.0.2.1")
        for i in 2..<LoginThrottle.maxKnown { throttle.markKnown(accountKey: "a\(i)", address: "192.0.2.1") }
        throttle.markKnown(accountKey: "oldest", address: "192.0.2.1")  // seen again: now the newest
        #expect(throttle.isKnown(accountKey: "again", address: "192.0.2.1"), "at the limit")
        throttle.markKnown(accountKey: "one-more", address: "192.0.2.1")
        #expect(!throttle.isKnown(accountKey: "again", address: "192.0.2.1"), "one past: the longest ago goes")
        #expect(throttle.isKnown(accountKey: "oldest", address: "192.0.2.1"))
        #expect(throttle.isKnown(accountKey: "one-more", address: "192.0.2.1"))
    }
}

/// A clock the test moves.
final class MovingClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var hearth: HearthClock { HearthClock { self.now } }
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
}
