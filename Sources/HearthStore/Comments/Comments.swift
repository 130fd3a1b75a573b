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

    func addComment(kind: String, targetID: Int64, accountID: Int64, text: String, now: Date) async throws -> Int64?

    /// Comments oldest first, `commentPageSize` a page, hiding people `viewer` blocks or who block them.
    func comments(kind: String, targetID: Int64, page: Int, viewer: Int64?) async throws -> (
        comments: [CommentRow], total: Int
    )

    /// Deletes a comment written by `accountID`; returns its kind and target, or nil.
    func deleteComment(id: Int64, by accountID: Int64) async throws -> (kind: String, targetID: Int64)?
}

extension CommentStore {
    public func addComment(kind: String, targetID: Int64, accountID: Int64, text: String) async throws -> Int64? {
        try await addComment(kind: kind, targetID: targetID, accountID: accountID, text: text, now: Date())
    }
}
