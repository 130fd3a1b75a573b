import Foundation
import HearthTesting
import Testing

/// The meal plan, the shopping list built from it and `!cook with`, over TCP: a family shares
/// one plan and one list (anyone ticks items off); a person in no family has their own.
@Suite struct MealPlanTests {
    @Test func aFamilyPlansTheWeekAndShopsFromOneList() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let bob = try await TestClient.user(server, "bob")
            let eve = try await TestClient.user(server, "eve")
            let pancakes = try await RecipeTests.post(
                ann, title: "Pancakes",
                ingredients: ["Serves 4", "2 cups flour", "1 cup milk", "3 large eggs", "salt to taste"],
                steps: ["Mix.", "Fry."])
            let omelette = try await RecipeTests.post(
                ann, title: "Omelette", ingredients: ["2 eggs", "1/2 cup milk", "20 g butter"], steps: ["Whisk; fry."])

            // ann and bob are one family; eve is in none and has her own plan.
            try await ann.send("!tree new The Rivers")
            try await ann.expect("Its private channel is #family-1.")
            try await ann.send("!tree invite as child")
            let code = try FamilyTests.code(in: try await ann.expect("Invite code for The Rivers as your child: "))
            try await bob.send("!tree join \(code)")
            try await bob.expect("Welcome to The Rivers")

            try await ann.send("!plan sat \(pancakes)")
            try await ann.expect("Saturday: #\(pancakes) Pancakes is on The Rivers' plan")
            try await bob.send("!plan sun \(omelette)")
            try await bob.expect("Sunday: #\(omelette) Omelette is on The Rivers' plan")
            try await ann.send("!plan")
            try await ann.expect("The Rivers' week")
            try await ann.expect("Saturday: #\(pancakes) Pancakes")
            try await ann.expect("Sunday: #\(omelette) Omelette")

            // Merged by food and unit: 3 + 2 eggs, 1 + ½ cup milk.
            try await bob.send("!shop")
            try await bob.expect("The Rivers' list (5 to get):")
            try await bob.expect("1. ☐ 2 cups flour")
            try await bob.expect("2. ☐ 1½ cups milk")
            try await bob.expect("3. ☐ 5 large eggs")
            try await bob.expect("4. ☐ salt to taste")
            try await bob.expect("5. ☐ 20 g butter")
            try await bob.send("!shop tick 3")
            try await bob.expect("✓ 5 large eggs")
            try await ann.send("!shop add coffee")
            try await ann.expect("Added to The Rivers' list: coffee.")
            try await ann.send("!shop")
            try await ann.expect("(5 to get)")
            try await ann.expect("3. ✓ 5 large eggs")
            try await ann.expect("6. ☐ coffee")
            try await ann.send("!shop tick 9")
            try await ann.expect("there is no item 9 on The Rivers' list — !shop shows each item's number")

            // Clearing a day takes its food off the list; a tick on what stays is kept.
            try await ann.send("!plan clear sun")
            try await ann.expect("Sunday is clear again.")
            try await ann.send("!shop")
            try await ann.expect("1. ☐ 2 cups flour")
            try await ann.expect("2. ☐ 1 cup milk")
            try await ann.expect("3. ✓ 3 large eggs")
            try await ann.expect("6. ☐ coffee")  // its own number, though butter above it is gone

            // Someone in no family plans for themselves; the family's plan is not theirs.
            try await eve.send("!plan")
            try await eve.expect("Nothing planned yet")
            try await eve.send("!plan fri \(omelette)")
            try await eve.expect("Friday: #\(omelette) Omelette is on your plan")

