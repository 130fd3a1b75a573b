import Foundation
import HearthTesting
import PostgresNIO
import Synchronization
import Testing

@testable import HearthStore

/// A like, vote or comment racing the deletion of its account or of its thing, on PostgreSQL,
/// with the deletion held half done (a row it needs next is locked by the test) while the marks
/// start, so the race is the same every run. SQLite writes one transaction at a time: there,
/// a mark comes wholly before or after a deletion (CountRaceTests covers both engines).
@Suite struct MarkRaceTests {
    /// The account's marks sent while its deletion is under way are counted once (the deletion
    /// takes them off) or refused as not found, and neither side fails with a deadlock.
    @Test func marksRacingTheirAccountsDeletionAreCountedOnceOrRefused() async throws {
        try await Engine.postgres.withStore { engineStore in
            let store = try #require(engineStore as? PostgresStore)
            let author = try await AccountStoreTests.make(store, "author")
            let leaver = try await AccountStoreTests.make(store, "leaver")
            let friend = try await AccountStoreTests.make(store, "friend")
            let things = try await CountRaceTests.Things.make(store, by: author.id)
            try await things.markAll(store, by: leaver.id, vote: 1)
            // A meme the leaver has not marked yet: its like took no lock the deletion held.
            let fresh = try await store.addMeme(
                MemeRecord(accountId: author.id, imageId: String(repeating: "c", count: 32), source: "x", caption: "d"),
                feedText: "made #ID")
            _ = try await store.follow(friend.id, leaver.id)
            // The deletion stops at the friend's feed line about following the leaver: after it
            // took the leaver's marks off the counts, before the account's row goes.
            let held = try await HeldRows.hold(
                store, "SELECT 1 FROM activity WHERE kind = 'follow' AND subjectId = \(leaver.id) FOR UPDATE")
            let deletion = Task { try await store.deleteAccount(id: leaver.id) }
            try await Self.waitForLockWaiters(store) { 1 }
            let finished = Finished()
            let id = leaver.id
            let marks: [@Sendable () async throws -> Void] = [
                { _ = try await store.react(.like, memeID: fresh.id, accountID: id, on: true) },
                { _ = try await store.react(.like, memeID: things.meme, accountID: id, on: false) },
                { _ = try await store.react(.fav, memeID: things.meme, accountID: id, on: false) },
                { _ = try await store.vote(recipeID: things.recipe, accountID: id, value: -1) },
                { _ = try await store.likePost(things.post, accountID: id, on: false) },
                {
                    _ = try await store.addComment(kind: "recipe", targetID: things.recipe, accountID: id, text: "late")
                },
            ]
            let running = marks.map { mark in
                Task {
                    defer { finished.add() }
                    try await CountRaceTests.unlessGone(mark)
                }
            }
            // Each mark has finished or waits on a lock: none can go further until the deletion does.
            try await Self.waitForLockWaiters(store) { 1 + marks.count - finished.value }
            try await held.release()
            _ = try await deletion.value
            for mark in running { try await mark.value }
            #expect(try await store.account(id: leaver.id) == nil)
            try await things.expectCountsMatchMarks(store, accounts: [author.id, friend.id])
            #expect(try await store.meme(id: fresh.id)?.meme.likes == 0, "the leaver's like went with it")
        }
    }

    /// A like, a vote or a comment on a meme or recipe whose deletion commits while it waits
    /// finds no such thing (nil, "there is no meme #12"), not a foreign key's error.
    @Test func marksOnAThingDeletedMeanwhileFindNoSuchThing() async throws {
        try await Engine.postgres.withStore { engineStore in
            let store = try #require(engineStore as? PostgresStore)
            let author = try await AccountStoreTests.make(store, "author")
            let fan = try await AccountStoreTests.make(store, "fan")
            let things = try await CountRaceTests.Things.make(store, by: author.id)
            // Both deletions stop at their thing's feed line, the thing's row already deleted.
            let held = try await HeldRows.hold(
                store,
                """
                SELECT 1 FROM activity WHERE (kind = 'meme' AND subjectId = \(things.meme))
                  OR (kind = 'recipe' AND subjectId = \(things.recipe)) FOR UPDATE
                """)
            let memeGone = Task { try await store.deleteMeme(id: things.meme, by: author.id) }
            let recipeGone = Task { try await store.deleteRecipe(id: things.recipe, by: author.id) }
            try await Self.waitForLockWaiters(store) { 2 }
            let finished = Finished()
            let like = Task {
                defer { finished.add() }
                return try await store.react(.like, memeID: things.meme, accountID: fan.id, on: true) == nil
            }
            let vote = Task {
                defer { finished.add() }
                return try await store.vote(recipeID: things.recipe, accountID: fan.id, value: 1) == nil
            }
            let comment = Task {
                defer { finished.add() }
                return try await store.addComment(kind: "meme", targetID: things.meme, accountID: fan.id, text: "x")
                    == nil
            }
            try await Self.waitForLockWaiters(store) { 2 + 3 - finished.value }
            try await held.release()
            #expect(try await memeGone.value)
            #expect(try await recipeGone.value)
            #expect(try await like.value, "a like of a meme deleted meanwhile finds no such meme")
            #expect(try await vote.value, "a vote on a recipe deleted meanwhile finds no such recipe")
            #expect(try await comment.value)
            #expect(try await store.meme(id: things.meme) == nil)
        }
    }

    /// Waits until `count()` statements of this store's database wait on a lock.
    static func waitForLockWaiters(_ store: PostgresStore, _ count: () -> Int) async throws {
        for _ in 0..<3000 {
            let waiting = try await store.rows(
                """
                SELECT COUNT(*) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'
                """)[0].decode(Int64.self)
            if waiting >= count() { return }
            try await Task.sleep(for: .milliseconds(10))  // no event tells of a lock wait: asked again
        }
        Issue.record("fewer than \(count()) statements ever waited on a lock")
    }
}

/// How many of the marks have finished, read while they run.
final class Finished: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Rows the test keeps locked in a transaction of its own until `release()`.
struct HeldRows {
    let transaction: Task<Void, any Error>
    let releasing: AsyncStream<Void>.Continuation

    static func hold(_ store: PostgresStore, _ query: PostgresQuery) async throws -> HeldRows {
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (released, releasing) = AsyncStream.makeStream(of: Void.self)
        let transaction = Task {
            defer { holding.finish() }
            try await store.transaction { db in
                _ = try await db.rows(query, store.logger)
                holding.yield()
                for await _ in released { break }
            }
        }
        var heldRows = held.makeAsyncIterator()
        if await heldRows.next() == nil { try await transaction.value }
        return HeldRows(transaction: transaction, releasing: releasing)
    }

    /// Commits the transaction (it changed nothing), letting whoever waits on the rows go on.
    func release() async throws {
        releasing.finish()
        try await transaction.value
    }
}
