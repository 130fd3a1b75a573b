import Testing

@testable import HearthApps

/// Ingredient lines as people write them (from real recipes), read into amount, unit and food,
/// then scaled and converted the way `!recipe N for M` and `!set units` show them.
@Suite struct IngredientTests {
    /// (line, low, high, unit, food)
    static let lines: [(String, Double?, Double?, String?, String)] = [
        ("2 cups flour", 2, nil, "cup", "flour"),
        ("1½ tbsp olive oil", 1.5, nil, "tbsp", "olive oil"),
        ("1 ½ tbsp olive oil", 1.5, nil, "tbsp", "olive oil"),
        ("1/2 tsp salt", 0.5, nil, "tsp", "salt"),
        ("1 1/2 cups milk", 1.5, nil, "cup", "milk"),
        ("200 g butter", 200, nil, "g", "butter"),
        ("200g butter", 200, nil, "g", "butter"),
        ("3 large eggs", 3, nil, nil, "large eggs"),
        ("salt to taste", nil, nil, nil, "salt to taste"),
        ("2-3 cloves garlic", 2, 3, "clove", "garlic"),
        ("2 – 3 cloves garlic, crushed", 2, 3, "clove", "garlic, crushed"),
        ("2 to 3 tbsp honey", 2, 3, "tbsp", "honey"),
        ("¾ cup sugar", 0.75, nil, "cup", "sugar"),
        ("⅓ cup cream", 1.0 / 3, nil, "cup", "cream"),
        ("1.5 kg potatoes", 1.5, nil, "kg", "potatoes"),
        ("0,5 l stock", 0.5, nil, "l", "stock"),
        ("500ml whole milk", 500, nil, "ml", "whole milk"),
        ("1 Tbsp. soy sauce", 1, nil, "tbsp", "soy sauce"),
        ("2 T butter", 2, nil, "tbsp", "butter"),
        ("1 t vanilla", 1, nil, "tsp", "vanilla"),
        ("8 oz cream cheese", 8, nil, "oz", "cream cheese"),
        ("1 lb ground beef", 1, nil, "lb", "ground beef"),
        ("4 fl oz rum", 4, nil, "fl oz", "rum"),
        ("a pinch of salt", 1, nil, "pinch", "salt"),
        ("1 can (400 g) chickpeas", 1, nil, "can", "(400 g) chickpeas"),
        ("- 2 onions", 2, nil, nil, "onions"),
        ("Juice of 1 lemon", nil, nil, nil, "Juice of 1 lemon"),
        ("1 tablespoon of cinnamon", 1, nil, "tbsp", "cinnamon"),
        ("3 tomatoes", 3, nil, nil, "tomatoes"),
    ]

    @Test(arguments: lines.indices) func readsRealLines(_ index: Int) {
        let (line, low, high, unit, food) = Self.lines[index]
        let read = Ingredient(line)
        #expect(read.text == line)
        #expect(read.low.map { ($0 * 1000).rounded() } == low.map { ($0 * 1000).rounded() }, "\(line)")
        #expect(read.high == high, "\(line)")
        #expect(read.unit?.singular == unit, "\(line)")
        #expect(read.food == food, "\(line)")
    }

    @Test func theLineAsWrittenWhenNothingChanges() {
        for line in ["1½ tbsp olive oil", "salt to taste", "2-3 cloves garlic", "200g butter"] {
            #expect(Ingredient(line).shown(times: 1, in: nil) == line)
            #expect(Ingredient(line).shown(times: 1, in: .neither) == line)
        }
        // Already in the reader's system: unchanged too.
        #expect(Ingredient("200g butter").shown(times: 1, in: .metric) == "200g butter")
        #expect(Ingredient("2 cups flour").shown(times: 1, in: .imperial) == "2 cups flour")
        #expect(Ingredient("salt to taste").shown(times: 3, in: .metric) == "salt to taste")
    }

