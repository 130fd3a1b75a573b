import Foundation
import HearthStore
import Testing

/// Recipe search finds the words a recipe uses in another form: plurals and other endings
/// (stemmed) and letters with or without accents, on both engines.
@Suite struct RecipeSearchStoreTests {
    static func words(_ text: String) -> RecipeSearch {
        RecipeSearch(parts: text.split(separator: " ").map { .term(String($0), prefix: false) }, tags: [])
    }

    @Test(arguments: Engine.allCases)
    func stemsAndAccentsFind(engine: Engine) async throws {
        try await engine.withStore { store in
            let cook = try await AccountStoreTests.make(store, "cook")
            func add(_ title: String, _ ingredients: String) async throws -> Int64 {
                try await store.addRecipe(
                    RecipeRecord(
                        accountId: cook.id, title: title, ingredients: ingredients, steps: "cook it",
                        photoImageId: nil, tags: ""), fromDraft: false, feedText: "posted #ID"
                ).id
            }
            let noodles = try await add("Sesame noodles", "200 g noodles\n2 tbsp sesame oil")
            let mash = try await add("Mash", "1 kg potatoes\nbutter")
            let brulee = try await add("Crème brûlée", "cream\nsugar")
            func found(_ text: String) async throws -> [Int64] {
                try await store.searchRecipes(Self.words(text), page: 1).recipes.map(\.recipe.id)
            }
            #expect(try await found("noodle") == [noodles])
            #expect(try await found("potato") == [mash])
            #expect(try await found("creme brulee") == [brulee])
            #expect(try await found("CRÈME") == [brulee])
            #expect(try await found("noodle potato").isEmpty)
            // Edited text is indexed again, the same way.
            var edited = try #require(try await store.recipe(id: mash)?.recipe)
            edited.ingredients = "1 kg crèmes"
            _ = try await store.updateRecipe(edited, by: cook.id)
            #expect(try await found("potato").isEmpty)
            #expect(Set(try await found("creme")) == [mash, brulee])
        }
    }
}
