import Foundation

public struct FamilyRecord: Codable, Sendable, Equatable {
    public var name: String
    public var founderId: Int64
    /// The family its founder left home from (`!tree independent`), if any.
    public var parentFamilyId: Int64?
    public var createdAt: Date

    public init(name: String, founderId: Int64, parentFamilyId: Int64? = nil, createdAt: Date = Date()) {
        (self.name, self.founderId, self.parentFamilyId, self.createdAt) = (name, founderId, parentFamilyId, createdAt)
    }
}

public struct FamilyMember: Sendable, Equatable {
    public var accountId: Int64
    public var name: String
    public var role: FamilyRole
    public var joinedAt: Date

    public init(accountId: Int64, name: String, role: FamilyRole, joinedAt: Date) {
        (self.accountId, self.name, self.role, self.joinedAt) = (accountId, name, role, joinedAt)
    }
}

/// A relationship inside a family (see `FamilyLinkKind`) between members (account ids) or
/// people who are not users (`FamilyPerson.treeID`, negative).
public struct FamilyLink: Sendable, Equatable, Hashable {
    public var from: Int64
    public var to: Int64
    public var kind: FamilyLinkKind
    /// For partners: when and where they married (a date as `FamilyPersonRules.date` reads).
    public var date: String?
    public var place: String?

    public init(from: Int64, to: Int64, kind: FamilyLinkKind, date: String? = nil, place: String? = nil) {
        (self.from, self.to, self.kind, self.date, self.place) = (from, to, kind, date, place)
    }
}

/// An open invite. No part of the code is kept in the clear (a hint would shrink the
/// search); invites are told apart by their number.
public struct FamilyInvite: Sendable, Equatable {
    /// The row's number, shown in `!tree invites` and accepted by `!tree revoke`.
    public var id: Int64
    public var codeHash: String
    public var familyId: Int64
    public var inviterId: Int64
    public var relation: FamilyRelation?
    public var expiresAt: Date

    public init(
        id: Int64 = 0, codeHash: String, familyId: Int64, inviterId: Int64, relation: FamilyRelation?, expiresAt: Date
    ) {
        (self.id, self.codeHash, self.familyId, self.inviterId, self.relation, self.expiresAt) =
            (id, codeHash, familyId, inviterId, relation, expiresAt)
    }
}

/// What became of a family one of whose members deleted their account. A family stays while
/// someone is in it: when its founder goes, the founder's role passes to the longest-standing
/// remaining member (an admin before others; ties to whoever has the older account). A family
/// nobody is left in is removed, with its feed.
public struct FamilyDeparture: Sendable, Equatable {
    public var familyId: Int64
    public var name: String
    /// The member who became founder (only when the deleted account had founded it).
    public var newFounderId: Int64?
    /// Nobody was left: the family, its feed, links and invites are gone.
    public var removed: Bool

    public init(familyId: Int64, name: String, newFounderId: Int64? = nil, removed: Bool = false) {
        (self.familyId, self.name, self.newFounderId, self.removed) = (familyId, name, newFounderId, removed)
    }
}

public enum FamilyError: Error, Equatable, Sendable {
    case notFound, alreadyMember, wouldCycle, selfLink, notMember, founderMustStay
    /// The account founded as many families as one may.
    case foundedTooMany
}

/// A post on a family's feed: text (with an optional picture) or an event on a date.
public struct FamilyPost: Codable, Sendable, Equatable {
    public var familyId: Int64
    public var accountId: Int64
    public var kind: String  // text, event
    public var text: String
    public var imageId: String?
    public var eventDate: String?
    public var likes = 0
    public var comments = 0
    public var createdAt: Date

    public init(
        familyId: Int64, accountId: Int64, kind: String, text: String, imageId: String?, eventDate: String?,
        createdAt: Date
    ) {
        (self.familyId, self.accountId, self.kind, self.text, self.imageId, self.eventDate, self.createdAt) =
            (familyId, accountId, kind, text, imageId, eventDate, createdAt)
    }
}

/// The families part of the store, the same on every engine.
public protocol FamilyStore: Sendable {
    /// Families the account belongs to, the one it joined or founded last first.
    func families(of accountID: Int64) async throws -> [Stored<FamilyRecord>]

    func family(id: Int64) async throws -> Stored<FamilyRecord>?

