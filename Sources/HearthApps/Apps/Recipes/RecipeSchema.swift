import Foundation

/// A recipe as a web page describes it with schema.org's `Recipe`: in JSON-LD (`<script
/// type="application/ld+json">`, alone, in an array, in an `@graph` or as `mainEntity`) or in
/// microdata (`itemtype=".../Recipe"` with `itemprop` attributes). Read from the page's text;
/// nothing is fetched here.
struct RecipeSchema: Equatable {
    var title = ""
    /// The photo's address, as the page gives it (relative ones made absolute by the caller).
    var image: String?
    var ingredients: [String] = []
    var steps: [String] = []
    var yield: String?
    var prepTime: String?
    var cookTime: String?
    var totalTime: String?

    /// The recipe in `html`, JSON-LD first; nil when the page describes none.
    static func read(_ html: String) -> RecipeSchema? {
        for block in matches(#"<script[^>]*application/ld\+json[^>]*>(.*?)</script>"#, in: html) {
            guard let data = block[1].data(using: .utf8),
                let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
                let object = recipeObject(json)
            else { continue }
            let recipe = fromJSON(object)
            if !recipe.title.isEmpty || !recipe.ingredients.isEmpty { return recipe }
        }
        return fromMicrodata(html)
    }

    /// The longest a fact (yield, a time) is shown; a page may say anything there.
    static let maxFact = 60

