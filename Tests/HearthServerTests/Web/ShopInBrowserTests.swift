import Foundation
import HearthTesting
import Testing

/// The shopping list and a scaled recipe in a real headless Chromium at a phone's width: a
/// family member ticks an item off and adds one through the page's forms; the recipe page
/// scales its servings. Nothing wider than the screen, no console errors.
@Suite struct ShopInBrowserTests {
    @Test func tickAndAddOnAPhoneAndScaleARecipe() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let id = try await RecipeTests.post(
                ann, title: "Pancakes", ingredients: ["Serves 4", "2 cups flour", "1 cup milk", "3 large eggs"],
                steps: ["Heat the pan to 180C.", "Fry."])
            try await ann.send("!plan sat \(id)")
            try await ann.expect("is on your plan")
            try await Chromium.withBrowser { browser in
                let story = RecipeAndCookieInBrowserTests.Story(
                    browser: browser, base: "http://127.0.0.1:\(server.httpPort)", screen: .phone)
                try await story.open("/signin?next=/shop")
                try await story.follow(
                    story.fill("form.signin", "name", "ann") + story.fill("form.signin", "password", "s3cret-pass")
                        + "document.querySelector('form.signin').requestSubmit()", to: "/shop")
                #expect(try await story.count("ul.shop li") == 3)
                #expect(try await story.text("ul.shop li:nth-child(3) span") == "3 large eggs")
                try await story.follow(
                    "document.querySelector('ul.shop li:nth-child(3) button.tick').click()", to: "/shop")
                #expect(try await story.count("ul.shop li.ticked") == 1)
                try await story.follow(
                    story.fill("form.shop-add", "item", "coffee")
                        + "document.querySelector('form.shop-add').requestSubmit()", to: "/shop")
                #expect(try await story.text("ul.shop li:nth-child(4) span") == "coffee")
                #expect(try await story.fits())
                try await story.screenshot("shop")
                try await ann.send("!shop")
                try await ann.expect("3. ✓ 3 large eggs")

                try await story.open("/r/\(id)")
                try await story.follow(
                    story.fill("form.servings", "serves", "6")
                        + "document.querySelector('form.servings').requestSubmit()", to: "/r/\(id)")
                #expect(try await story.text("ul.ingredients li") == "3 cups flour")
                #expect(try await story.text("form.servings .meta") == "for 6; the recipe serves 4")
                #expect(try await story.fits())
                try await story.screenshot("recipe-scaled")
                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}