            // Bad input says why and changes nothing.
            try await ann.send("!plan someday \(pancakes)")
            try await ann.expect("someday is not a day")
            try await ann.send("!plan sat 999")
            try await ann.expect("there is no recipe #999")
            try await ann.send("!plan sat \(pancakes)")
            try await ann.expect("Saturday already has that recipe")
        }
    }

    /// An item is ticked by its own number, in chat and on the page: a list that changed since
    /// it was read (a day cleared, a line added) never has the wrong line ticked.
    @Test func aTickStaysWithItsItemWhileTheListChanges() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let bread = try await RecipeTests.post(
                ann, title: "Bread", ingredients: ["500 g flour", "300 ml milk"], steps: ["Knead.", "Bake."])
            let eggs = try await RecipeTests.post(ann, title: "Eggs", ingredients: ["3 large eggs"], steps: ["Boil."])
            try await ann.send("!plan sat \(bread)")
            try await ann.expect("is on your plan")
            try await ann.send("!plan sun \(eggs)")
            try await ann.expect("is on your plan")
            try await ann.send("!shop")
            try await ann.expect("1. ☐ 500 g flour")
            try await ann.expect("2. ☐ 300 ml milk")
            try await ann.expect("3. ☐ 3 large eggs")
            // The page is drawn now: its eggs button stands for item 3.
            let web = WebBrowser(server)
            try await web.signIn("ann")
            let page = try await web.get("/shop")
            #expect(page.body.contains(#"name="n" value="3">"#))

            // Meanwhile the list changes: Saturday cleared (flour and milk gone), coffee added.
            try await ann.send("!plan clear sat")
            try await ann.expect("Saturday is clear again.")
            try await ann.send("!shop add coffee")
            try await ann.expect("Added to your list: coffee.")
            // Milk, read as 2, is gone: not coffee, now second.
            try await ann.send("!shop tick 2")
            try await ann.expect("there is no item 2 on your list")
            _ = try await web.post("/shop/tick", form: ["n": "3", "ticked": "1"])
            try await ann.send("!shop")
            try await ann.expect("(1 to get)")
            try await ann.expect("3. ✓ 3 large eggs")
            try await ann.expect("4. ☐ coffee")
            try await ann.send("!shop untick 3")
            try await ann.expect("Back on the list: 3 large eggs")
        }
    }

    @Test func limitsAreCrossedByOne() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            var ids: [Int] = []
            for n in 1...4 {
                ids.append(
                    try await RecipeTests.post(ann, title: "Dish \(n)", ingredients: ["1 egg"], steps: ["Cook."]))
            }
            for id in ids.prefix(3) {
                try await ann.send("!plan mon \(id)")
                try await ann.expect("Monday: #\(id)")
            }
            try await ann.send("!plan mon \(ids[3])")
            try await ann.expect("Monday already has that recipe or 3 meals")

            try await ann.send("!shop add " + String(repeating: "x", count: 101))
            try await ann.expect("an item may have 100 characters; that one has 101")
            try await ann.send("!shop add " + String(repeating: "x", count: 100))
            try await ann.expect("Added to your list")
            // The list holds 100 lines: one planned (eggs), one added, 98 more fit.
            for n in 1...98 { try await ann.send("!shop add thing \(n)") }
            try await ann.expect("Added to your list: thing 98.", timeout: 120)  // a burst: slow on a loaded machine
            try await ann.send("!shop add one too many")
            try await ann.expect("the list has 100 items already")
            // Planning more food keeps the list within its limit and says what was left out.
            let apples = try await RecipeTests.post(
                ann, title: "Apples", ingredients: ["2 apples", "1 pear"], steps: ["Slice."])
            try await ann.send("!plan tue \(apples)")
            try await ann.expect("2 planned items left out: the list holds 100")
            try await ann.send("!shop")
            try await ann.expect("(100 to get)")
            try await ann.expect("2 planned items left out: the list holds 100")

            // A number that is not an item's says so (no overflow on the smallest Int).
            for bad in ["-9223372036854775808", "0", "-1"] {
                try await ann.send("!shop tick \(bad)")
                try await ann.expect("tick which? e.g. !shop tick 3")
                try await ann.send("!shop untick \(bad)")
                try await ann.expect("untick which? e.g. !shop untick 3")
            }
        }
    }

    @Test func cookWithWhatIsOnHand() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let pancakes = try await RecipeTests.post(
                ann, title: "Pancakes", ingredients: ["2 cups flour", "1 cup milk", "3 large eggs", "salt to taste"],
                steps: ["Mix.", "Fry."])
            _ = try await RecipeTests.post(
                ann, title: "Beef stew", ingredients: ["1 kg beef", "4 carrots", "2 onions", "1 l stock"],
                steps: ["Stew."])
            try await ann.send("!cook with eggs, flour, milk")
            let line = try await ann.expect("#\(pancakes) Pancakes by ann — you have everything")
            #expect(!line.contains("stew"))
            try await ann.send("!cook with beef")
            try await ann.expect("Nothing I know is mostly made of that")
            try await ann.send("!cook with " + (1...31).map { "food\($0)" }.joined(separator: ", "))
            try await ann.expect("give up to 30 foods; that was 31")
        }
    }
}
