import Foundation

/// One ingredient line read as quantity, unit and food where it can be ("1½ tbsp olive oil",
/// "2-3 cloves garlic", "200g butter"); the line as written is kept, and shown whenever the
/// quantity is neither scaled nor converted. A line it cannot read ("salt to taste") is food only.
struct Ingredient: Sendable, Equatable {
    let text: String
    /// The amount, a range for "2-3"; nil when the line has none.
    var low: Double?
    var high: Double?
    var unit: IngredientUnit?
    var food: String

    /// The largest amount a line may give; a line past it is kept as written, with no amount.
    static let maxAmount = 1_000_000.0
    /// What an amount too large to write as a whole number is shown as (it can only come from
    /// scaling and converting amounts within `maxAmount`, but never traps).
    static let tooMuch = "lots of"

    static let fractions: [Character: Double] = [
        "½": 1 / 2, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 1 / 4, "¾": 3 / 4, "⅕": 1 / 5, "⅖": 2 / 5, "⅗": 3 / 5, "⅘": 4 / 5,
        "⅙": 1 / 6, "⅚": 5 / 6, "⅛": 1 / 8, "⅜": 3 / 8, "⅝": 5 / 8, "⅞": 7 / 8,
    ]

    init(_ line: String) {
        text = line
        var rest = Substring(line.trimmingCharacters(in: .whitespaces))
        if let first = rest.first, "-•*".contains(first) { rest = rest.dropFirst().drop { $0 == " " } }
        food = String(rest)
        guard let (low, afterLow) = Self.number(rest) else {
            // "a pinch of salt": "a" is one when a unit follows.
            let words = rest.split(separator: " ", maxSplits: 2)
            if words.count == 3, ["a", "an"].contains(words[0].lowercased()),
                let unit = IngredientUnit.named(
                    String(words[1]))
            {
                (self.low, self.unit) = (1, unit)
                food = Self.dropOf(words[2])
            }
            return
        }
        // Past the limit it is not an amount anyone cooks with: the line stays as written.
        guard low <= Self.maxAmount else { return }
        self.low = low
        rest = afterLow
        // A range: "2-3", "2 – 3", "2 to 3".
        let trimmed = rest.drop { $0 == " " }
        for dash in ["-", "–", "—", "to "] where trimmed.hasPrefix(dash) {
            if let (high, afterHigh) = Self.number(trimmed.dropFirst(dash.count).drop { $0 == " " }), high > low {
                guard high <= Self.maxAmount else {
                    self.low = nil
                    return
                }
                self.high = high
                rest = afterHigh
            }
            break
        }
        rest = rest.drop { $0 == " " }
        // The unit: a word ("cups", "Tbsp.", "fl oz"), or letters glued to the number ("200g").
        let word = rest.prefix { !$0.isWhitespace }
        if rest.lowercased().hasPrefix("fl oz") || rest.lowercased().hasPrefix("fl. oz") {
            unit = .flOz
            rest = rest.dropFirst(rest.lowercased().hasPrefix("fl oz") ? 5 : 6)
        } else if let unit = IngredientUnit.named(String(word)) {
            self.unit = unit
            rest = rest.dropFirst(word.count)
        }
        food = Self.dropOf(rest)
    }

    /// The rest of a line after "of " ("a pinch of salt").
    static func dropOf(_ text: Substring) -> String {
        let text = text.drop { $0 == " " }
        return String(text.lowercased().hasPrefix("of ") ? text.dropFirst(3) : text)
    }

    /// A number at the start: "2", "1.5", "1,5", "½", "1½", "1 ½", "1/2", "1 1/2"; and what follows.
    static func number(_ text: Substring) -> (Double, Substring)? {
        if let first = text.first, let fraction = fractions[first] { return (fraction, text.dropFirst()) }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, var value = Double(digits) else { return nil }
        var rest = text.dropFirst(digits.count)
        if let mark = rest.first, mark == "." || mark == ",", let next = rest.dropFirst().first, next.isASCII,
            next.isNumber
        {
            let decimals = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            value = Double("\(digits).\(decimals)") ?? value
            return (value, rest.dropFirst(1 + decimals.count))
        }
        if let over = slash(rest) { return (value / over.0, over.1) }
        let spaced = rest.drop { $0 == " " }
        if let first = spaced.first, let fraction = fractions[first] { return (value + fraction, spaced.dropFirst()) }
        if spaced.count < rest.count, let top = spaced.prefix(while: { $0.isASCII && $0.isNumber }).nilIfEmpty,
            let over = slash(spaced.dropFirst(top.count)), let numerator = Double(top)
        {
            return (value + numerator / over.0, over.1)
        }
        return (value, rest)
    }

