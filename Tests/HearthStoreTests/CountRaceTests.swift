import Foundation
import HearthStore
import Testing

/// Counts kept on rows (likes, votes, comments) stay exact when many people click at once.
@Suite struct CountRaceTests {
    static let clickers = 16

    @Test(arguments: Engine.allCases)
    func likesAndVotesFromManyAtOnceCountExactly(engine: Engine) async throws {
        try await engine.withStore { store in
            let author = try await AccountStoreTests.make(store, "author")
            var fans: [Int64] = []
            for n in 0..<Self.clickers { fans.append(try await AccountStoreTests.make(store, "fan\(n)").id) }
            try await store.addImage(
                ImageRecord(
                    id: String(repeating: "a", count: 32), ownerId: author.id, kind: "meme", format: "jpeg",
                    width: 8, height: 8, bytes: 10))
            let meme = try await store.addMeme(
                MemeRecord(
                    accountId: author.id, imageId: String(repeating: "a", count: 32), source: "x", caption: "c"),
                feedText: "made #ID")
            let recipe = try await store.addRecipe(
                RecipeRecord(
                    accountId: author.id, title: "Soup", ingredients: "water", steps: "boil", photoImageId: nil,
                    tags: ""), fromDraft: false, feedText: "posted #ID")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, fan) in fans.enumerated() {
                    group.addTask {
                        _ = try await store.react(.like, memeID: meme.id, accountID: fan, on: true)
                        _ = try await store.react(.like, memeID: meme.id, accountID: fan, on: true)  // again: no change
                        _ = try await store.vote(recipeID: recipe.id, accountID: fan, value: index % 3 == 0 ? -1 : 1)
                        _ = try await store.addComment(kind: "meme", targetID: meme.id, accountID: fan, text: "nice")
                    }
                }
                try await group.waitForAll()
            }
            let row = try await store.meme(id: meme.id)
            #expect(row?.meme.likes == Self.clickers && row?.meme.comments == Self.clickers)
            let lost = try await store.addComment(kind: "meme", targetID: meme.id + 1000, accountID: fans[0], text: "x")
            #expect(lost == nil)
            let downs = (0..<Self.clickers).filter { $0 % 3 == 0 }.count
            let votes = try await store.recipe(id: recipe.id)
            #expect(votes?.recipe.ups == Self.clickers - downs && votes?.recipe.downs == downs)
            // Taking back as many at once brings the count to zero, never below.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for fan in fans {
                    group.addTask { _ = try await store.react(.like, memeID: meme.id, accountID: fan, on: false) }
                }
                try await group.waitForAll()
            }
            #expect(try await store.meme(id: meme.id)?.meme.likes == 0)
        }
    }
    /// A family's posts keep their likes exact the same way, and a like of a post that is gone
    /// changes nothing.
    @Test(arguments: Engine.allCases)
    func familyPostLikesFromManyAtOnceCountExactly(engine: Engine) async throws {
        try await engine.withStore { store in
            let author = try await AccountStoreTests.make(store, "author")
            var fans: [Int64] = []
            for n in 0..<Self.clickers { fans.append(try await AccountStoreTests.make(store, "fan\(n)").id) }
            let family = try await store.foundFamily(name: "Rivers", founderID: author.id, now: Date())
            let post = try await store.addFamilyPost(
                FamilyPost(
                    familyId: family.id, accountId: author.id, kind: "text", text: "garden", imageId: nil,
                    eventDate: nil, createdAt: Date()))
            let changes = try await withThrowingTaskGroup(of: Int.self) { group in
                for fan in fans {
                    group.addTask {
                        let first = try await store.likePost(post.id, accountID: fan, on: true)
                        let again = try await store.likePost(post.id, accountID: fan, on: true)
                        return (first?.changed == true ? 1 : 0) + (again?.changed == true ? 1 : 0)
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(changes == Self.clickers, "each fan's first like changed it, the second did not")
            #expect(try await store.familyPost(id: post.id)?.likes == Self.clickers)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for fan in fans { group.addTask { _ = try await store.likePost(post.id, accountID: fan, on: false) } }
                try await group.waitForAll()
            }
            let unliked = try await store.likePost(post.id, accountID: fans[0], on: false)
            #expect(unliked?.changed == false && unliked?.count == 0, "never below zero")
            #expect(try await store.likePost(post.id + 1000, accountID: fans[0], on: true) == nil)
        }
    }
    /// Votes changed and taken back by many at once, and one account voting both ways from two
    /// devices at the same moment, leave the counts equal to the votes kept.
    @Test(arguments: Engine.allCases)
    func votesChangedAndTakenBackByManyAtOnceStayExact(engine: Engine) async throws {
        try await engine.withStore { store in
            let author = try await AccountStoreTests.make(store, "author")
            var fans: [Int64] = []
            for n in 0..<Self.clickers { fans.append(try await AccountStoreTests.make(store, "fan\(n)").id) }
            let recipe = try await store.addRecipe(
                RecipeRecord(
                    accountId: author.id, title: "Soup", ingredients: "water", steps: "boil", photoImageId: nil,
                    tags: ""), fromDraft: false, feedText: "posted #ID")
            /// The votes at once; then the counts against the votes kept.
            func all(_ votes: [(fan: Int64, value: Int)]) async throws -> (ups: Int, downs: Int) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (fan, value) in votes {
                        group.addTask { _ = try await store.vote(recipeID: recipe.id, accountID: fan, value: value) }
                    }
                    try await group.waitForAll()
                }
                var kept = (ups: 0, downs: 0)
                for fan in fans {
                    let vote = try await store.recipeMarks(recipe.id, by: fan).vote
                    kept = (kept.ups + (vote > 0 ? 1 : 0), kept.downs + (vote < 0 ? 1 : 0))
                }
                let row = try await store.recipe(id: recipe.id)
                #expect(row?.recipe.ups == kept.ups && row?.recipe.downs == kept.downs)
                return kept
            }
            func each(_ value: (Int) -> Int) -> [(fan: Int64, value: Int)] {
                fans.enumerated().map { ($0.element, value($0.offset)) }
            }
            let downs = (0..<Self.clickers).filter { $0 % 3 == 0 }.count
            #expect(try await all(each { $0 % 3 == 0 ? -1 : 1 }) == (Self.clickers - downs, downs))
            #expect(try await all(each { $0 % 3 == 0 ? 1 : -1 }) == (downs, Self.clickers - downs), "minds changed")
            #expect(try await all(each { $0 % 2 == 0 ? 0 : 1 }) == (Self.clickers / 2, 0), "half took theirs back")
            // Each fan up and down from two devices at the same moment: one of the two is kept.
            let both = try await all(each { _ in 1 } + each { _ in -1 })
            #expect(both.ups + both.downs == Self.clickers)
            #expect(try await all(each { _ in 0 }) == (0, 0))
            #expect(try await store.vote(recipeID: recipe.id + 1000, accountID: fans[0], value: 1) == nil)
        }
    }

    /// Accounts that liked, favourited, voted and commented are deleted while their own marks and
    /// others' run at once: every count ends equal to the marks kept, nothing deadlocks, and a
    /// mark of an account already gone is refused as not found (PostgreSQL: a like counted while
    /// its row went with the account left the meme one too high; an unlike and the deletion
    /// locked the like and the meme in opposite orders).
    @Test(arguments: Engine.allCases)
    func accountsDeletedWhileTheyAndOthersMarkLeaveEveryCountExact(engine: Engine) async throws {
        try await engine.withStore { store in
            let author = try await AccountStoreTests.make(store, "author")
            let things = try await Things.make(store, by: author.id)
            var leavers: [Int64] = []
            var stayers: [Int64] = []
            for n in 0..<Self.clickers / 2 {
                leavers.append(try await AccountStoreTests.make(store, "leaver\(n)").id)
                stayers.append(try await AccountStoreTests.make(store, "stayer\(n)").id)
            }
            var said: [Int64: Int64] = [:]
            for (n, leaver) in leavers.enumerated() {
                try await things.markAll(store, by: leaver, vote: n % 2 == 0 ? 1 : -1)
                said[leaver] = try await store.addComment(
                    kind: "meme", targetID: things.meme, accountID: leaver, text: "bye")
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (n, leaver) in leavers.enumerated() {
                    group.addTask { _ = try await store.deleteAccount(id: leaver) }
                    let comment = said[leaver]
                    group.addTask {
                        // Its own marks taken back and made again while it goes: each lands before
                        // the deletion (which takes it off) or finds the account gone.
                        try await Self.unlessGone { try await things.unmarkAll(store, by: leaver) }
                        try await Self.unlessGone {
                            _ = try await store.deleteComment(id: comment ?? 0, by: leaver)
                        }
                        try await Self.unlessGone {
                            try await things.markAll(store, by: leaver, vote: n % 2 == 0 ? -1 : 1)
                        }
                    }
                }
                for (n, stayer) in stayers.enumerated() {
                    group.addTask {
                        try await things.markAll(store, by: stayer, vote: n % 3 == 0 ? -1 : 1)
                        if n % 2 == 1 { try await things.unmarkAll(store, by: stayer) }
                    }
                }
                try await group.waitForAll()
            }
            for leaver in leavers { #expect(try await store.account(id: leaver) == nil) }
            try await things.expectCountsMatchMarks(store, accounts: [author.id] + stayers)
        }
    }

    /// Runs a mark of an account that may be deleted meanwhile: true when it landed, false when
    /// the account was gone; any other failure (a deadlock, a foreign key) fails the test.
    @discardableResult
    static func unlessGone(_ mark: () async throws -> Void) async throws -> Bool {
        do {
            try await mark()
            return true
        } catch StoreError.notFound {
            return false
        }
    }

    /// A meme, a recipe and a family post, each liked (favourited, voted) and commented on.
    struct Things: Sendable {
        var meme: Int64
        var recipe: Int64
        var post: Int64

        static func make(_ store: any EngineStore, by author: Int64) async throws -> Things {
            let image = String(repeating: "c", count: 32)
            try await store.addImage(
                ImageRecord(id: image, ownerId: author, kind: "meme", format: "jpeg", width: 8, height: 8, bytes: 10))
            let meme = try await store.addMeme(
                MemeRecord(accountId: author, imageId: image, source: "x", caption: "c"), feedText: "made #ID")
            let recipe = try await store.addRecipe(
                RecipeRecord(
                    accountId: author, title: "Soup", ingredients: "water", steps: "boil", photoImageId: nil,
                    tags: ""), fromDraft: false, feedText: "posted #ID")
            let family = try await store.foundFamily(name: "Rivers", founderID: author, now: Date())
            let post = try await store.addFamilyPost(
                FamilyPost(
                    familyId: family.id, accountId: author, kind: "text", text: "garden", imageId: nil,
                    eventDate: nil, createdAt: Date()))
            return Things(meme: meme.id, recipe: recipe.id, post: post.id)
        }

        /// Every kind of mark, one after another.
        func markAll(_ store: any EngineStore, by account: Int64, vote: Int) async throws {
            _ = try await store.react(.like, memeID: meme, accountID: account, on: true)
            _ = try await store.react(.fav, memeID: meme, accountID: account, on: true)
            _ = try await store.vote(recipeID: recipe, accountID: account, value: vote)
            _ = try await store.likePost(post, accountID: account, on: true)
            for (kind, id) in [("meme", meme), ("recipe", recipe), ("post", post)] {
                _ = try await store.addComment(kind: kind, targetID: id, accountID: account, text: "hi")
            }
        }

        func unmarkAll(_ store: any EngineStore, by account: Int64) async throws {
            _ = try await store.react(.like, memeID: meme, accountID: account, on: false)
            _ = try await store.react(.fav, memeID: meme, accountID: account, on: false)
            _ = try await store.vote(recipeID: recipe, accountID: account, value: 0)
            _ = try await store.likePost(post, accountID: account, on: false)
        }

        /// Every count on the three equals the marks `accounts` (everyone left) keep on it.
        func expectCountsMatchMarks(_ store: any EngineStore, accounts: [Int64]) async throws {
            var (likes, favs, ups, downs, postLikes) = (0, 0, 0, 0, 0)
            for account in accounts {
                likes += try await store.hasReacted(.like, memeID: meme, accountID: account) ? 1 : 0
                favs += try await store.hasReacted(.fav, memeID: meme, accountID: account) ? 1 : 0
                let vote = try await store.recipeMarks(recipe, by: account).vote
                (ups, downs) = (ups + (vote > 0 ? 1 : 0), downs + (vote < 0 ? 1 : 0))
                postLikes += try await store.likedPosts([post], accountID: account).count
            }
            func said(_ kind: String, _ id: Int64) async throws -> Int {
                try await store.comments(kind: kind, targetID: id, page: 1, viewer: nil).total
            }
            let memeRow = try #require(try await store.meme(id: meme)).meme
            #expect(memeRow.likes == likes && memeRow.favs == favs, "likes \(likes), favourites \(favs)")
            #expect(memeRow.comments == (try await said("meme", meme)))
            let recipeRow = try #require(try await store.recipe(id: recipe)).recipe
            #expect(recipeRow.ups == ups && recipeRow.downs == downs, "ups \(ups), downs \(downs)")
            #expect(recipeRow.comments == (try await said("recipe", recipe)))
            let postRow = try #require(try await store.familyPost(id: post))
            #expect(postRow.likes == postLikes, "post likes \(postLikes)")
            #expect(postRow.comments == (try await said("post", post)))
        }
    }
}
