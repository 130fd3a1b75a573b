import Foundation

/// The families' rules, written once for every engine. An engine reads what a rule needs inside
/// its own transaction, under its own locks, and writes what the rule decided: GRDB runs a
/// transaction as one synchronous closure and postgres-nio as an asynchronous one, so a rule
/// takes the facts it decides on rather than querying for them.
public enum FamilyRules {
    /// Founding is refused once the account founded `maxFounded` families that still exist.
    public static func checkFounding(founded: Int, maxFounded: Int) throws {
        guard founded < maxFounded else { throw FamilyError.foundedTooMany }
    }

    /// The row to store for a relationship: nobody is linked to themselves, both ends are
    /// `members` of the family, and a parent link may not make `to` an ancestor of itself
    /// (`ancestorsOfFrom`: `from` and its parents up the family's tree, read for parent links
    /// only). Partner and sibling are symmetric, stored with from < to.
    public static func link(
        from: Int64, to: Int64, kind: FamilyLinkKind, members: Set<Int64>, ancestorsOfFrom: Set<Int64>,
        date: String? = nil, place: String? = nil
    ) throws -> FamilyLink {
        guard from != to else { throw FamilyError.selfLink }
        guard members.contains(from), members.contains(to) else { throw FamilyError.notMember }
        switch kind {
        case .parent:
            if ancestorsOfFrom.contains(to) { throw FamilyError.wouldCycle }
            return FamilyLink(from: from, to: to, kind: .parent)
        case .partner:
            return FamilyLink(from: min(from, to), to: max(from, to), kind: kind, date: date, place: place)
        case .sibling:
            return FamilyLink(from: min(from, to), to: max(from, to), kind: kind)
        }
    }

    /// Each child's parents in `links` (parent links only), for `ancestors`.
    public static func parents(_ links: [FamilyLink]) -> [Int64: Set<Int64>] {
        var parents: [Int64: Set<Int64>] = [:]
        for link in links where link.kind == .parent { parents[link.to, default: []].insert(link.from) }
        return parents
    }

    /// `id` and its parents up the tree: what `link` reads as `ancestorsOfFrom`, found in memory
    /// (each engine's single link asks its database the same with a recursive query).
    public static func ancestors(of id: Int64, parents: [Int64: Set<Int64>]) -> Set<Int64> {
        var found: Set<Int64> = [id]
        var next = [id]
        while let child = next.popLast() {
            for parent in parents[child] ?? [] where found.insert(parent).inserted { next.append(parent) }
        }
        return found
    }

    /// The relationship an invite makes between the inviter and the newcomer, as a link to
    /// add (before `link` checks it); nil when the invite named none.
    public static func link(for relation: FamilyRelation?, inviter: Int64, newcomer: Int64) -> (
        from: Int64, to: Int64, kind: FamilyLinkKind
    )? {
        switch relation {
        case .parent: (newcomer, inviter, .parent)
        case .child: (inviter, newcomer, .parent)
        case .partner: (inviter, newcomer, .partner)
        case .sibling: (inviter, newcomer, .sibling)
        case nil: nil
        }
    }

    /// Joining is refused to a member.
    public static func checkJoin(alreadyMember: Bool) throws {
        if alreadyMember { throw FamilyError.alreadyMember }
    }

    /// Only a member may leave, and the founder stays (`role`: the account's, nil if none).
    public static func checkLeave(role: FamilyRole?) throws {
        guard let role else { throw FamilyError.notMember }
        if role == .founder { throw FamilyError.founderMustStay }
    }

    /// What becomes of a family when `leaving` deletes their account: if they founded it, the
    /// founder's role passes to the longest-standing of the `others` (an admin before the
    /// rest; ties to the older account), or the family is removed when nobody is left.
    public static func departure(
        familyID: Int64, name: String, founderID: Int64, leaving: Int64, others: [FamilyMember]
    ) -> FamilyDeparture {
        var departure = FamilyDeparture(familyId: familyID, name: name)
        guard founderID == leaving else { return departure }
        func standing(_ m: FamilyMember) -> (Int, Date, Int64) { (m.role == .admin ? 0 : 1, m.joinedAt, m.accountId) }
        let successor = others.filter { $0.accountId != leaving }.min { standing($0) < standing($1) }
        if let successor { departure.newFounderId = successor.accountId } else { departure.removed = true }
        return departure
    }
}
