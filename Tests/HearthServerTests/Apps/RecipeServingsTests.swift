import Foundation
import HearthTesting
import Testing

/// Servings and units over TCP: a recipe says how many it feeds while it is written, `!recipe N
/// for M` scales it, `!set units` converts it, and a reader sees their own vote.
@Suite struct RecipeServingsTests {
    @Test func servingsScaleAndUnits() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let id = try await RecipeTests.post(
                ann, title: "Pancakes",
                ingredients: [
                    "Serves 4", "2 cups flour", "1½ tbsp sugar", "3 large eggs", "200 g butter", "salt to taste",
                ],
                steps: ["Heat the oven to 350F.", "Mix and bake."])
            try await ann.send("!recipe \(id)")
            try await ann.expect("Ingredients (serves 4):")
            try await ann.expect("• 2 cups flour")
            try await ann.expect("• 1½ tbsp sugar")

            try await ann.send("!recipe \(id) for 6")
            try await ann.expect("Ingredients (for 6; the recipe serves 4):")
            try await ann.expect("• 3 cups flour")
            try await ann.expect("• 2¼ tbsp sugar")
            try await ann.expect("• 4½ large eggs")
            try await ann.expect("• 300 g butter")
            try await ann.expect("• salt to taste")
            try await ann.expect("1. Heat the oven to 350F.")

            try await ann.send("!set units metric")
            // The confirmation must not read as if amounts stay as written.
            try await ann.expect(
                "units is now metric — how recipe amounts and oven temperatures are shown: written (as each recipe "
                    + "has them), or converted to metric or imperial.")
            try await ann.send("!recipe \(id) for 2")
            try await ann.expect("• 235 ml flour")
            try await ann.expect("• 2¼ tsp sugar")  // spoons are metric measures: kept, in quarter steps
            try await ann.expect("• 1½ large eggs")
            try await ann.expect("• 100 g butter")
            try await ann.expect("1. Heat the oven to 180 °C.")
            try await ann.send("!set units imperial")
            try await ann.send("!recipe \(id)")
            try await ann.expect("• 7 oz butter")

            // Bad numbers change nothing and say why; the limit is crossed by one.
            try await ann.send("!recipe \(id) for 101")
            try await ann.expect("servings are 1 to 100")
            try await ann.send("!recipe \(id) for 100")
            try await ann.expect("for 100; the recipe serves 4")
            try await ann.send("!recipe \(id) for many")
            try await ann.expect("many is not a number of servings")
            try await ann.send("!recipe edit \(id) servings 0")
            try await ann.expect("servings are 1 to 100")
            try await ann.send("!recipe edit \(id) servings 2")
            try await ann.expect("servings updated")
            try await ann.send("!recipe \(id) for 4")
            try await ann.expect("• 4 cups flour")

            // The page shows the servings with a form that scales them (a GET: no token needed).
            let web = WebBrowser(server)
            let page = try await web.get("/r/\(id)")
            #expect(page.body.contains("name=\"serves\" min=\"1\" max=\"100\" value=\"2\""))
            #expect(page.body.contains("<li>2 cups flour</li>"))
            let scaled = try await web.get("/r/\(id)?serves=3")
            #expect(scaled.body.contains("<li>3 cups flour</li>"))
            #expect(scaled.body.contains("for 3; the recipe serves 2"))
            #expect(scaled.body.contains("value=\"3\""))
            // Out of range or not a number: as written.
            for bad in ["0", "101", "x"] {
                #expect(try await web.get("/r/\(id)?serves=\(bad)").body.contains("<li>2 cups flour</li>"))
            }

            // A recipe that never said its servings cannot be scaled; its writer is told how.
            let plain = try await RecipeTests.post(ann, title: "Tea", ingredients: ["1 tsp tea"], steps: ["Brew."])
            try await ann.send("!recipe \(plain) for 2")
            try await ann.expect("does not say how many it serves")

            // Your own vote shows on the recipe.
            let bob = try await TestClient.user(server, "bob")
            try await bob.send("!up \(id)")
            try await bob.expect("You voted recipe #\(id) up")
            try await bob.send("!save \(id)")
            try await bob.expect("saved")
            try await bob.send("!recipe \(id)")
            try await bob.expect("score 1 (▲1 ▼0) · 0 comments · you voted ▲ · saved")
            try await ann.send("!recipe \(id)")
            let own = try await ann.expect("score 1 (▲1 ▼0)")
            #expect(!own.contains("you voted"))
        }
    }

    /// Counts read as English: "1 ingredient, 1 step", not "1 ingredients, 1 steps".
    @Test func oneIngredientAndOneStepAreSingular() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            try await ann.send("!recipe new")
            try await ann.expect("What is the recipe called?")
            for line in ["Tea", "1 tsp tea", ".", "Brew.", ".", "-", "-"] { try await ann.send(line) }
            try await ann.expect("“Tea” is ready (1 ingredient, 1 step)")
            try await ann.send("!recipe new")
            try await ann.expect("You have your draft “Tea” (1 ingredient, 1 step)")
        }
    }

    /// Chat's recipe lists link each recipe's photo, as meme lists link their pictures.
    @Test func recipeListsLinkTheirPhotos() async throws {
        try await withServer { server in
            let (cook, _) = try await RecipePageTests.cookPostsARecipe(server, photo: true)
            let photo = "http://127.0.0.1:\(server.httpPort)/i/"
            for command in ["!recipes new", "!recipes hot", "!recipes by cook", "!search tomatoes"] {
                try await cook.send(command)
                let line = try await cook.expect("#1  Tomato soup")
                #expect(line.contains(photo), "\(command): \(line)")
            }
            try await cook.send("!save 1")
            try await cook.send("!saved")
            #expect(try await cook.expect("#1  Tomato soup").contains(photo))
        }
    }

    /// An amount too large to be one (past `Ingredient.maxAmount`) is shown as written when the
    /// recipe is scaled, converted or put on the shopping list, on the page and in chat.
    @Test func aHugeAmountIsShownAsWritten() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let id = try await RecipeTests.post(
                ann, title: "Big omelette", ingredients: ["Serves 1", "100000000000000000000 eggs", "1 cup milk"],
                steps: ["Whisk; fry."])
            let page = try await WebBrowser(server).get("/r/\(id)?serves=2")
            #expect(page.body.contains("<li>100000000000000000000 eggs</li>"))
            try await ann.send("!recipe \(id) for 2")
            try await ann.expect("• 100000000000000000000 eggs")
            try await ann.expect("• 2 cups milk")
            try await ann.send("!set units imperial")
            try await ann.expect("units is now imperial")
            try await ann.send("!recipe \(id) for 2")
            try await ann.expect("• 100000000000000000000 eggs")
            try await ann.send("!plan mon \(id)")
            try await ann.expect("Monday: #\(id)")
            try await ann.send("!shop")
            try await ann.expect("☐ 100000000000000000000 eggs")
        }
    }
}
