import Foundation
import HearthStore
import Testing

/// Counts kept on rows (likes, votes, comments) stay exact when many people click at once.
@Suite struct CountRaceTests {
    static let clickers = 24

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
}