    /// Founds a family with the account as founder (and, for independence, its parent family).
    /// Founds a family, unless the account founded `maxFounded` that still exist.
    func foundFamily(name: String, founderID: Int64, parentFamilyID: Int64?, maxFounded: Int, now: Date) async throws
        -> Stored<FamilyRecord>

    func familyMembers(_ familyID: Int64) async throws -> [FamilyMember]

    func familyRole(_ familyID: Int64, accountID: Int64) async throws -> FamilyRole?

    /// Makes a member an admin or a plain member again: false when they are not in the family or
    /// are its founder (whose role only passes on when they go).
    func setFamilyRole(_ familyID: Int64, accountID: Int64, to role: FamilyRole) async throws -> Bool

    func familyLinks(_ familyID: Int64) async throws -> [FamilyLink]

    /// Adds a relationship between two of the family's people (members, or people who are not
    /// users). Parents may not form a cycle, and nobody is linked to themselves. A partner link
    /// given again takes the new marriage date and place.
    func link(_ familyID: Int64, from: Int64, to: Int64, kind: FamilyLinkKind, date: String?, place: String?)
        async throws

    /// Adds a person (unless the family holds `FamilyPersonRules.maxPeople`): one who is not a
    /// user, or with `accountId` a member's own facts (one such row per member).
    func addFamilyPerson(_ person: FamilyPerson) async throws -> FamilyPerson

    /// Imports a file's people and ties in one transaction, under the family's lock: people
    /// already in the tree are found (`FamilyImport.match`), the rest added unless the family
    /// would pass `FamilyPersonRules.maxPeople` (`FamilyPersonError.tooManyToImport`: nothing is
    /// written), and each tie decided as `link` decides it (`FamilyImport.links`).
    func importFamily(
        _ familyID: Int64, people: [FamilyImport.Person], ties: [FamilyImport.Tie], by accountID: Int64?, now: Date
    ) async throws -> FamilyImport.Outcome

    /// The family's people, claimed ones included, by number.
    func familyPeople(_ familyID: Int64) async throws -> [FamilyPerson]

    /// Writes a person's name, dates, places and claimant.
    func updateFamilyPerson(_ person: FamilyPerson) async throws

    /// Removes a person who is not a user, with their links; false when there is none.
    func removeFamilyPerson(id: Int64, familyID: Int64) async throws -> Bool

    /// The member becomes the person: the person's links move to the account (each checked
    /// again: a link between the two is refused, `selfLink`); `FamilyPersonError` otherwise.
    func claimFamilyPerson(id: Int64, familyID: Int64, accountID: Int64) async throws

    func addFamilyInvite(_ invite: FamilyInvite, now: Date) async throws -> Int64

    func familyInvites(_ familyID: Int64, now: Date) async throws -> [FamilyInvite]

    /// Takes an open invite with one of these code hashes out, for `joinFamily(invite:)`: a
    /// registration claims it before the account exists, so two cannot both use it. Nil when
    /// none is open. Giving it back is `addFamilyInvite` with what this returned.
    func takeFamilyInvite(codeHashes: [String], now: Date) async throws -> FamilyInvite?

    /// Cancels an open invite of the family, named by its number or by its code's hashes.
    func revokeFamilyInvite(id: Int64?, codeHashes: [String], familyID: Int64) async throws -> Bool

    /// Uses up an invite: the account joins with the relationship the inviter chose. The code
    /// works once; an expired or unknown one throws `notFound`.
    func joinFamily(codeHashes: [String], accountID: Int64, now: Date) async throws -> (
        family: Stored<FamilyRecord>, relation: FamilyRelation?, inviter: Int64
    )

    /// The account joins with an invite already taken (`takeFamilyInvite`); `notFound` when the
    /// family is gone since.
    func joinFamily(invite: FamilyInvite, accountID: Int64, now: Date) async throws -> Stored<FamilyRecord>

    /// Takes a member out of a family with their links (the founder cannot leave).
    func leaveFamily(_ familyID: Int64, accountID: Int64) async throws

    /// Every family's members (to guard the families' private channels).
    func allFamilies() async throws -> [Stored<FamilyRecord>]

    func allFamilyMembers() async throws -> [Int64: Set<Int64>]

    func familyMemberIDs(_ familyID: Int64) async throws -> Set<Int64>

    /// Families founded by members who left home from `familyID`.
    func childFamilies(of familyID: Int64) async throws -> [Stored<FamilyRecord>]

