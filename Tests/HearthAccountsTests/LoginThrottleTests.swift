import Foundation
import Testing

@testable import HearthAccounts

/// Guessing is slowed per account-and-address, per address and per account; attempts are
/// reserved before the slow check; an attempt in flight is not a failure. A test that expects a
/// refusal runs on a clock that stands still: a loaded machine outwaits the first delay (2 s).
@Suite struct LoginThrottleTests {
    @Test func delaysStartAfterFreeFailuresAndDouble() {
        let throttle = LoginThrottle()
        let keys = ["pair:alice@10.0.0.1"]
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        for i in 0..<LoginThrottle.freeFailures {
            #expect(throttle.waitTime(keys: keys, now: t0) == nil, "attempt \(i) should be free")
            throttle.recordFailure(keys: keys, now: t0)
        }
        #expect(throttle.waitTime(keys: keys, now: t0) == LoginThrottle.baseDelay)
        throttle.recordFailure(keys: keys, now: t0)
        #expect(throttle.waitTime(keys: keys, now: t0) == LoginThrottle.baseDelay * 2)
        #expect(throttle.waitTime(keys: keys, now: t0.addingTimeInterval(LoginThrottle.baseDelay * 2 + 0.1)) == nil)
        // Forgotten after a quiet period; a success clears it at once.
        #expect(throttle.waitTime(keys: keys, now: t0.addingTimeInterval(LoginThrottle.forgetAfter + 1)) == nil)
        throttle.recordFailure(keys: keys, now: t0)
        throttle.recordSuccess(keys: keys)
        #expect(throttle.waitTime(keys: keys, now: t0) == nil)
    }

    @Test func delayIsCapped() {
        let throttle = LoginThrottle()
        let t0 = Date(timeIntervalSince1970: 0)
        for _ in 0..<40 { throttle.recordFailure(keys: ["pair:bob@x"], now: t0) }
        #expect(throttle.waitTime(keys: ["pair:bob@x"], now: t0) == LoginThrottle.maxDelay)
    }

    /// Each kind of key at its free failures and one past.
    @Test(arguments: [
        ("pair:carol@10.0.0.1", LoginThrottle.freeFailures), ("addr:10.0.0.1", LoginThrottle.freeFailuresPerAddress),
        ("acct:carol", LoginThrottle.freeFailuresPerAccount),
    ]) func eachKeyAtItsFreeFailuresAndOnePast(key: String, free: Int) {
        let throttle = LoginThrottle()
        let t0 = Date(timeIntervalSince1970: 0)
        for _ in 0..<(free - 1) { throttle.recordFailure(keys: [key], now: t0) }
        #expect(throttle.waitTime(keys: [key], now: t0) == nil)
        throttle.recordFailure(keys: [key], now: t0)
        #expect(throttle.waitTime(keys: [key], now: t0) == LoginThrottle.baseDelay)
    }

    @Test func theOwnerOnAnotherAddressIsNotLockedOut() async throws {
        let throttle = LoginThrottle(clock: MovingClock().hearth)
        for _ in 0...LoginThrottle.freeFailures {
            if let attempt = try? await throttle.start(accountKey: "dora", address: "203.0.113.9") {
                throttle.finish(attempt, success: false)
            }
        }
        await #expect(throws: LoginThrottle.Refusal.self) {
            try await throttle.start(accountKey: "dora", address: "203.0.113.9")
        }
        let owner = try await throttle.start(accountKey: "dora", address: "198.51.100.7")
        throttle.finish(owner, success: true)
        // Another address of the attacker's IPv6 /64 is the attacker's address.
        for _ in 0...LoginThrottle.freeFailures {
            if let attempt = try? await throttle.start(accountKey: "dora", address: "2001:db8:0:1::1") {
                throttle.finish(attempt, success: false)
            }
        }
        await #expect(throws: LoginThrottle.Refusal.self) {
            try await throttle.start(accountKey: "dora", address: "2001:db8:0:1::2")
        }
    }

    /// Past the account's ceiling, an address that failed there `freshFailuresPastCeiling`
    /// times waits; a fresh one does not (it may be the owner's).
    @Test func theAccountCeilingSlowsOnlyAddressesThatFailedThere() async throws {
        let throttle = LoginThrottle(clock: MovingClock().hearth)
        for i in 0..<LoginThrottle.freeFailuresPerAccount {
            let attempt = try await throttle.start(accountKey: "erin", address: "10.\(i).0.1")
            throttle.finish(attempt, success: false)
        }
        for _ in 1..<LoginThrottle.freshFailuresPastCeiling {
            let attempt = try await throttle.start(accountKey: "erin", address: "10.0.0.1")
            throttle.finish(attempt, success: false)
        }
        await #expect(throws: LoginThrottle.Refusal.self) {
            try await throttle.start(accountKey: "erin", address: "10.0.0.1")
        }
        let fresh = try await throttle.start(accountKey: "erin", address: "192.0.2.250")
        throttle.finish(fresh, success: true)
    }

    /// Runs `count` attempts on one address at once, each held in flight for a moment and
    /// ending with `success`; returns how many were evaluated and how many refused.
    static func parallel(
        _ throttle: LoginThrottle, count: Int, account: @escaping @Sendable (Int) -> String, success: Bool
    ) async -> (evaluated: Int, refused: Int) {
        await withTaskGroup(of: Bool.self) { group in
            for i in 0..<count {
                group.addTask {
                    guard let attempt = try? await throttle.start(accountKey: account(i), address: "203.0.113.50")
                    else {
                        return false
                    }
                    try? await Task.sleep(for: .milliseconds(20))  // the Argon2id check
                    throttle.finish(attempt, success: success)
                    return true
                }
            }
            var evaluated = 0
            for await ran in group where ran { evaluated += 1 }
            return (evaluated, count - evaluated)
        }
    }

    /// On a clock that stands still: on the system's, a loaded machine resumed a waiting guess more
    /// than the first delay (2 s) after the twelfth failure, and the throttle rightly let it in (CI).
    @Test func parallelGuessesFromOneAddressAreReservedBeforeTheCheck() async {
        let (evaluated, refused) = await Self.parallel(
            LoginThrottle(clock: MovingClock().hearth), count: 30, account: { "name\($0)" }, success: false)
        #expect(evaluated == LoginThrottle.freeFailuresPerAddress)
        #expect(refused == 30 - LoginThrottle.freeFailuresPerAddress)
    }

    @Test func theRightPasswordFromSixDevicesAtOnceIsNeverRefused() async {
        let (evaluated, refused) = await Self.parallel(
            LoginThrottle(), count: 6, account: { _ in "fay" }, success: true)
        #expect(evaluated == 6 && refused == 0)
    }

    /// LoginThrottle remembers at most maxEntries keys: one more forgets the one idle longest.
    @Test func entriesAtTheLimitAndOnePast() {
        let throttle = LoginThrottle()
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        for _ in 0...LoginThrottle.freeFailures { throttle.recordFailure(keys: ["pair:oldest"], now: t0) }
        #expect(throttle.waitTime(keys: ["pair:oldest"], now: t0 + 1) != nil)
        for i in 1..<LoginThrottle.maxEntries { throttle.recordFailure(keys: ["pair:k\(i)"], now: t0 + 0.5) }
        #expect(throttle.waitTime(keys: ["pair:oldest"], now: t0 + 1) != nil, "at the limit it is still remembered")
        throttle.recordFailure(keys: ["pair:one-more"], now: t0 + 0.5)
        #expect(throttle.waitTime(keys: ["pair:oldest"], now: t0 + 1) == nil, "one past, the oldest is forgotten")
    }
}
