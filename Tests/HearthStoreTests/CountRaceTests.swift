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
}
