import Foundation
import HearthProtocol
import Synchronization

/// Slows down guessing (passwords, tokens, codes) per key: after a key's free failures,
/// each further attempt must wait a doubling delay. A login counts under three keys — the
/// account from this address (`pair:`), the address (`addr:`, an IPv6 /64 counting as one)
/// and the account from anywhere (`acct:`, a much higher ceiling) — so an attacker who
/// locks out the account on their address does not lock out its owner on another.
///
/// Past the account's ceiling, an address that logged in to the account in the last
/// `knownFor` is never slowed by it, so the owner gets in from home (17 addresses × 3 guesses
/// once closed the account to everyone); nor is a resume token, which never counts on the
/// account. Any other address may still make `freshFailuresPastCeiling` guesses there — the
/// owner's fresh address, with the right password or after a typo — while its network (an
/// IPv4 /24, an IPv6 /48) has made fewer than `freshFailuresPerNetwork` and the account's
/// fresh guesses are fewer than `freshGuessesPerAccount`; past those, the ceiling's delay
/// applies to it. So an attacker with any number of networks gets at most about 90 wrong
/// passwords an hour on one account (docs/SECURITY.md works the bound out). Operators'
/// passwords (`start(operator:address:)`) have no owner to let in: their ceiling holds.
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
    /// Wrong passwords allowed per account from all addresses together before its delay: the
    /// ceiling, which with the fresh-guess limits below bounds a guessing botnet.
    public static let freeFailuresPerAccount = 50
    /// Past the account's ceiling, the failures an address that never logged in to the account
    /// may still make there before the account's delay applies to it too.
    public static let freshFailuresPastCeiling = 2
    /// Past the ceiling, the failures on the account one network (`AddressGroup.network`: an
    /// IPv4 /24, an IPv6 /48, one customer's allocation) may have before its fresh addresses
    /// wait too; failures from before the ceiling count.
    public static let freshFailuresPerNetwork = 4
    /// Past the ceiling, the wrong guesses all fresh addresses together may make on the account
    /// before they wait too; forgotten after `accountForgetAfter` without one.
    public static let freshGuessesPerAccount = 20
    /// The account's failures (the ceiling's count and the fresh guesses') are forgotten after
    /// this long without a new one.
    public static let accountForgetAfter: TimeInterval = 3600
    /// How long an address that logged in to an account stays exempt from its ceiling.
    public static let knownFor: TimeInterval = 30 * 86400
    /// Account-and-address pairs remembered as known at most (oldest dropped).
    public static let maxKnown = 100_000
    /// First delay after the free failures; doubles each time.
    public static let baseDelay: TimeInterval = 2
    public static let maxDelay: TimeInterval = 300
    /// A key's failures are forgotten after this long without a new one (the account's:
    /// `accountForgetAfter`).
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
        /// Account-and-address-group pairs that logged in, and when they last did.
        var known = KnownAddresses(capacity: LoginThrottle.maxKnown)
        /// Attempts waiting for attempts in flight to finish (resumed to look again).
        var waiters: [CheckedContinuation<Decision, Never>] = []
    }

    private let state = Mutex(State())
    private let clock: HearthClock

    public init(clock: HearthClock = .system) { self.clock = clock }

    /// The account's ceiling, as it applies to one attempt: `key` (the `acct:` one) is set
    /// aside for a known pair, and for a fresh one within its limits (see `exemption`).
    struct Ceiling: Sendable {
        let account: String
        let group: String
        /// The network's failures on the account: counted, never deciding by itself.
        let network: String
        var key: String { "acct:" + account }
        var pair: String { "pair:\(account)@\(group)" }
        /// The account's fresh guesses past the ceiling: counted only on attempts let in as fresh.
        var budget: String { "fresh:" + account }

        init(account: String, address: String) {
            self.account = account
            group = AddressGroup.key(address)
            network = "net:\(account)@" + AddressGroup.network(address)
        }
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

        var isGo: Bool {
            if case .go = self { return true }
            return false
        }
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

    private static func expired(_ entry: Entry, key: String, now: Date) -> Bool {
        let quiet = key.hasPrefix("acct:") || key.hasPrefix("fresh:") ? accountForgetAfter : forgetAfter
        return entry.inFlight == 0 && now.timeIntervalSince(entry.last) > quiet
    }

    /// A key's failures and attempts in flight, once expired ones are dropped (under the lock).
    private static func used(_ key: String, _ state: inout State, now: Date) -> Int {
        guard let entry = state.entries[key] else { return 0 }
        if expired(entry, key: key, now: now) {
            state.entries[key] = nil
            return 0
        }
        return entry.failures + entry.inFlight
    }

    enum Exemption {
        /// The pair logged in within `knownFor`.
        case known
        /// A fresh address within its own, its network's and the account's fresh limits.
        case fresh
    }

    /// Whether the ceiling is set aside for this attempt, and why (under the lock).
    private static func exemption(_ ceiling: Ceiling, _ state: inout State, now: Date) -> Exemption? {
        if let seen = state.known.lastSeen(account: ceiling.account, group: ceiling.group) {
            if now.timeIntervalSince(seen) <= knownFor { return .known }
            state.known.forget(account: ceiling.account, group: ceiling.group)
        }
        let fresh =
            used(ceiling.pair, &state, now: now) < freshFailuresPastCeiling
            && used(ceiling.network, &state, now: now) < freshFailuresPerNetwork
            && used(ceiling.budget, &state, now: now) < freshGuessesPerAccount
        return fresh ? .fresh : nil
    }

    /// Seconds to wait before another attempt with these keys, or nil if allowed now
    /// (attempts in flight are not counted here).
    public func waitTime(keys: [String], now: Date = Date()) -> TimeInterval? {
        state.withLock { state in
            var longest: TimeInterval = 0
            for key in keys {
                guard var entry = state.entries[key] else { continue }
                if Self.expired(entry, key: key, now: now) {
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
        /// The account and address group a success makes known (exempt from its ceiling).
        var known: (account: String, group: String)? = nil
    }

    /// Reserves an attempt on `keys`, waiting while only attempts in flight stand in the way;
    /// throws when a key is delayed by real failures.
    public func begin(keys: [String], clearedBySuccess: [String] = []) async throws(Refusal) -> Attempt {
        try await begin(keys: keys, clearedBySuccess: clearedBySuccess, ceiling: nil)
    }

    func begin(keys: [String], clearedBySuccess: [String], ceiling: Ceiling?) async throws(Refusal) -> Attempt {
        while true {
            // Deciding and queueing happen under one lock, so no finish can slip between them.
            var counted = keys  // and the account's fresh guesses, when this one is one
            let decision: Decision = await withCheckedContinuation { continuation in
                let decided = state.withLock { state -> Decision? in
                    let now = clock.now()
                    var waits = false
                    var longest: TimeInterval = 0
                    counted = keys
                    for key in keys {
                        if let entry = state.entries[key], Self.expired(entry, key: key, now: now) {
                            state.entries[key] = nil
                        }
                        if key == ceiling?.network { continue }
                        var decision = Self.decide(state.entries[key], key: key, now: now)
                        if let ceiling, key == ceiling.key, !decision.isGo {
                            switch Self.exemption(ceiling, &state, now: now) {
                            case .known: decision = .go
                            case .fresh:
                                decision = .go
                                counted.append(ceiling.budget)
                            case nil: break
                            }
                        }
                        switch decision {
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
                    for key in counted {
                        if state.entries[key] == nil { Self.makeRoom(&state.entries, now: now) }
                        state.entries[key, default: Entry(last: now)].inFlight += 1
                    }
                    return .go
                }
                if let decided { continuation.resume(returning: decided) }
            }
            switch decision {
            case .go:
                let known = ceiling.map { (account: $0.account, group: $0.group) }
                return Attempt(keys: counted, clearedBySuccess: clearedBySuccess, known: known)
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
            if success == true, let known = attempt.known {
                state.known.remember(account: known.account, group: known.group, at: now)
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
        let ceiling = Ceiling(account: accountKey, address: address)
        return try await begin(
            keys: [ceiling.pair, ceiling.key, ceiling.network, group], clearedBySuccess: [ceiling.pair],
            ceiling: ceiling)
    }

    /// An `OPER` attempt: counted like a login, but its ceiling is never set aside — there is
    /// no owner to let in from a fresh address, and operators' addresses are not remembered.
    public func start(operator name: String, address: String) async throws(Refusal) -> Attempt {
        let group = AddressGroup.key(address)
        let pair = "pair:oper:\(name)@\(group)"
        return try await begin(keys: [pair, "acct:oper:" + name, "addr:" + group], clearedBySuccess: [pair])
    }

    /// Remembers that the account logged in from this address some other way than a password
    /// (a resume token, a web session), so its ceiling does not slow the owner there.
    public func markKnown(accountKey: String, address: String) {
        let now = clock.now()
        state.withLock { $0.known.remember(account: accountKey, group: AddressGroup.key(address), at: now) }
    }

    /// Whether the account logged in from this address within `knownFor`.
    public func isKnown(accountKey: String, address: String) -> Bool {
        let now = clock.now()
        return state.withLock {
            guard let seen = $0.known.lastSeen(account: accountKey, group: AddressGroup.key(address)) else {
                return false
            }
            return now.timeIntervalSince(seen) <= Self.knownFor
        }
    }

    /// Forgets every address the account logged in from (its password was reset, it was
    /// renamed or deleted): a thief's address must not stay exempt.
    public func forgetKnown(accountKey: String) {
        state.withLock { $0.known.forget(account: accountKey) }
    }

    public struct Refusal: Error, Sendable {
        public let seconds: Int
    }
}
