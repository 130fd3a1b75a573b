import Foundation
import HearthStore
import Testing

/// How many a recipe feeds is kept with it and with its draft, and can be changed or unset,
/// on both engines.
@Suite struct RecipeServingsStoreTests {
    @Test(arguments: Engine.allCases)
    func servingsAreKeptWithTheRecipeAndItsDraft(engine: Engine) async throws {
        try await engine.withStore { store in
            let cook = try await AccountStoreTests.make(store, "cook")
            var draft = RecipeDraft(accountId: cook.id)
            draft.servings = 6
            try await store.saveRecipeDraft(draft)
            #expect(try await store.recipeDraft(accountID: cook.id)?.servings == 6)
            var record = RecipeRecord(
                accountId: cook.id, title: "Soup", ingredients: "1 l water", steps: "boil", photoImageId: nil,
                tags: "")
            record.servings = 4
            let recipe = try await store.addRecipe(record, fromDraft: true, feedText: "posted #ID")
            #expect(recipe.servings == 4)
            #expect(try await store.recipe(id: recipe.id)?.recipe.servings == 4)
            #expect(try await store.recipes(order: .new, page: 1).recipes.first?.recipe.servings == 4)
            var changed = recipe
            changed.servings = nil
            #expect(try await store.updateRecipe(changed, by: cook.id))
            #expect(try await store.recipe(id: recipe.id)?.recipe.servings == nil)
        }
    }
}
