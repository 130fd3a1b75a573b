import HearthKit
import HearthStore
import Testing

@testable import HearthApps

@Suite struct RecipeSearchQueryTests {
    @Test func wordsPrefixesPhrasesAndFiltersBecomeQuotedTerms() throws {
        #expect(
            try RecipeSearchQuery.parse("tomato basil")
                == RecipeSearch(parts: [.term("tomato", prefix: false), .term("basil", prefix: false)], tags: []))
        let mixed = try RecipeSearchQuery.parse("tom* \"green curry\" cuisine:Thai diet:vegan")
        #expect(mixed.fts5Match == "\"tom\"* \"green curry\"" && mixed.tags == ["thai", "vegan"])
        #expect(
            try RecipeSearchQuery.parse("basil OR mint NOT cream").fts5Match == "\"basil\" OR \"mint\" NOT \"cream\"")
        // Quotes inside words are escaped, so FTS5 syntax cannot leak in.
        #expect(try RecipeSearchQuery.parse("cuisine:italian").fts5Match == "")
        #expect(try RecipeSearchQuery.parse("naïve café").fts5Match == "\"naïve\" \"café\"")
    }

    @Test(arguments: [
        ("\"tomato soup", "a quote is not closed"),
        ("soup OR", "OR needs words on both sides"),
        ("NOT soup", "NOT needs words on both sides"),
        ("soup AND OR rice", "OR needs words on both sides"),
        ("*", "is not a word I can search for"),
        ("to*m", "is not a word I can search for"),
        ("( )", "is not a word I can search for"),
        ("cuisine:", "needs a word after the colon"),
        ("\"\"", "an empty phrase"),
        ("", "search for what?"),
        ("a b c d e f g h i j k l m", "more than 12 words"),
    ])
    func malformedQueriesGetAMessage(query: String, message: String) {
        #expect(throws: BotError.self) { try RecipeSearchQuery.parse(query) }
        do {
            _ = try RecipeSearchQuery.parse(query)
        } catch {
            #expect(error.message.contains(message), "\(query): \(error.message)")
        }
    }
}

/// The command-grammar fuzzer found a quote hidden in a combining mark (Fuzz/crashes/command-grammar).
@Suite struct SearchQuoteScalarTests {
    @Test func aQuoteWithACombiningMarkIsStillAQuote() throws {
        #expect(throws: BotError.self) { try RecipeSearchQuery.parse("tomato\"\u{0301}soup") }
        let query = try RecipeSearchQuery.parse("\"tomato \"\u{0301}soup\"")
        #expect(query.fts5Match == "\"tomato \"\"\u{0301}soup\"")
    }
}
