import Foundation

/// One comment system for every kind of thing people comment on. A kind names the table
/// of its targets, which keeps a `comments` count.
public struct CommentRow: Sendable, Equatable {
    public var id: Int64
    public var author: String
    public var authorId: Int64
    public var text: String
    public var createdAt: Date
}

/// Kinds of things that take comments → the table holding them (with `accountId` and `comments`).
public enum CommentKinds {
    public static let tables: [String: String] = ["meme": "meme", "recipe": "recipe", "post": "familyPost"]
}

/// The comments part of the store, the same on every engine.
public protocol CommentStore: Sendable {
    /// The account that owns a commentable thing, or nil when it does not exist.
    func commentTargetOwner(kind: String, id: Int64) async throws -> Int64?

    /// The new comment's id, and its target's count one up; nil when there is no such thing,
    /// `StoreError.notFound` when the account is gone.
    func addComment(kind: String, targetID: Int64, accountID: Int64, text: String, now: Date) async throws -> Int64?

    /// Comments oldest first, `commentPageSize` a page, hiding people `viewer` blocks or who block them.
    func comments(kind: String, targetID: Int64, page: Int, viewer: Int64?) async throws -> (
        comments: [CommentRow], total: Int
    )

    /// Deletes a comment written by `accountID`; returns its kind and target, or nil.
    func deleteComment(id: Int64, by accountID: Int64) async throws -> (kind: String, targetID: Int64)?

    /// A meme and a page of its comments (as `comments` gives them), read together as its page
    /// shows them; nil when there is no such meme.
    func memeWithComments(id: Int64, page: Int, viewer: Int64?) async throws -> Commented<MemeRow>?

    /// A recipe and a page of its comments, read together; nil when there is no such recipe.
    func recipeWithComments(id: Int64, page: Int, viewer: Int64?) async throws -> Commented<RecipeRow>?
}

/// A thing and one page of its comments.
public struct Commented<Row: Sendable & Equatable>: Sendable, Equatable {
    public var row: Row
    public var comments: [CommentRow]
    /// Comments in all (every page).
    public var total: Int
}

/// One read after the other, where an engine has no cheaper way (SQLite reads both at once).
extension CommentStore where Self: MemeStore & RecipeStore {
    public func memeWithComments(id: Int64, page: Int, viewer: Int64?) async throws -> Commented<MemeRow>? {
        guard let row = try await meme(id: id) else { return nil }
        let (comments, total) = try await comments(kind: "meme", targetID: id, page: page, viewer: viewer)
        return Commented(row: row, comments: comments, total: total)
    }

    public func recipeWithComments(id: Int64, page: Int, viewer: Int64?) async throws -> Commented<RecipeRow>? {
        guard let row = try await recipe(id: id) else { return nil }
        let (comments, total) = try await comments(kind: "recipe", targetID: id, page: page, viewer: viewer)
        return Commented(row: row, comments: comments, total: total)
    }
}

extension CommentStore {
    public func addComment(kind: String, targetID: Int64, accountID: Int64, text: String) async throws -> Int64? {
        try await addComment(kind: kind, targetID: targetID, accountID: accountID, text: text, now: Date())
    }
}
