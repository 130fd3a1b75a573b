import Foundation
import HearthProtocol
import Synchronization

/// Slows down guessing (passwords, tokens, codes) per key: after a key's free failures,
/// each further attempt must wait a doubling delay. A login counts under three keys — the
/// account from this address (`pair:`), the address (`addr:`, an IPv6 /64 counting as one)
/// and the account from anywhere (`acct:`, a much higher ceiling) — so an attacker who
/// locks out the account on their address does not lock out its owner on another.
///
/// The account's ceiling never closes the account to everyone (17 addresses × 3 guesses
/// did): it slows only addresses that have failed on the account themselves —
/// `freshFailuresPastCeiling` of them — and never one that has logged in to it before
/// (`knownFor`). So the owner gets in from home, and from a fresh address with the right
/// password (or one typo), while an attacker spread over addresses gets that many guesses
/// per address until it is forgotten (`forgetAfter`). Resume tokens never count on the account.
///
/// An attempt is reserved before the slow check (Argon2id) and counts against the budget
/// while in flight, so 30 parallel guesses cannot all be evaluated; but an attempt in
/// flight is not a failure: when the budget is taken only by attempts in flight, the next
/// one waits for them instead of being refused, so six devices logging in at once with
/// the right password all get in.
public final class LoginThrottle: Sendable {
    /// Wrong passwords allowed per account and address before delays start.
    public static let freeFailures = 3
    /// Wrong attempts allowed per address (many people may share one, NAT).
    public static let freeFailuresPerAddress = freeFailures * 4
    /// Wrong passwords allowed per account from all addresses together: high, so that an
    /// attacker cannot lock the owner out, but a bound on a guessing botnet.
    public static let freeFailuresPerAccount = 50
    /// Past the account's ceiling, the failures an address that never logged in to the account
    /// may still make there before the account's delay applies to it too.
    public static let freshFailuresPastCeiling = 2
    /// How long an address that logged in to an account stays exempt from its ceiling.
    public static let knownFor: TimeInterval = 30 * 86400
    /// Account-and-address pairs remembered as known at most (oldest dropped).
    public static let maxKnown = 100_000
    /// First delay after the free failures; doubles each time.
    public static let baseDelay: TimeInterval = 2
    public static let maxDelay: TimeInterval = 300
    /// A key's failures are forgotten after this long without a new one.
    public static let forgetAfter: TimeInterval = 15 * 60
    /// Entries kept at most (oldest idle one dropped), so guessing cannot grow memory.
    public static let maxEntries = 100_000

    struct Entry {
        var failures = 0
        var inFlight = 0
        var last: Date
    }

    struct State {
        var entries: [String: Entry] = [:]
        /// `account@address group` pairs that logged in, and when they last did.
        var known: [String: Date] = [:]
        /// Attempts waiting for attempts in flight to finish (resumed to look again).
        var waiters: [CheckedContinuation<Decision, Never>] = []
    }

    private let state = Mutex(State())
    private let clock: HearthClock

    public init(clock: HearthClock = .system) { self.clock = clock }

    /// The account's ceiling, as it applies to one attempt: `key` (the `acct:` one) counts
    /// only once `pair` has `freshFailuresPastCeiling` failures, and never for a known pair.
    struct Ceiling: Sendable {
        let key: String
        let pair: String
    }

    /// How many failures a key allows before delays, by its kind (its prefix).
    static func freeFailures(for key: String) -> Int {
        if key.hasPrefix("addr:") { return freeFailuresPerAddress }
        if key.hasPrefix("acct:") { return freeFailuresPerAccount }
        return freeFailures
    }

    enum Decision: Sendable {
        case go
        case wait
        case refuse(TimeInterval)
    }

    /// What one key says about a new attempt now.
    private static func decide(_ entry: Entry?, key: String, now: Date) -> Decision {
        guard let entry else { return .go }
        let free = freeFailures(for: key)
        if entry.failures >= free {
            let delay = min(baseDelay * pow(2, Double(entry.failures - free)), maxDelay)
            let remaining = entry.last.addingTimeInterval(delay).timeIntervalSince(now)
            if remaining > 0 { return .refuse(remaining) }
            return entry.inFlight > 0 ? .wait : .go  // one attempt at a time once delayed
        }
        return entry.failures + entry.inFlight < free ? .go : .wait
    }

    private static func expired(_ entry: Entry, now: Date) -> Bool {
        entry.inFlight == 0 && now.timeIntervalSince(entry.last) > forgetAfter
    }

    /// Whether the ceiling is set aside for this attempt (under the lock).
    private static func exempt(_ ceiling: Ceiling, _ state: inout State, now: Date) -> Bool {
        if let seen = state.known[ceiling.pair] {
            if now.timeIntervalSince(seen) <= knownFor { return true }
            state.known[ceiling.pair] = nil
        }
        guard let pair = state.entries[ceiling.pair] else { return true }
        return pair.failures + pair.inFlight < freshFailuresPastCeiling
    }