    /// "/2" at the start: the denominator and what follows.
    static func slash(_ text: Substring) -> (Double, Substring)? {
        guard text.first == "/" else { return nil }
        let digits = text.dropFirst().prefix { $0.isASCII && $0.isNumber }
        guard let value = Double(digits), value > 0 else { return nil }
        return (value, text.dropFirst(1 + digits.count))
    }

    var hasAmount: Bool { low != nil }

    /// The line for `factor` times the servings, in `system`'s units (nil keeps the line's own):
    /// the line as written when nothing changes or it has no amount to change.
    func shown(times factor: Double, in system: IngredientUnit.System?) -> String {
        guard let low else { return text }
        let system = system == .neither ? nil : system
        let spoonInMetric = unit?.isSpoon == true && system == .metric
        let converting =
            unit.map { $0.measure != .count && system != nil && $0.system != system } ?? false && !spoonInMetric
        if factor == 1, !converting { return text }
        let target = converting || spoonInMetric ? system! : unit?.system ?? .neither
        let (lowText, chosen) = Self.amount(low * factor, unit, in: target)
        let highText = high.map { Self.amount($0 * factor, unit, in: target, as: chosen).text }
        let unitText = chosen.map { " " + $0.written(as: highText ?? lowText) }
        let food = Self.food(food, for: highText ?? lowText, unit: chosen)
        return lowText + (highText.map { "–" + $0 } ?? "") + (unitText ?? "") + (food.isEmpty ? "" : " " + food)
    }

    /// Whether an amount as written is one or a part of one ("1", "½", "0.5"), said in the
    /// singular: "1 cup", "½ cup" but "1½ cups".
    static func isOneOrLess(_ amount: String) -> Bool {
        amount == "1" || amount.first.map { !$0.isASCII } == true || amount.hasPrefix("0")
    }

    /// The food as said of one or less of it ("3 large eggs" for a third: "1 large egg"): a count
    /// with no unit takes the first plural word of its name (before a comma or bracket) in the
    /// singular. A capitalised word is a name ("Brussels sprouts") and is left as it is.
    static func food(_ food: String, for amount: String, unit: IngredientUnit?) -> String {
        guard unit == nil, isOneOrLess(amount) else { return food }
        let end = food.firstIndex { $0 == "," || $0 == "(" } ?? food.endIndex
        var words = food[..<end].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let plural = { (word: String) in
            word.count > 3 && word.allSatisfy { $0.isLowercase } && word.hasSuffix("s")
                && !["ss", "us", "is"].contains { word.hasSuffix($0) }
        }
        guard let index = words.firstIndex(where: plural) else { return food }
        words[index] = singular(words[index])
        return words.joined(separator: " ") + food[end...]
    }

    /// An amount written in `system`: metric rounded sensibly ("250 g", "1.5 kg"), imperial
    /// and plain counts in kitchen fractions ("1½ cups"), spoons in quarters ("¾ tsp") in either
    /// system; `as` keeps a range's unit.
    static func amount(
        _ value: Double, _ unit: IngredientUnit?, in system: IngredientUnit.System, as fixed: IngredientUnit? = nil
    ) -> (text: String, unit: IngredientUnit?) {
        guard let unit else { return (fraction(value), nil) }
        if unit.measure == .count { return (fraction(value), unit) }
        let base = value * unit.base
        var chosen = fixed ?? best(base, unit.measure, system)
        if fixed == nil, unit.isSpoon, system == .metric, best(base, .volume, .imperial).isSpoon {
            chosen = best(base, .volume, .imperial)  // a metric cook measures it with spoons too
        }
        let amount = base / chosen.base
        if chosen.isSpoon { return (spoons(amount), chosen) }
        return (chosen.system == .metric ? metric(amount, ml: chosen == .ml) : fraction(amount), chosen)
    }

