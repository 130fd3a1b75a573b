import Foundation
import HearthStore
import Testing

/// What one person did to a recipe (their vote, their save), as a recipe's page shows it to
/// them, on both engines.
@Suite struct RecipeMarksStoreTests {
    @Test(arguments: Engine.allCases)
    func aPersonsVoteAndSaveAreTheirsAlone(engine: Engine) async throws {
        try await engine.withStore { store in
            let cook = try await AccountStoreTests.make(store, "cook")
            let fan = try await AccountStoreTests.make(store, "fan")
            let recipe = try await store.addRecipe(
                RecipeRecord(
                    accountId: cook.id, title: "Soup", ingredients: "water", steps: "boil", photoImageId: nil,
                    tags: ""), fromDraft: false, feedText: "posted #ID")
            let none = RecipeMarks(vote: 0, saved: false)
            #expect(try await store.recipeMarks(recipe.id, by: fan.id) == none)
            _ = try await store.vote(recipeID: recipe.id, accountID: fan.id, value: 1)
            #expect(try await store.recipeMarks(recipe.id, by: fan.id) == RecipeMarks(vote: 1, saved: false))
            _ = try await store.saveRecipe(recipe.id, for: fan.id, saved: true)
            _ = try await store.vote(recipeID: recipe.id, accountID: fan.id, value: -1)
            #expect(try await store.recipeMarks(recipe.id, by: fan.id) == RecipeMarks(vote: -1, saved: true))
            // The cook's own marks are not the fan's.
            #expect(try await store.recipeMarks(recipe.id, by: cook.id) == none)
            _ = try await store.vote(recipeID: recipe.id, accountID: fan.id, value: 0)
            _ = try await store.saveRecipe(recipe.id, for: fan.id, saved: false)
            #expect(try await store.recipeMarks(recipe.id, by: fan.id) == none)
            // No such recipe: nothing marked.
            #expect(try await store.recipeMarks(recipe.id + 100, by: fan.id) == none)
        }
    }
}
