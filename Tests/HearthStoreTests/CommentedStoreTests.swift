import Foundation
import HearthStore
import Testing

/// A meme or recipe with a page of its comments, read together, is what the two reads give.
@Suite struct CommentedStoreTests {
    @Test(arguments: Engine.allCases)
    func aThingWithItsCommentsIsWhatTheTwoReadsGive(engine: Engine) async throws {
        try await engine.withStore { store in
            let author = try await AccountStoreTests.make(store, "author")
            let fan = try await AccountStoreTests.make(store, "fan")
            let troll = try await AccountStoreTests.make(store, "troll")
            let image = String(repeating: "b", count: 32)
            try await store.addImage(
                ImageRecord(id: image, ownerId: author.id, kind: "meme", format: "jpeg", width: 8, height: 8, bytes: 1))
            let meme = try await store.addMeme(
                MemeRecord(accountId: author.id, imageId: image, source: "x", caption: "c"), feedText: "made #ID")
            let recipe = try await store.addRecipe(
                RecipeRecord(
                    accountId: author.id, title: "Soup", ingredients: "water", steps: "boil", photoImageId: nil,
                    tags: ""), fromDraft: false, feedText: "posted #ID")
            for (kind, id) in [("meme", meme.id), ("recipe", recipe.id)] {
                for n in 0..<(StoreLimits.commentPageSize + 2) {
                    _ = try await store.addComment(
                        kind: kind, targetID: id, accountID: n % 2 == 0 ? fan.id : troll.id, text: "\(kind) \(n)")
                }
            }
            _ = try await store.block(fan.id, troll.id)
            for viewer in [nil, fan.id, author.id] {
                for page in [1, 2] {
                    let memeRead = try #require(
                        try await store.memeWithComments(id: meme.id, page: page, viewer: viewer))
                    let memeComments = try await store.comments(
                        kind: "meme", targetID: meme.id, page: page, viewer: viewer)
                    #expect(memeRead.row == (try await store.meme(id: meme.id)))
                    #expect(memeRead.comments == memeComments.comments && memeRead.total == memeComments.total)
                    let recipeRead = try #require(
                        try await store.recipeWithComments(id: recipe.id, page: page, viewer: viewer))
                    let recipeComments = try await store.comments(
                        kind: "recipe", targetID: recipe.id, page: page, viewer: viewer)
                    #expect(recipeRead.row == (try await store.recipe(id: recipe.id)))
                    #expect(recipeRead.comments == recipeComments.comments && recipeRead.total == recipeComments.total)
                }
            }
            // fan blocks troll: troll's comments are not in fan's page.
            let seen = try #require(try await store.memeWithComments(id: meme.id, page: 1, viewer: fan.id))
            #expect(!seen.comments.isEmpty && seen.comments.allSatisfy { $0.authorId == fan.id })
            #expect(try await store.memeWithComments(id: meme.id + 100, page: 1, viewer: nil) == nil)
            #expect(try await store.recipeWithComments(id: recipe.id + 100, page: 1, viewer: nil) == nil)
        }
    }
}
