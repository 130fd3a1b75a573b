import Foundation

/// A page of people, in name order; `next` is the cursor for the following page.
public struct PeoplePage: Sendable {
    public var names: [String]
    public var next: String?
}

public enum FollowResult: Sendable, Equatable { case followed, alreadyFollowing, blocked }

public enum PeopleList: Sendable { case followers, following, friends, blocked }

/// What a profile counts, read in one look (one query on PostgreSQL, one read on SQLite):
/// the profile shows a line per app, and a round trip per number made it slow.
public struct ProfileTally: Sendable, Equatable {
    public var followers = 0
    public var following = 0
    public var memes = 0
    public var fortunes = 0
    public var points = 0
    public var recipes = 0

    public init(
        followers: Int = 0, following: Int = 0, memes: Int = 0, fortunes: Int = 0, points: Int = 0, recipes: Int = 0
    ) {
        (self.followers, self.following, self.memes) = (followers, following, memes)
        (self.fortunes, self.points, self.recipes) = (fortunes, points, recipes)
    }
}

/// The line a new meme or recipe adds to followers' feeds is written before the item has an
/// id: the store puts the id where the text says `#ID`.
public enum FeedText {
    public static let idMark = "#ID"

    public static func filled(_ template: String, id: Int64) -> String {
        template.replacingOccurrences(of: idMark, with: "#\(id)")
    }
}

/// One line of someone's activity, for `!feed`.
public struct ActivityItem: Sendable {
    public var id: Int64
    public var actor: String
    public var kind: String
    public var text: String
    /// The name of the account the activity is about (for follows), if any.
    public var subjectName: String?
    public var createdAt: Date
}

/// The social part of the store, the same on every engine.
public protocol SocialStore: Sendable {
    func follow(_ follower: Int64, _ followee: Int64, now: Date) async throws -> FollowResult

    func unfollow(_ follower: Int64, _ followee: Int64) async throws -> Bool

    /// Blocks and removes follows in both directions, in one transaction.
    func block(_ blocker: Int64, _ blocked: Int64, now: Date) async throws -> Bool

    func unblock(_ blocker: Int64, _ blocked: Int64) async throws -> Bool

    /// Accounts that `accountID` blocks.
    func blockedIDs(by accountID: Int64) async throws -> Set<Int64>

    /// Accounts that block `accountID`.
    func blockerIDs(of accountID: Int64) async throws -> Set<Int64>

    /// Accounts `accountID` follows.
    func followingIDs(of accountID: Int64) async throws -> Set<Int64>

    func isBlocked(_ blocked: Int64, by blocker: Int64) async throws -> Bool

    /// One page of a person list, keyset-paged by name (`after` is the last name seen).
    func people(_ list: PeopleList, of accountID: Int64, after: String?) async throws -> PeoplePage

    /// People whose name starts with `prefix` (case-insensitive), keyset-paged by name.
    func findPeople(prefix: String, after: String?) async throws -> PeoplePage

    func profileTally(of accountID: Int64) async throws -> ProfileTally

    func follows(_ follower: Int64, _ followee: Int64) async throws -> Bool

    func setBio(_ accountID: Int64, _ bio: String) async throws

    func settings(_ accountID: Int64) async throws -> [String: String]

    func setSetting(_ accountID: Int64, key: String, value: String) async throws

    /// The account's profile fields (`ProfileFields`), key to value.
    func profileFields(_ accountID: Int64) async throws -> [String: String]

    /// Sets a profile field, or removes it (`value` nil). False, with nothing changed, when it
    /// would be one field more than `ProfileFields.maxFields`.
    func setProfileField(_ accountID: Int64, key: String, value: String?) async throws -> Bool

    /// Activity of the people `accountID` follows, newest first, keyset-paged by id; `more`
    /// says whether anything older is left (one row past the page is read to know).
    func feed(for accountID: Int64, before: Int64?) async throws -> (items: [ActivityItem], more: Bool)
}

extension SocialStore {
    public func follow(_ follower: Int64, _ followee: Int64) async throws -> FollowResult {
        try await follow(follower, followee, now: Date())
    }

    public func block(_ blocker: Int64, _ blocked: Int64) async throws -> Bool {
        try await block(blocker, blocked, now: Date())
    }
}
