import Foundation

/// A unit an ingredient line may name, with what it measures and its size in that measure's
/// base (millilitres, grams), so lines can be converted and merged.
struct IngredientUnit: Sendable, Equatable, Hashable {
    enum Measure: Sendable, Hashable { case volume, weight, count }
    enum System: Sendable, Hashable { case metric, imperial, neither }

    /// How it is written back: "cup"/"cups", "g"/"g".
    let singular: String
    let plural: String
    let measure: Measure
    let system: System
    /// Millilitres or grams in one of it (1 for counted units, which never convert).
    let base: Double

    static func volume(_ one: String, _ many: String? = nil, ml: Double, _ system: System) -> IngredientUnit {
        IngredientUnit(singular: one, plural: many ?? one, measure: .volume, system: system, base: ml)
    }
    static func weight(_ one: String, _ many: String? = nil, g: Double, _ system: System) -> IngredientUnit {
        IngredientUnit(singular: one, plural: many ?? one, measure: .weight, system: system, base: g)
    }
    static func counted(_ one: String, _ many: String) -> IngredientUnit {
        IngredientUnit(singular: one, plural: many, measure: .count, system: .neither, base: 1)
    }

    static let ml = volume("ml", ml: 1, .metric)
    static let cl = volume("cl", ml: 10, .metric)
    static let dl = volume("dl", ml: 100, .metric)
    static let litre = volume("l", ml: 1000, .metric)
    static let tsp = volume("tsp", ml: 4.92892, .imperial)
    static let tbsp = volume("tbsp", ml: 14.7868, .imperial)
    static let cup = volume("cup", "cups", ml: 236.588, .imperial)
    static let flOz = volume("fl oz", ml: 29.5735, .imperial)
    static let pint = volume("pint", "pints", ml: 473.176, .imperial)
    static let quart = volume("quart", "quarts", ml: 946.353, .imperial)
    static let gallon = volume("gallon", "gallons", ml: 3785.41, .imperial)
    static let mg = weight("mg", g: 0.001, .metric)
    static let gram = weight("g", g: 1, .metric)
    static let kg = weight("kg", g: 1000, .metric)
    static let oz = weight("oz", g: 28.3495, .imperial)
    static let lb = weight("lb", g: 453.592, .imperial)

    /// Teaspoons and tablespoons are measures in both systems (5 ml, 15 ml): kept in metric too.
    var isSpoon: Bool { self == .tsp || self == .tbsp }

    /// The words a line may use for each unit (lower-case, without a final dot).
    static let names: [String: IngredientUnit] = {
        var names: [String: IngredientUnit] = [:]
        func add(_ unit: IngredientUnit, _ words: String) {
            for word in words.split(separator: " ") {
                names[String(word).replacingOccurrences(of: "_", with: " ")] = unit
            }
        }
        add(ml, "ml mls millilitre millilitres milliliter milliliters")
        add(cl, "cl centilitre centilitres centiliter centiliters")
        add(dl, "dl decilitre decilitres deciliter deciliters")
        add(litre, "l litre litres liter liters ltr")
        add(tsp, "tsp tsps teaspoon teaspoons t")
        add(tbsp, "tbsp tbsps tbs tablespoon tablespoons tbl")
        add(cup, "cup cups c")
        add(flOz, "fl_oz fl._oz floz fluid_ounce fluid_ounces")
        add(pint, "pint pints pt")
        add(quart, "quart quarts qt")
        add(gallon, "gallon gallons gal")
        add(mg, "mg milligram milligrams")
        add(gram, "g gr gram grams gramme grammes")
        add(kg, "kg kgs kilo kilos kilogram kilograms")
        add(oz, "oz ounce ounces")
        add(lb, "lb lbs pound pounds")
        for (one, many) in [
            ("clove", "cloves"), ("pinch", "pinches"), ("can", "cans"), ("tin", "tins"), ("slice", "slices"),
            ("piece", "pieces"), ("bunch", "bunches"), ("stick", "sticks"), ("handful", "handfuls"),
            ("sprig", "sprigs"), ("dash", "dashes"), ("packet", "packets"), ("jar", "jars"), ("head", "heads"),
            ("stalk", "stalks"), ("sheet", "sheets"), ("knob", "knobs"), ("drop", "drops"),
        ] {
            let unit = counted(one, many)
            names[one] = unit
            names[many] = unit
        }
        return names
    }()

    /// The unit a word names: "Tbsp." and "tbsp" alike; "T" (tablespoon) and "t" (teaspoon) by case.
    static func named(_ word: String) -> IngredientUnit? {
        var word = word
        if word.hasSuffix("."), word.count > 1 { word.removeLast() }
        return word == "T" ? tbsp : names[word.lowercased()]
    }

    /// "1 cup", "½ cup", "1½ cups": singular for one or a fraction of one, as the amount is written.
    func written(as amount: String) -> String {
        Ingredient.isOneOrLess(amount) ? singular : plural
    }
}