    /// Spoons in quarter steps, as measuring spoons hold them ("1¼ tsp"); never less than ⅛.
    static func spoons(_ value: Double) -> String {
        value < 3 / 16 ? "⅛" : fraction((value * 4).rounded() / 4)
    }

    /// The unit a cook would use for so many millilitres or grams.
    static func best(_ base: Double, _ measure: IngredientUnit.Measure, _ system: IngredientUnit.System)
        -> IngredientUnit
    {
        switch (measure, system) {
        case (.volume, .imperial):
            return base < IngredientUnit.tbsp.base * 0.99 ? .tsp : base < IngredientUnit.cup.base / 4 ? .tbsp : .cup
        case (.weight, .imperial): return base < IngredientUnit.lb.base ? .oz : .lb
        case (.volume, _): return base >= 1000 ? .litre : .ml
        default: return base >= 1000 ? .kg : .gram
        }
    }

    /// Metric amounts to the precision a scale or jug gives (a jug's millilitres in fives).
    static func metric(_ value: Double, ml: Bool = false) -> String {
        let rounded =
            value >= 100 || (ml && value >= 10)
            ? (value / 5).rounded() * 5
            : value >= 10 ? value.rounded() : value >= 1 ? (value * 10).rounded() / 10 : (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? whole(rounded) : String(rounded)
    }

    static let kitchenFractions: [(Double, String)] = [
        (0, ""), (1 / 8, "⅛"), (1 / 4, "¼"), (1 / 3, "⅓"), (1 / 2, "½"), (2 / 3, "⅔"), (3 / 4, "¾"), (7 / 8, "⅞"),
        (1, ""),
    ]

    /// "1½", "⅓", "12": the nearest kitchen fraction (whole numbers from 20 up); never "0".
    static func fraction(_ value: Double) -> String {
        guard value < 20 else { return whole(value.rounded()) }
        var whole = value.rounded(.down)
        let part = value - whole
        var (_, mark) = kitchenFractions.min { abs($0.0 - part) < abs($1.0 - part) }!
        if abs(1 - part) < abs(part - 7 / 8) { (whole, mark) = (whole + 1, "") }
        if whole == 0 && mark.isEmpty { return "⅛" }
        return (whole > 0 ? Self.whole(whole) : "") + mark
    }

    /// A whole number as text; `tooMuch` for one no Int holds (infinite, not a number, huge).
    static func whole(_ value: Double) -> String {
        abs(value) < 1e15 ? String(Int(value)) : tooMuch
    }

    /// The food, for merging and matching: lower-case, singular, without sizes, notes or "to taste"
    /// ("3 large eggs, beaten" → "egg").
    var key: String {
        var words = food.lowercased().replacingOccurrences(
            of: "\\([^)]*\\)", with: " ", options: .regularExpression)
        if let comma = words.firstIndex(of: ",") { words = String(words[..<comma]) }
        words = words.replacingOccurrences(of: " to taste", with: "")
        return words.split { !$0.isLetter }.map { Self.singular(String($0)) }.filter { !Self.sizes.contains($0) }
            .joined(separator: " ")
    }

    static let sizes: Set<String> = ["large", "small", "medium", "big", "fresh", "whole", "extra", "ripe", "free"]

    /// Plurals the endings below would get wrong ("leaves" is not "leave").
    static let irregular = ["leaves": "leaf", "halves": "half", "loaves": "loaf", "knives": "knife"]

    static func singular(_ word: String) -> String {
        if let one = irregular[word] { return one }
        if word.count > 4, word.hasSuffix("ies") { return word.dropLast(3) + "y" }
        if word.count > 4, word.hasSuffix("oes") || word.hasSuffix("ches") || word.hasSuffix("shes") {
            return String(word.dropLast(2))
        }
        if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") { return String(word.dropLast()) }
        return word
    }
}

extension Substring {
    var nilIfEmpty: Substring? { isEmpty ? nil : self }
}