    func addFamilyPost(_ post: FamilyPost) async throws -> Stored<FamilyPost>

    func familyPost(id: Int64) async throws -> Stored<FamilyPost>?

    func familyPosts(_ familyID: Int64, page: Int) async throws -> (posts: [(Stored<FamilyPost>, String)], total: Int)

    /// Likes a post (or takes it back); idempotent, the count changes with the mark, atomically.
    /// Nil when there is no such post; `StoreError.notFound` when the account is gone.
    func likePost(_ postID: Int64, accountID: Int64, on: Bool) async throws -> (changed: Bool, count: Int)?

    /// Which of `postIDs` `accountID` likes (what a page's Like buttons show).
    func likedPosts(_ postIDs: [Int64], accountID: Int64) async throws -> Set<Int64>

    /// The family's newest posts with a picture, at most `limit`, with their authors' names.
    func familyPicturePosts(_ familyID: Int64, limit: Int) async throws -> [(Stored<FamilyPost>, String)]

    /// Records that the family's `day` (YYYY-MM-DD, in its time zone) was announced: true for
    /// the first to record it, false ever after (on any node, after any restart).
    func claimFamilyDay(_ familyID: Int64, day: String, now: Date) async throws -> Bool

    /// Posts of the family on this month and day (`MM-DD`) of an earlier year than `year`: events
    /// dated so, and posts written then (by the UTC day), oldest first, at most `limit`.
    func familyPostsOnThisDay(_ familyID: Int64, monthDay: String, year: Int, limit: Int) async throws
        -> [(Stored<FamilyPost>, String)]
}

extension FamilyStore {
    public func foundFamily(name: String, founderID: Int64) async throws -> Stored<FamilyRecord> {
        try await foundFamily(name: name, founderID: founderID, parentFamilyID: nil, maxFounded: .max, now: Date())
    }

    public func foundFamily(name: String, founderID: Int64, parentFamilyID: Int64?) async throws -> Stored<FamilyRecord>
    {
        try await foundFamily(
            name: name, founderID: founderID, parentFamilyID: parentFamilyID, maxFounded: .max, now: Date())
    }

    public func foundFamily(name: String, founderID: Int64, maxFounded: Int) async throws -> Stored<FamilyRecord> {
        try await foundFamily(
            name: name, founderID: founderID, parentFamilyID: nil, maxFounded: maxFounded, now: Date())
    }

    public func foundFamily(name: String, founderID: Int64, now: Date) async throws -> Stored<FamilyRecord> {
        try await foundFamily(name: name, founderID: founderID, parentFamilyID: nil, maxFounded: .max, now: now)
    }

    public func foundFamily(name: String, founderID: Int64, parentFamilyID: Int64?, maxFounded: Int) async throws
        -> Stored<FamilyRecord>
    {
        try await foundFamily(
            name: name, founderID: founderID, parentFamilyID: parentFamilyID, maxFounded: maxFounded, now: Date())
    }

    public func foundFamily(name: String, founderID: Int64, parentFamilyID: Int64?, now: Date) async throws
        -> Stored<FamilyRecord>
    {
        try await foundFamily(
            name: name, founderID: founderID, parentFamilyID: parentFamilyID, maxFounded: .max, now: now)
    }

    public func foundFamily(name: String, founderID: Int64, maxFounded: Int, now: Date) async throws -> Stored<
        FamilyRecord
    > {
        try await foundFamily(name: name, founderID: founderID, parentFamilyID: nil, maxFounded: maxFounded, now: now)
    }

    public func link(_ familyID: Int64, from: Int64, to: Int64, kind: FamilyLinkKind) async throws {
        try await link(familyID, from: from, to: to, kind: kind, date: nil, place: nil)
    }

    public func addFamilyInvite(_ invite: FamilyInvite) async throws -> Int64 {
        try await addFamilyInvite(invite, now: Date())
    }

    public func familyInvites(_ familyID: Int64) async throws -> [FamilyInvite] {
        try await familyInvites(familyID, now: Date())
    }

    public func joinFamily(codeHashes: [String], accountID: Int64) async throws -> (
        family: Stored<FamilyRecord>, relation: FamilyRelation?, inviter: Int64
    ) {
        try await joinFamily(codeHashes: codeHashes, accountID: accountID, now: Date())
    }
}