    /// "4 servings · prep 15 min · cook 30 min · total 45 min", or nil when the page gave none.
    var facts: String? {
        let parts = [
            yield.map { "makes \($0)" }, prepTime.map { "prep \($0)" }, cookTime.map { "cook \($0)" },
            totalTime.map { "total \($0)" },
        ].compactMap { $0 }.map { RecipeImport.cut($0, Self.maxFact) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    // MARK: JSON-LD

    static func isRecipe(_ object: [String: Any]) -> Bool {
        let types: [String] =
            (object["@type"] as? String).map { [$0] } ?? (object["@type"] as? [Any])?.compactMap { $0 as? String } ?? []
        return types.contains { $0 == "Recipe" || $0.hasSuffix("/Recipe") }
    }

    /// The first Recipe object in a JSON-LD value.
    static func recipeObject(_ json: Any) -> [String: Any]? {
        if let list = json as? [Any] { return list.lazy.compactMap(recipeObject).first }
        guard let object = json as? [String: Any] else { return nil }
        if isRecipe(object) { return object }
        for key in ["@graph", "mainEntity", "mainEntityOfPage"] {
            if let inner = object[key], let found = recipeObject(inner) { return found }
        }
        return nil
    }

    static func fromJSON(_ object: [String: Any]) -> RecipeSchema {
        var recipe = RecipeSchema()
        recipe.title = text(object["name"]) ?? text(object["headline"]) ?? ""
        recipe.image = imageURL(object["image"])
        let ingredients = object["recipeIngredient"] ?? object["ingredients"]
        recipe.ingredients = ((ingredients as? [Any]) ?? [ingredients as Any]).compactMap(text)
        recipe.steps = steps(object["recipeInstructions"])
        if let list = object["recipeYield"] as? [Any] {
            // Often ["4", "4 servings"]: the fullest one.
            recipe.yield = list.compactMap(text).max { $0.count < $1.count }
        } else {
            recipe.yield = text(object["recipeYield"]) ?? text(object["yield"])
        }
        recipe.prepTime = text(object["prepTime"]).map(duration)
        recipe.cookTime = text(object["cookTime"]).map(duration)
        recipe.totalTime = text(object["totalTime"]).map(duration)
        return recipe
    }

    /// A string or number as plain text (tags and entities taken out), nil when empty.
    static func text(_ value: Any?) -> String? {
        let raw: String
        switch value {
        case let string as String: raw = string
        case let number as NSNumber: raw = number.stringValue
        case let object as [String: Any]: return text(object["text"] ?? object["name"] ?? object["@value"])
        default: return nil
        }
        let plain = HTMLText.plain(raw)
        return plain.isEmpty ? nil : plain
    }

    static func imageURL(_ value: Any?) -> String? {
        switch value {
        case let string as String: return string.isEmpty ? nil : string
        case let list as [Any]: return list.lazy.compactMap(imageURL).first
        case let object as [String: Any]: return imageURL(object["url"] ?? object["contentUrl"] ?? object["@id"])
        default: return nil
        }
    }

    /// Instructions: one text (a step a line), a list of texts, of HowToSteps (`text`), or of
    /// HowToSections whose `itemListElement` holds the steps.
    static func steps(_ value: Any?) -> [String] {
        switch value {
        case let string as String:
            return HTMLText.plain(string, keepingLines: true).split(whereSeparator: \.isNewline).map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        case let list as [Any]: return list.flatMap(steps)
        case let object as [String: Any]:
            if let inner = object["itemListElement"] { return steps(inner) }
            return text(object["text"] ?? object["name"]).map { [$0] } ?? []
        default: return []
        }
    }

    /// ISO 8601 durations as people say them ("PT1H20M" → "1 h 20 min"); other text as it is,
    /// and so is a duration with too many digits to count in minutes without overflow.
    static func duration(_ text: String) -> String {
        let pattern = #"^P(?:(\d{1,5})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,8})M)?(?:(\d{1,9})S)?)?$"#
        guard let found = matches(pattern, in: text.uppercased()).first else { return text }
        var minutes = (Int(found[1]) ?? 0) * 24 * 60 + (Int(found[2]) ?? 0) * 60 + (Int(found[3]) ?? 0)
        if minutes == 0, let seconds = Int(found[4]), seconds > 0 { minutes = 1 }
        let (hours, rest) = (minutes / 60, minutes % 60)
        switch (hours, rest) {
        case (0, _): return "\(rest) min"
        case (_, 0): return "\(hours) h"
        default: return "\(hours) h \(rest) min"
        }
    }

    // MARK: microdata

    /// The `itemprop`s after the element whose `itemtype` is a Recipe.
    static func fromMicrodata(_ html: String) -> RecipeSchema? {
        guard
            let start = html.range(of: #"itemtype\s*=\s*["'][^"']*schema\.org/Recipe["']"#, options: .regularExpression)
        else { return nil }
        let rest = String(html[start.lowerBound...])
        var recipe = RecipeSchema()
        let tags = #"<([a-zA-Z][a-zA-Z0-9]*)([^>]*?\bitemprop\s*=\s*["']([^"']+)["'][^>]*)>"#
        let regex = try! NSRegularExpression(pattern: tags, options: [.caseInsensitive])
        let text = rest as NSString
        for match in regex.matches(in: rest, range: NSRange(location: 0, length: text.length)) {
            let tag = text.substring(with: match.range(at: 1)).lowercased()
            let attributes = text.substring(with: match.range(at: 2))
            let after = match.range.location + match.range.length
            func inner() -> String {
                let tail = text.substring(from: after)
                guard let close = tail.range(of: "</\(tag)", options: .caseInsensitive) else { return "" }
                return String(tail[..<close.lowerBound])
            }
            func value() -> String? {
                let given =
                    attribute("content", in: attributes)
                    ?? (["img", "source"].contains(tag) ? attribute("src", in: attributes) : nil)
                    ?? (["a", "link"].contains(tag) ? attribute("href", in: attributes) : nil)
                    ?? (tag == "time" ? attribute("datetime", in: attributes) : nil)
                let plain = HTMLText.plain(given ?? inner())
                return plain.isEmpty ? nil : plain
            }
            for property in text.substring(with: match.range(at: 3)).split(separator: " ") {
                switch property {
                case "name" where recipe.title.isEmpty: recipe.title = value() ?? ""
                case "image" where recipe.image == nil:
                    recipe.image =
                        attribute("src", in: attributes) ?? attribute("content", in: attributes)
                        ?? attribute("href", in: attributes)
                case "recipeIngredient", "ingredients": value().map { recipe.ingredients.append($0) }
                case "recipeInstructions":
                    let html = attribute("content", in: attributes) ?? inner()
                    let items = matches(#"<li[^>]*>(.*?)</li>"#, in: html).map { HTMLText.plain($0[1]) }
                    recipe.steps += items.isEmpty ? steps(html) : items.filter { !$0.isEmpty }
                case "recipeYield" where recipe.yield == nil: recipe.yield = value()
                case "prepTime" where recipe.prepTime == nil: recipe.prepTime = value().map(duration)
                case "cookTime" where recipe.cookTime == nil: recipe.cookTime = value().map(duration)
                case "totalTime" where recipe.totalTime == nil: recipe.totalTime = value().map(duration)
                default: break
                }
            }
        }
        return recipe.title.isEmpty && recipe.ingredients.isEmpty ? nil : recipe
    }

    static func attribute(_ name: String, in attributes: String) -> String? {
        matches(#"\b"# + name + #"\s*=\s*(?:"([^"]*)"|'([^']*)')"#, in: attributes).first.map {
            HTMLText.decodeEntities($0[1].isEmpty ? $0[2] : $0[1])
        }
    }

    /// Each match's groups (0: the whole match; a group that did not take part is "").
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard
            let regex = try? NSRegularExpression(
                pattern: pattern, options: [.caseInsensitive, .dotMatchesLineSeparators])
        else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (0..<match.numberOfRanges).map { i in
                let range = match.range(at: i)
                return range.location == NSNotFound ? "" : ns.substring(with: range)
            }
        }
    }
}

/// Text out of HTML: tags dropped, entities decoded, spaces collapsed.
enum HTMLText {
    /// `keepingLines`: block ends (`<br>`, `</p>`, `</li>`) and line breaks stay line breaks.
    static func plain(_ html: String, keepingLines: Bool = false) -> String {
        var text = html
        if keepingLines {
            text = text.replacingOccurrences(
                of: #"<br\s*/?>|</p>|</li>|</div>"#, with: "\n", options: [.regularExpression, .caseInsensitive])
        }
        text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        text = decodeEntities(text)
        func collapsed(_ line: some StringProtocol) -> String {
            line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        guard keepingLines else { return collapsed(text) }
        return text.split(whereSeparator: \.isNewline).map(collapsed).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "deg": "°", "frac12": "½",
        "frac14": "¼", "frac34": "¾", "ndash": "–", "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘",
        "rdquo": "”", "ldquo": "“", "eacute": "é", "egrave": "è",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(10).firstIndex(of: ";") {
                let name = after[..<semi]
                var decoded: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    decoded = named[String(name)]
                }
                if let decoded {
                    out += decoded
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }
}