    @Test func scalesWithKitchenFractionsAndMetricRounding() {
        func scaled(_ line: String, _ factor: Double) -> String { Ingredient(line).shown(times: factor, in: nil) }
        #expect(scaled("2 cups flour", 1.5) == "3 cups flour")
        #expect(scaled("1 cup milk", 0.5) == "½ cup milk")
        #expect(scaled("1½ tbsp olive oil", 2) == "3 tbsp olive oil")
        #expect(scaled("1/2 tsp salt", 6 / 4) == "¾ tsp salt")
        #expect(scaled("1 tsp salt", 3) == "1 tbsp salt")
        #expect(scaled("3 large eggs", 2) == "6 large eggs")
        #expect(scaled("3 large eggs", 0.5) == "1½ large eggs")
        #expect(scaled("2-3 cloves garlic", 2) == "4–6 cloves garlic")
        #expect(scaled("1 clove garlic", 0.5) == "½ clove garlic")
        #expect(scaled("200 g butter", 1.5) == "300 g butter")
        #expect(scaled("200 g butter", 1 / 3) == "67 g butter")
        #expect(scaled("750 g flour", 2) == "1.5 kg flour")
        #expect(scaled("1.5 kg potatoes", 0.25) == "375 g potatoes")
        #expect(scaled("333 ml stock", 1) == "333 ml stock")
        #expect(scaled("333 ml stock", 1.1) == "365 ml stock")
        #expect(scaled("1 cup sugar", 1.0 / 3) == "⅓ cup sugar")
        #expect(scaled("2 cups sugar", 1.0 / 3) == "⅔ cup sugar")
        #expect(scaled("salt to taste", 2) == "salt to taste")
        #expect(scaled("24 cookies", 1.25) == "30 cookies")
    }

    /// Scaled to one or less, a count with no unit names its food in the singular ("1 large egg",
    /// not "1 large eggs"), as recipe sites write the lines; more than one keeps the plural.
    @Test func oneOrLessOfAFoodIsSaidInTheSingular() {
        func scaled(_ line: String, _ factor: Double) -> String { Ingredient(line).shown(times: factor, in: nil) }
        #expect(scaled("3 large eggs", 1.0 / 3) == "1 large egg")
        #expect(scaled("2 ripe tomatoes, chopped", 0.5) == "1 ripe tomato, chopped")
        #expect(scaled("4 medium potatoes (about 800 g), peeled", 0.25) == "1 medium potato (about 800 g), peeled")
        #expect(scaled("2 lemons, juiced", 0.25) == "½ lemon, juiced")
        #expect(scaled("2 bay leaves", 0.5) == "1 bay leaf")
        #expect(scaled("2 boneless chicken breasts", 0.5) == "1 boneless chicken breast")
        #expect(scaled("4 cherries", 0.25) == "1 cherry")
        #expect(scaled("6 cloves garlic", 1.0 / 6) == "1 clove garlic")
        #expect(scaled("4 Brussels sprouts", 0.25) == "1 Brussels sprout")  // a name stays as written
        #expect(scaled("2 eggs", 1.5) == "3 eggs")
        #expect(scaled("3 large eggs", 0.5) == "1½ large eggs")
        #expect(scaled("2-3 eggs", 0.5) == "1–1½ eggs")  // a range up to more than one keeps the plural
    }

    /// A walkthrough: `!recipe 1 for 6` in metric showed "7.4 ml cumin" and "44 ml olive oil".
    /// Spoons stay spoons in quarter steps; a jug's millilitres come in fives.
    @Test func metricKeepsSpoonsAndRoundsToWhatACookMeasures() {
        func metric(_ line: String, _ factor: Double) -> String { Ingredient(line).shown(times: factor, in: .metric) }
        #expect(metric("1 tsp cumin", 6 / 4) == "1½ tsp cumin")
        #expect(metric("2 tbsp olive oil", 6 / 4) == "3 tbsp olive oil")
        #expect(metric("1 tsp salt", 1 / 3) == "¼ tsp salt")  // no ⅓ spoon: quarter steps
        #expect(metric("⅛ tsp chili", 1 / 2) == "⅛ tsp chili")  // never nothing
        #expect(metric("1 tsp cumin", 3) == "1 tbsp cumin")
        #expect(metric("4 tbsp butter", 2) == "120 ml butter")  // past a quarter cup, the jug
        #expect(metric("100 ml cream", 0.44) == "45 ml cream")
        #expect(metric("200 g flour", 0.37) == "74 g flour")  // a scale reads grams
        #expect(Ingredient("2 tbsp oil").shown(times: 1.1, in: .imperial) == "2¼ tbsp oil")
    }

