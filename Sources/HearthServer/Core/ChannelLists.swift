import Foundation
import HearthProtocol

/// A channel's mask lists: bans (+b), ban exceptions (+e) and invite exceptions (+I).
/// A mask is a `nick!user@host` glob or an extban: `a:ACCOUNT` (also `$a:ACCOUNT`; a bare `$a`
/// is anyone logged in) matches an account, and a ban `m:MASK` mutes instead of keeping out.
struct ChannelLists {
    struct Entry {
        var mask: String
        var setBy: String
        var at: Date
        /// Set by an IRC operator of this node, who sees real addresses (WHOIS 338): only such
        /// a mask also matches `nick!user@address`. Anyone else's matches the cloak alone, or
        /// a chanop could ban `*!*@82.*` and watch who is refused, digit by digit.
        var byOper = false
    }

    /// The list modes, with the numerics that list them.
    static let modes: [Character: (item: Numeric, end: Numeric, name: String)] = [
        "b": (.banList, .endOfBanList, "channel ban list"),
        "e": (.exceptList, .endOfExceptList, "channel exception list"),
        "I": (.invexList, .endOfInvexList, "channel invite list"),
    ]
    /// Extban types: account and mute.
    static let extbanTypes = "am"

    private(set) var entries: [Character: [Entry]] = [:]

    subscript(mode: Character) -> [Entry] { entries[mode] ?? [] }

    /// Adds a mask (already normalized) unless it is there; false when it was. An operator
    /// setting a mask already there makes it theirs (matching the real address too).
    mutating func add(_ mode: Character, _ entry: Entry) -> Bool {
        if let index = self[mode].firstIndex(where: { IRCNames.fold($0.mask) == IRCNames.fold(entry.mask) }) {
            if entry.byOper { entries[mode]![index].byOper = true }
            return false
        }
        entries[mode, default: []].append(entry)
        return true
    }

    /// Removes a mask; false when it was not there.
    mutating func remove(_ mode: Character, _ mask: String) -> Bool {
        guard let index = self[mode].firstIndex(where: { IRCNames.fold($0.mask) == IRCNames.fold(mask) }) else {
            return false
        }
        entries[mode]!.remove(at: index)
        return true
    }

    /// A mask as typed, completed: `bob` → `bob!*@*`, `m:bob` → `m:bob!*@*`; account masks
    /// (`$a` included) stay.
    static func normalize(_ raw: String) -> String {
        if let (type, rest) = extban(raw) {
            return type == "m" ? "m:" + normalize(rest) : raw
        }
        return IRCNames.normalizeMask(raw)
    }

    /// Kept out: a ban (not a mute) matches and no exception does.
    func bans(_ user: Identity) -> Bool {
        self["b"].contains { !Self.isMute($0.mask) && Self.matches($0, user) } && !excepted(user)
    }

    /// May not speak: a mute matches and no exception does.
    func mutes(_ user: Identity) -> Bool {
        self["b"].contains { Self.isMute($0.mask) && Self.matches($0, user) } && !excepted(user)
    }

    /// May join a +i channel without an invitation.
    func invites(_ user: Identity) -> Bool { self["I"].contains { Self.matches($0, user) } }

    private func excepted(_ user: Identity) -> Bool { self["e"].contains { Self.matches($0, user) } }

    /// Who a mask is matched against.
    struct Identity {
        var prefix: String
        var account: String?
        /// The real address when the host shown is a cloak: a mask an operator set (they see
        /// the address in WHOIS) matches `nick!user@address` too; nobody else's does.
        var address: String? = nil

        /// `nick!user@address`, made only when a mask did not match the cloaked prefix.
        var addressPrefix: String? {
            guard let address, let at = prefix.lastIndex(of: "@") else { return nil }
            return prefix[...at] + address
        }
    }

    static func isMute(_ mask: String) -> Bool { extban(mask)?.type == "m" }

    static func matches(_ entry: Entry, _ user: Identity) -> Bool {
        matches(entry.mask, user, realAddress: entry.byOper)
    }

    /// With `realAddress` (an operator's mask), a hostmask matches the real address too.
    static func matches(_ mask: String, _ user: Identity, realAddress: Bool) -> Bool {
        guard let (type, rest) = extban(mask) else {
            if IRCNames.globMatch(mask, user.prefix) { return true }
            guard realAddress, let prefix = user.addressPrefix else { return false }
            return IRCNames.globMatch(mask, prefix)
        }
        switch type {
        case "a": return user.account.map { IRCNames.globMatch(rest, $0) } ?? false
        case "m": return matches(rest, user, realAddress: realAddress)
        default: return false
        }
    }

    /// `a:rest`, `$a:rest` or `m:rest` → (type, rest), a bare `$a` → (a, `*`); nil for a hostmask.
    private static func extban(_ mask: String) -> (type: Character, rest: String)? {
        if mask == "$a" { return ("a", "*") }
        let body = mask.hasPrefix("$") ? mask.dropFirst() : mask[...]
        guard body.count >= 2, let type = body.first, extbanTypes.contains(type),
            body[body.index(after: body.startIndex)] == ":"
        else { return nil }
        return (type, String(body.dropFirst(2)))
    }
}
