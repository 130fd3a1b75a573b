import Foundation

/// Which address groups logged in to which account, and when they last did: at most
/// `capacity` pairs, the one seen longest ago dropped first in O(1) amortised (a queue in the
/// order of sightings; a pair seen again is queued again and its older place skipped).
/// Kept in memory only (see docs/SECURITY.md): a restart forgets them.
struct KnownAddresses {
    struct Sighting {
        var at: Date
        var serial: Int
    }

    let capacity: Int
    /// "account@group" → its last sighting.
    private var seen: [String: Sighting] = [:]
    /// Each account's groups, so a password reset forgets them all at once.
    private var groups: [String: Set<String>] = [:]
    /// Sightings in order; a place whose serial is no longer the pair's is stale.
    private var order: [(pair: String, account: String, group: String, serial: Int)] = []
    private var head = 0
    private var serial = 0

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { seen.count }

    func lastSeen(account: String, group: String) -> Date? { seen[account + "@" + group]?.at }

    mutating func remember(account: String, group: String, at now: Date) {
        let pair = account + "@" + group
        if seen[pair] == nil {
            while seen.count >= capacity, dropOldest() {}
            groups[account, default: []].insert(group)
        }
        serial += 1
        seen[pair] = Sighting(at: now, serial: serial)
        order.append((pair, account, group, serial))
        compact()
    }

    mutating func forget(account: String, group: String) {
        seen[account + "@" + group] = nil
        groups[account]?.remove(group)
        if groups[account]?.isEmpty == true { groups[account] = nil }
    }

    /// Forgets every group of the account (its password was reset).
    mutating func forget(account: String) {
        for group in groups.removeValue(forKey: account) ?? [] { seen[account + "@" + group] = nil }
    }

    /// Drops the pair seen longest ago; false when there is none.
    private mutating func dropOldest() -> Bool {
        while head < order.count {
            let place = order[head]
            head += 1
            if seen[place.pair]?.serial == place.serial {
                forget(account: place.account, group: place.group)
                return true
            }
        }
        return false
    }

    /// Removes stale places once they outnumber live pairs: linear, once per as many sightings.
    private mutating func compact() {
        guard order.count > 2 * max(seen.count, 16) else { return }
        order = order[head...].filter { seen[$0.pair]?.serial == $0.serial }
        head = 0
    }
}
