import Foundation
import HearthTesting
import Testing

/// The recipe editor's import field in a real headless Chromium at a phone's width: a page with
/// JSON-LD on a local site the test starts (the operator's setting that allows loopback fetches
/// on, as in `RecipeImportTests`) becomes the draft the form shows for review — title, ingredient
/// and step lines, the page's photo, where it came from — and publishing it cites the page.
@Suite struct RecipeImportInBrowserTests {
    typealias Story = RecipeAndCookieInBrowserTests.Story

    @Test func aPageImportedFromTheEditorIsReviewedThenPublished() async throws {
        try await RecipeImportTests.withSite { base, server in
            _ = try await TestClient.user(server, "ida")
            try await Chromium.withBrowser { browser in
                let story = Story(
                    browser: browser, base: "http://127.0.0.1:\(server.httpPort)",
                    screen: RecipeAndCookieInBrowserTests.Screen.phone)
                try await story.open("/signin?next=/recipes/new")
                try await story.follow(
                    story.fill("form.signin", "name", "ida") + story.fill("form.signin", "password", "s3cret-pass")
                        + "document.querySelector('form.signin').requestSubmit()", to: "/recipes/new")
                #expect(try await story.count("form.import-form input[name=url][type=url]") == 1)
                try await story.follow(
                    story.fill("form.import-form", "url", base + "/jsonld")
                        + "document.querySelector('form.import-form').requestSubmit()", to: "/recipes/new")
                #expect(try await story.text(".flash").hasPrefix("Imported “Weeknight Tomato & Basil Soup”"))
                #expect(try await story.text("section.editor > p.meta").contains("Imported from \(base)/jsonld"))
                func value(_ field: String) async throws -> String {
                    try await browser.evaluate(
                        "document.querySelector(\(Chromium.literal("form.recipe-form [name=\(field)]"))).value")
                }
                #expect(try await value("title") == "Weeknight Tomato & Basil Soup")
                #expect(try await value("ingredients") == "4 ripe tomatoes\n1 onion, chopped\na handful of basil")
                #expect(try await value("steps").hasPrefix("Soften the onion in olive oil.\n"))
                #expect(try await story.count("form.photo-form img") == 1)  // the page's photo, fetched
                #expect(try await story.fits())
                try await story.screenshot("recipe-imported")

                try await story.follow("document.querySelector('form.recipe-form').requestSubmit()", to: "/r/1")
                #expect(try await story.text("article.recipe h1") == "Weeknight Tomato & Basil Soup")
                #expect(try await story.count("ul.ingredients li") == 3)
                #expect(try await story.count("article.recipe figure img") == 1)
                #expect(try await story.text("body").contains("Source: \(base)/jsonld"))
                #expect(try await story.fits())
                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}
