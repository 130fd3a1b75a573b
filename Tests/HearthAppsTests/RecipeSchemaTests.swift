import Testing

@testable import HearthApps

/// What a page's schema.org recipe says, read in-process: hostile values (durations too long to
/// count, facts too long to show) are cut or kept as text, never trapped on.
@Suite struct RecipeSchemaTests {
    @Test func durationsTooLongToCountStayText() {
        #expect(RecipeSchema.duration("PT1H20M") == "1 h 20 min")
        #expect(RecipeSchema.duration("P2D") == "48 h")
        #expect(RecipeSchema.duration("P9999999999999999D") == "P9999999999999999D")
        #expect(RecipeSchema.duration("PT9223372036854775807H") == "PT9223372036854775807H")
    }

    @Test func factsAreCutToTheirLimit() {
        var recipe = RecipeSchema()
        recipe.yield = String(repeating: "y", count: 5000)
        recipe.totalTime = RecipeSchema.duration("P9999999999999999D")
        let facts = recipe.facts!.components(separatedBy: " · ")
        #expect(facts.count == 2)
        #expect(facts.allSatisfy { $0.count <= RecipeSchema.maxFact })
        #expect(facts[0].hasPrefix("makes yyy") && facts[0].hasSuffix("…"))
        recipe.yield = "4 servings"
        #expect(recipe.facts == "makes 4 servings · total P9999999999999999D")
    }
}