    @Test func convertsBetweenSystems() {
        func shown(_ line: String, _ system: IngredientUnit.System) -> String {
            Ingredient(line).shown(times: 1, in: system)
        }
        #expect(shown("2 cups flour", .metric) == "475 ml flour")
        #expect(shown("1 tbsp soy sauce", .metric) == "1 tbsp soy sauce")  // spoons are metric measures too
        #expect(shown("8 oz cream cheese", .metric) == "225 g cream cheese")
        #expect(shown("2 lb potatoes", .metric) == "905 g potatoes")
        #expect(shown("3 lb potatoes", .metric) == "1.4 kg potatoes")
        #expect(shown("200 g butter", .imperial) == "7 oz butter")
        #expect(shown("1 kg flour", .imperial) == "2¼ lb flour")
        #expect(shown("250 ml milk", .imperial) == "1 cup milk")
        #expect(shown("5 ml vanilla", .imperial) == "1 tsp vanilla")
        #expect(shown("30 ml oil", .imperial) == "2 tbsp oil")
        #expect(shown("2-3 cloves garlic", .metric) == "2-3 cloves garlic")
        #expect(Ingredient("1 cup milk").shown(times: 2, in: .metric) == "475 ml milk")
        #expect(Ingredient("1 l stock").shown(times: 2, in: .imperial) == "8½ cups stock")
    }

    @Test func ovenTemperaturesInSteps() {
        #expect(RecipeUnits.step("Bake at 180 °C for 20 minutes.", in: .imperial) == "Bake at 350 °F for 20 minutes.")
        #expect(RecipeUnits.step("Heat the oven to 350F.", in: .metric) == "Heat the oven to 180 °C.")
        #expect(RecipeUnits.step("Roast at 425 degrees F", in: .metric) == "Roast at 220 °C")
        #expect(RecipeUnits.step("200C, then 180C", in: .imperial) == "400 °F, then 350 °F")
        #expect(RecipeUnits.step("Heat the oven to 350F.", in: nil) == "Heat the oven to 350F.")
        #expect(RecipeUnits.step("Heat to 180 °C.", in: .metric) == "Heat to 180 °C.")
        #expect(RecipeUnits.step("Add 2 C of stock; chill at 4C.", in: .imperial) == "Add 2 C of stock; chill at 4C.")
    }

    @Test func foodKeysMerge() {
        #expect(Ingredient("3 large eggs, beaten").key == "egg")
        #expect(Ingredient("2 eggs").key == "egg")
        #expect(Ingredient("salt to taste").key == "salt")
        #expect(Ingredient("1 can (400 g) chickpeas").key == "chickpea")
        #expect(Ingredient("4 tomatoes").key == "tomato")
        #expect(Ingredient("2 cups fresh berries").key == "berry")
    }

    /// An amount past `Ingredient.maxAmount` is no amount: the line is kept as written, never
    /// scaled or converted; and no amount, however large, traps when it is written out.
    @Test func hugeAmountsAreKeptAsWritten() {
        let huge = Ingredient("100000000000000000000 eggs")
        #expect(huge.low == nil && huge.unit == nil)
        #expect(huge.food == "100000000000000000000 eggs")
        #expect(huge.shown(times: 2, in: .imperial) == "100000000000000000000 eggs")
        #expect(Ingredient("\(Int(Ingredient.maxAmount) + 1) g flour").low == nil)
        #expect(Ingredient("\(Int(Ingredient.maxAmount)) g flour").low == Ingredient.maxAmount)
        #expect(Ingredient("2-\(Int(Ingredient.maxAmount) * 10) g flour").high == nil)
        for value in [Double.infinity, -Double.infinity, .nan, 1e300, 9.3e18] {
            _ = Ingredient.fraction(value)
            _ = Ingredient.metric(value)
        }
        #expect(Ingredient.fraction(1e300) == Ingredient.tooMuch)
    }
}
