import Foundation
import Synchronization

/// Slows down password guessing per account and per address: after
/// `freeFailures` wrong passwords, each further attempt must wait a doubling delay.
public final class LoginThrottle: Sendable {
    /// Wrong passwords allowed before delays start.
    public static let freeFailures = 3
    /// First delay after the free failures; doubles each time.
    public static let baseDelay: TimeInterval = 2
    public static let maxDelay: TimeInterval = 300
    /// A key's failures are forgotten after this long without a new one.
    public static let forgetAfter: TimeInterval = 15 * 60
    /// Entries kept at most (oldest dropped), so guessing cannot grow memory.
    public static let maxEntries = 100_000

    struct Entry {
        var failures: Int
        var last: Date
    }

    private let state = Mutex<[String: Entry]>([:])

    public init() {}

    /// Seconds to wait before another attempt with these keys, or nil if allowed now.
    public func waitTime(keys: [String], now: Date = Date()) -> TimeInterval? {
        state.withLock { entries in
            var longest: TimeInterval = 0
            for key in keys {
                guard let entry = entries[key] else { continue }
                if now.timeIntervalSince(entry.last) > Self.forgetAfter {
                    entries[key] = nil
                    continue
                }
                let free = Self.freeFailures(for: key)
                guard entry.failures >= free else { continue }
                let exponent = Double(entry.failures - free)
                let delay = min(Self.baseDelay * pow(2, exponent), Self.maxDelay)
                let remaining = entry.last.addingTimeInterval(delay).timeIntervalSince(now)
                longest = max(longest, remaining)
            }
            return longest > 0 ? longest : nil
        }
    }

    /// Checks and books an attempt in one step: the attempt counts as a failure until
    /// `recordSuccess` clears it, so parallel guesses cannot all slip through the check.
    /// Returns the wait time if the attempt is refused.
    public func begin(keys: [String], now: Date = Date()) -> TimeInterval? {
        if let wait = waitTime(keys: keys, now: now) { return wait }
        recordFailure(keys: keys, now: now)
        return nil
    }

    public func recordFailure(keys: [String], now: Date = Date()) {
        state.withLock { entries in
            if entries.count >= Self.maxEntries {
                if let oldest = entries.min(by: { $0.value.last < $1.value.last })?.key { entries[oldest] = nil }
            }
            for key in keys {
                var entry = entries[key] ?? Entry(failures: 0, last: now)
                entry.failures += 1
                entry.last = now
                entries[key] = entry
            }
        }
    }

    public func recordSuccess(keys: [String]) {
        state.withLock { entries in
            for key in keys { entries[key] = nil }
        }
    }

    /// Many people can share one address (NAT), so an address gets more free failures.
    static func freeFailures(for key: String) -> Int {
        key.hasPrefix("addr:") ? freeFailures * 4 : freeFailures
    }

    /// An attempt on one account from one address. The account key is booked at once
    /// (nobody can run parallel guesses against one account); the address key counts
    /// only real failures, so many people behind one address can log in at the same time.
    public struct Attempt: Sendable {
        let account: [String]
        let address: [String]
    }

    /// Starts an attempt, or returns how long to wait.
    public func start(accountKey: String?, address: String) -> Result<Attempt, Refusal> {
        let attempt = Attempt(account: accountKey.map { ["acct:" + $0] } ?? [], address: ["addr:" + address])
        if let wait = waitTime(keys: attempt.address) ?? begin(keys: attempt.account) {
            return .failure(Refusal(seconds: Int(wait.rounded(.up))))
        }
        return .success(attempt)
    }

    public func finish(_ attempt: Attempt, success: Bool) {
        if success {
            recordSuccess(keys: attempt.account)
        } else {
            recordFailure(keys: attempt.address)
        }
    }

    public struct Refusal: Error, Sendable {
        public let seconds: Int
    }
}
