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

    /// Pages the size an import takes (`PageFetcher.maxBytes`) of repeated unclosed `<script`s, item
    /// properties without closes, tags with no `>` and bare `<`s are read in one pass, not once per tag.
    @Test(.timeLimit(.minutes(1))) func hostilePagesAreReadInOnePass() {
        func page(_ unit: String) -> String { String(repeating: unit, count: PageFetcher.maxBytes / unit.utf8.count) }
        #expect(RecipeSchema.read(page(#"<script type="application/ld+json">"#)) == nil)
        let head = #"<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Soup</h1>"#
        let props = RecipeSchema.read(head + page(#"<li itemprop="recipeIngredient">x "#))
        #expect(props?.title == "Soup")
        #expect(props?.ingredients == [])
        let closed = RecipeSchema.read(head + page(#"<li itemprop="recipeIngredient">x</li>"#))
        #expect(closed?.ingredients.count == RecipeCommands.maxIngredients + 1)
        #expect(RecipeSchema.read(head + page(#"<ol itemprop="recipeInstructions">"#))?.steps == [])
        #expect(RecipeSchema.read(head + page(#"<a itemprop="name" "#))?.title == "Soup")
        #expect(RecipeSchema.read(head + page("<a ")).map(\.title) == "Soup")
        #expect(RecipeSchema.read(head + page("<")).map(\.title) == "Soup")
        #expect(RecipeSchema.read(head + page("itemprop")).map(\.title) == "Soup")
        let unclosed = HTMLText.plain(page("<a "), keepingLines: true).hasPrefix("<a <a")
        #expect(unclosed)
        let items = HTMLText.plain(page("<li>x"), keepingLines: true).hasPrefix("x x")
        #expect(items)
        let two = #"<SCRIPT type="application/ld+json">{}</script><script>x</script>"#
        #expect(RecipeSchema.jsonLDBlocks(two) == ["{}"])
    }

    /// Tags are stripped as before the one-pass scan: to the first `>`, a `<` with none after kept.
    @Test func plainTextKeepsItsReadingOfNormalHTML() {
        #expect(HTMLText.plain("<b>Salt</b> &amp; <i>pepper</i>") == "Salt & pepper")
        #expect(HTMLText.plain("1 < 2 and 3 > 2, done") == "1 2, done")
        #expect(HTMLText.plain("a < b") == "a < b")
        #expect(HTMLText.plain("<p>One.</p><p>Two<br/>three</P>", keepingLines: true) == "One.\nTwo\nthree")
        #expect(HTMLText.plain("a < b <BR > c", keepingLines: true) == "a < b\nc")
        #expect(HTMLText.plain("<ol><li>Mix</li>\n<li>Bake</li></ol>", keepingLines: true) == "Mix\nBake")
        #expect(
            HTMLBytes("<ol><li class=a>Mix</li><LI>Bake</li ><li>x</li>").listItems() == ["Mix", "Bake</li ><li>x"])
    }

    /// Microdata is read as the tag regex read it: properties split by spaces, contents to the close tag.
    @Test func microdataIsReadFromItsTags() {
        let html = #"""
            <div itemscope itemtype='http://schema.org/Recipe'><h1 class="t" ITEMPROP = 'name'>Pie</h1>
            <img alt="a<b" itemprop="image" src="/p.png">
            <meta itemprop="prepTime cookTime" content="PT10M"><p itemprop="recipeYield">6</P>
            <li itemprop="recipeIngredient">1 <b>apple</b></li><li itemprop="ingredients">flour</li>
            <div itemprop="recipeInstructions">Peel.<br>Bake.</div>
            """#
        let recipe = RecipeSchema.read(html)
        #expect(recipe?.title == "Pie")
        #expect(recipe?.image == "/p.png")
        #expect(recipe?.prepTime == "10 min" && recipe?.cookTime == "10 min")
        #expect(recipe?.yield == "6")
        #expect(recipe?.ingredients == ["1 apple", "flour"])
        #expect(recipe?.steps == ["Peel.", "Bake."])
    }
}
