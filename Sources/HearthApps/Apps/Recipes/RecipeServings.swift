import Foundation
import HearthKit
import HearthStore

/// How many a recipe feeds, and its amounts for another number (`!recipe 12 for 6`, the page's
/// `?serves=6`) in the reader's units (`!set units metric|imperial`).
enum RecipeServings {
    /// The most servings a recipe may say, or be scaled to.
    static let maxServings = 100

    /// "serves 4", "Servings: 6", "makes 12", "for 2 people": the number, when a line says only that.
    static let servingsLine = try! NSRegularExpression(
        pattern: "^(?:serves|servings:?|makes|yield:?|for)\\s+(\\d{1,4})"
            + "(?:\\s+(?:people|persons|servings|portions))?\\.?$",
        options: [.caseInsensitive])

    /// The servings a line of ingredients says instead of naming an ingredient (nil: a real ingredient).
    static func said(_ line: String) throws -> Int? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard let match = servingsLine.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text), let count = Int(text[range])
        else { return nil }
        return try checked(count)
    }

    static func checked(_ count: Int) throws -> Int {
        guard (1...maxServings).contains(count) else {
            throw BotError("servings are 1 to \(maxServings)")
        }
        return count
    }

    /// The reader's units: nil shows amounts as each recipe writes them.
    static func system(_ settings: UserSettings?) -> IngredientUnit.System? {
        settings.flatMap { RecipeUnits.choices[$0[RecipeUnits.settingKey]] }
    }

    /// A recipe's ingredients and steps for `servings` (nil: as written) in `system`.
    static func shown(_ recipe: RecipeRecord, servings: Int?, in system: IngredientUnit.System?) -> (
        ingredients: [String], steps: [String]
    ) {
        let factor = servings.flatMap { wanted in recipe.servings.map { Double(wanted) / Double($0) } } ?? 1
        let ingredients = recipe.ingredients.split(separator: "\n").map {
            Ingredient(String($0)).shown(times: factor, in: system)
        }
        let steps = recipe.steps.split(separator: "\n").map { RecipeUnits.step(String($0), in: system) }
        return (ingredients, steps)
    }

    /// "serves 4" or "for 6; the recipe serves 4": what the amounts shown are for.
    static func heading(_ recipe: RecipeRecord, servings: Int?) -> String? {
        guard let written = recipe.servings else { return nil }
        guard let servings, servings != written else { return "serves \(written)" }
        return "for \(servings); the recipe serves \(written)"
    }

    /// `!recipe ID for N`: the number, checked; a recipe that never said its servings cannot be scaled.
    static func wanted(_ request: BotRequest, _ recipe: Stored<RecipeRecord>, _ word: String) throws -> Int {
        guard let count = Int(word) else { throw request.usageError("\(word) is not a number of servings") }
        let checked = try checked(count)
        guard recipe.servings != nil else {
            throw BotError(
                "recipe #\(recipe.id) does not say how many it serves, so it cannot be scaled — its writer can "
                    + "add it: !recipe edit \(recipe.id) servings N")
        }
        return checked
    }
}
