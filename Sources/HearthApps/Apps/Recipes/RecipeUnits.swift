import Foundation

/// How a reader wants recipes shown (`!set units metric|imperial`): ingredient amounts and the
/// oven temperatures in the steps converted, everything else as written.
enum RecipeUnits {
    /// The account setting that holds the choice.
    static let settingKey = "units"
    static let choices: [String: IngredientUnit.System] = ["metric": .metric, "imperial": .imperial]

    /// "180C", "350 °F", "200 degrees C": a number of two or three digits and C or F after it.
    static let temperature = try! NSRegularExpression(
        pattern: "\\b(\\d{2,3})(?:\\s*°\\s*|\\s*degrees\\s+|\\s?)([CF])\\b", options: [.caseInsensitive])

    /// A step with its temperatures in `system` ("180 °C", "350 °F"), rounded the way ovens are
    /// marked (10 °C, 25 °F); a step with none, or no system, is the same text.
    static func step(_ text: String, in system: IngredientUnit.System?) -> String {
        guard let system, system != .neither else { return text }
        let whole = NSRange(text.startIndex..., in: text)
        let result = NSMutableString(string: text)
        for match in temperature.matches(in: text, range: whole).reversed() {
            guard let numberRange = Range(match.range(at: 1), in: text),
                let scaleRange = Range(match.range(at: 2), in: text),
                let degrees = Double(text[numberRange])
            else { continue }
            let celsius = text[scaleRange].uppercased() == "C"
            // Below 90 it is not an oven: a room, a fridge, or "20 C" meaning cups.
            guard degrees >= 90 else { continue }
            let shown: String
            switch (celsius, system) {
            case (true, .imperial): shown = "\(Int(((degrees * 9 / 5 + 32) / 25).rounded()) * 25) °F"
            case (false, .metric): shown = "\(Int(((degrees - 32) * 5 / 9 / 10).rounded()) * 10) °C"
            default: shown = "\(Int(degrees)) °\(celsius ? "C" : "F")"
            }
            result.replaceCharacters(in: match.range, with: shown)
        }
        return result as String
    }
}