    /// Seconds to wait before another attempt with these keys, or nil if allowed now
    /// (attempts in flight are not counted here).
    public func waitTime(keys: [String], now: Date = Date()) -> TimeInterval? {
        state.withLock { state in
            var longest: TimeInterval = 0
            for key in keys {
                guard var entry = state.entries[key] else { continue }
                if Self.expired(entry, now: now) {
                    state.entries[key] = nil
                    continue
                }
                entry.inFlight = 0
                if case .refuse(let remaining) = Self.decide(entry, key: key, now: now) {
                    longest = max(longest, remaining)
                }
            }
            return longest > 0 ? longest : nil
        }
    }

    public func recordFailure(keys: [String], now: Date = Date()) {
        state.withLock { state in
            for key in keys {
                if state.entries[key] == nil { Self.makeRoom(&state.entries, now: now) }
                state.entries[key, default: Entry(last: now)].failures += 1
                state.entries[key]?.last = now
            }
        }
    }

    public func recordSuccess(keys: [String]) {
        state.withLock { state in
            for key in keys { state.entries[key] = nil }
        }
    }

    /// Drops the entry idle longest when the table is full.
    private static func makeRoom(_ entries: inout [String: Entry], now: Date) {
        guard entries.count >= maxEntries else { return }
        let idle = entries.filter { $0.value.inFlight == 0 }
        if let oldest = idle.min(by: { $0.value.last < $1.value.last })?.key { entries[oldest] = nil }
    }

    /// An attempt in flight: the keys it holds a reservation on, and which of them a
    /// success clears.
    public struct Attempt: Sendable {
        let keys: [String]
        let clearedBySuccess: [String]
        /// The pair a success makes known to the account (exempt from its ceiling).
        var known: String? = nil
    }

    /// Reserves an attempt on `keys`, waiting while only attempts in flight stand in the way;
    /// throws when a key is delayed by real failures.
    public func begin(keys: [String], clearedBySuccess: [String] = []) async throws(Refusal) -> Attempt {
        try await begin(keys: keys, clearedBySuccess: clearedBySuccess, ceiling: nil)
    }

    func begin(keys: [String], clearedBySuccess: [String], ceiling: Ceiling?) async throws(Refusal) -> Attempt {
        while true {
            // Deciding and queueing happen under one lock, so no finish can slip between them.
            let decision: Decision = await withCheckedContinuation { continuation in
                let decided = state.withLock { state -> Decision? in
                    let now = clock.now()
                    var waits = false
                    var longest: TimeInterval = 0
                    for key in keys {
                        if let entry = state.entries[key], Self.expired(entry, now: now) { state.entries[key] = nil }
                        if let ceiling, key == ceiling.key, Self.exempt(ceiling, &state, now: now) { continue }
                        switch Self.decide(state.entries[key], key: key, now: now) {
                        case .go: break
                        case .wait: waits = true
                        case .refuse(let remaining): longest = max(longest, remaining)
                        }
                    }
                    if longest > 0 { return .refuse(longest) }
                    if waits {
                        state.waiters.append(continuation)
                        return nil
                    }
                    for key in keys {
                        if state.entries[key] == nil { Self.makeRoom(&state.entries, now: now) }
                        state.entries[key, default: Entry(last: now)].inFlight += 1
                    }
                    return .go
                }
                if let decided { continuation.resume(returning: decided) }
            }
            switch decision {
            case .go: return Attempt(keys: keys, clearedBySuccess: clearedBySuccess, known: ceiling?.pair)
            case .refuse(let remaining): throw Refusal(seconds: Int(remaining.rounded(.up)))
            case .wait: continue
            }
        }
    }

    /// Ends an attempt: a failure counts on every key, a success clears its own keys, and
    /// nil (the check could not be made, e.g. the database failed) only releases it.
    public func finish(_ attempt: Attempt, success: Bool?, now: Date? = nil) {
        let now = now ?? clock.now()
        let waiters = state.withLock { state -> [CheckedContinuation<Decision, Never>] in
            if success == true, let pair = attempt.known {
                if state.known[pair] == nil && state.known.count >= Self.maxKnown,
                    let oldest = state.known.min(by: { $0.value < $1.value })?.key
                {
                    state.known[oldest] = nil
                }
                state.known[pair] = now
            }
            for key in attempt.keys {
                guard var entry = state.entries[key] else { continue }
                entry.inFlight = max(0, entry.inFlight - 1)
                if success == false {
                    entry.failures += 1
                    entry.last = now
                } else if success == true && attempt.clearedBySuccess.contains(key) {
                    entry.failures = 0
                }
                state.entries[key] = entry.failures == 0 && entry.inFlight == 0 ? nil : entry
            }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: .wait) }
    }

    /// A login attempt on one account (or on none, for a resume token) from one address.
    public func start(accountKey: String?, address: String) async throws(Refusal) -> Attempt {
        let group = "addr:" + AddressGroup.key(address)
        guard let accountKey else { return try await begin(keys: [group]) }
        let pair = "pair:\(accountKey)@\(AddressGroup.key(address))"
        let account = "acct:" + accountKey
        return try await begin(
            keys: [pair, account, group], clearedBySuccess: [pair], ceiling: Ceiling(key: account, pair: pair))
    }

    public struct Refusal: Error, Sendable {
        public let seconds: Int
    }
}
