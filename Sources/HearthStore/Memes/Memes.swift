import Foundation

public struct MemeRecord: Codable, Sendable, Equatable {
    public var accountId: Int64
    public var imageId: String
    public var source: String
    public var caption: String
    public var likes = 0
    public var favs = 0
    public var comments = 0
    public var createdAt: Date

    public init(accountId: Int64, imageId: String, source: String, caption: String, createdAt: Date = Date()) {
        (self.accountId, self.imageId, self.source, self.caption, self.createdAt) = (
            accountId, imageId, source, caption, createdAt
        )
    }
}

/// A meme with its author's name and image format, for listing.
public struct MemeRow: Sendable, Equatable {
    public var meme: Stored<MemeRecord>
    public var author: String
    public var format: String
}

public enum Reaction: String, Sendable { case like, fav }

/// The memes part of the store, the same on every engine.
public protocol MemeStore: Sendable {
    /// Saves a meme and tells the author's followers (their `!feed`).
    func addMeme(_ meme: MemeRecord, feedText: String) async throws -> Stored<MemeRecord>

    func meme(id: Int64) async throws -> MemeRow?

    /// A user's memes, newest first (page 1 first), and how many there are.
    func memes(of accountID: Int64, page: Int, pageSize: Int) async throws -> (memes: [MemeRow], total: Int)

    /// Deletes a meme if `accountID` made it; its likes, favourites and comments go with it.
    func deleteMeme(id: Int64, by accountID: Int64) async throws -> Bool

    /// Likes or favourites a meme (or takes it back). Idempotent; the count changes with the mark,
    /// atomically, so it stays exact however many people click at once.
    /// Returns whether anything changed and the new count; nil when there is no such meme.
    /// Throws `StoreError.notFound` when the account is gone (deleted meanwhile).
    func react(_ reaction: Reaction, memeID: Int64, accountID: Int64, on: Bool, now: Date) async throws -> (
        changed: Bool, count: Int
    )?

    func hasReacted(_ reaction: Reaction, memeID: Int64, accountID: Int64) async throws -> Bool

    /// The memes `accountID` favourited, newest favourite first.
    func favourites(of accountID: Int64, page: Int) async throws -> (memes: [MemeRow], total: Int)

    /// Recent memes for trending, without those of people who block `viewer` or whom it
    /// blocks, and only from authors whose lists are public or who are the viewer's friends.
    func recentMemes(for viewer: Int64?, since: Date) async throws -> [MemeRow]

    /// Whether `viewer` may see `owner`'s lists: themselves, public accounts, or mutual
    /// friends — never when either blocks the other.
    func mayViewLists(of owner: Int64, viewer: Int64?) async throws -> Bool

    /// Whether either account blocks the other.
    func eitherBlocks(_ a: Int64, _ b: Int64) async throws -> Bool
}

extension MemeStore {
    public func memes(of accountID: Int64, page: Int) async throws -> (memes: [MemeRow], total: Int) {
        try await memes(of: accountID, page: page, pageSize: StoreLimits.memePageSize)
    }

    public func react(_ reaction: Reaction, memeID: Int64, accountID: Int64, on: Bool) async throws -> (
        changed: Bool, count: Int
    )? {
        try await react(reaction, memeID: memeID, accountID: accountID, on: on, now: Date())
    }
}
