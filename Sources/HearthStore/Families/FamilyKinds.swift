/// A member's standing in a family.
public enum FamilyRole: String, Sendable, CaseIterable {
    case founder, admin, member
}

/// What an invite makes the one who takes it, seen from the inviter (`!tree invite as parent`:
/// the newcomer is the inviter's parent).
public enum FamilyRelation: String, Sendable, CaseIterable {
    case parent, child, partner, sibling
}

/// A stored relationship: `parent` (from is a parent of to), or the symmetric `partner` and
/// `sibling` (stored with from < to).
public enum FamilyLinkKind: String, Sendable, CaseIterable {
    case parent, partner, sibling
}
