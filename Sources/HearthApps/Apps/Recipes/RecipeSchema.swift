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
        for block in jsonLDBlocks(html) {
            guard let data = block.data(using: .utf8),
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

    /// The text of each `<script type="application/ld+json">`, found by plain searches from one
    /// tag to its close (a regex was quadratic on a page of unclosed `<script`s).
    static func jsonLDBlocks(_ html: String) -> [String] {
        let page = HTMLBytes(html)
        var blocks: [String] = []
        var at = 0
        while let open = page.find("<script", from: at), let tagEnd = page.firstIndex(of: HTMLBytes.close, from: open) {
            // No close: no later script has one either.
            guard let close = page.find("</script", from: tagEnd + 1) else { break }
            if page.find("application/ld+json", from: open, before: tagEnd) != nil {
                blocks.append(page.text(tagEnd + 1..<close))
            }
            at = close + 1
        }
        return blocks
    }

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

    /// The most item properties read from a page; real recipes have far fewer.
    static let maxProperties = 1000
    /// How far from its `itemprop` a tag's `<` and `>` are looked for.
    static let maxTagBytes = 4096
    /// How far past its start tag an element's close tag is looked for.
    static let maxElementBytes = 64 * 1024
    /// The most elements whose contents are read (each a search of up to `maxElementBytes`).
    static let maxContentsRead = 200

    /// The `itemprop`s after the element whose `itemtype` is a Recipe.
    static func fromMicrodata(_ html: String) -> RecipeSchema? {
        guard
            let start = html.range(of: #"itemtype\s*=\s*["'][^"']*schema\.org/Recipe["']"#, options: .regularExpression)
        else { return nil }
        let page = HTMLBytes(html[start.lowerBound...])
        var recipe = RecipeSchema()
        var contentsRead = 0
        var ingredientsRead = 0
        for element in page.itemProperties(limit: maxProperties, window: maxTagBytes) {
            let (tag, attributes) = (element.tag, element.attributes)
            func inner() -> String {
                guard contentsRead < maxContentsRead else { return "" }
                contentsRead += 1
                return page.contents(of: tag, from: element.contentStart, within: maxElementBytes) ?? ""
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
            for property in element.names.split(separator: " ") {
                switch property {
                case "name" where recipe.title.isEmpty: recipe.title = value() ?? ""
                case "image" where recipe.image == nil:
                    recipe.image =
                        attribute("src", in: attributes) ?? attribute("content", in: attributes)
                        ?? attribute("href", in: attributes)
                case "recipeIngredient", "ingredients":
                    // Past the limit an import keeps, more is of no use (and each costs a search).
                    guard ingredientsRead <= RecipeCommands.maxIngredients else { break }
                    ingredientsRead += 1
                    value().map { recipe.ingredients.append($0) }
                case "recipeInstructions" where recipe.steps.count <= RecipeCommands.maxSteps:
                    let html = attribute("content", in: attributes) ?? inner()
                    let items = HTMLBytes(html).listItems().map { HTMLText.plain($0) }
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
        var bytes = HTMLBytes(html)
        if keepingLines { bytes = HTMLBytes(bytes: lineBreaks(bytes)) }
        var text = String(decoding: tagsToSpaces(bytes), as: UTF8.self)
        text = decodeEntities(text)
        func collapsed(_ line: some StringProtocol) -> String {
            line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        guard keepingLines else { return collapsed(text) }
        return text.split(whereSeparator: \.isNewline).map(collapsed).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// `<br>`, `<br/>`, `</p>`, `</li>`, `</div>` (any case) made line breaks, in one pass.
    static func lineBreaks(_ page: HTMLBytes) -> [UInt8] {
        let ends = ["</p>", "</li>", "</div>"].map { Array($0.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(page.count)
        var at = 0
        while at < page.count {
            if page.bytes[at] == HTMLBytes.open, let end = lineBreakEnd(page, at: at, ends: ends) {
                out.append(UInt8(ascii: "\n"))
                at = end
            } else {
                out.append(page.bytes[at])
                at += 1
            }
        }
        return out
    }

    /// Past a line-breaking tag at `index` (`<br\s*/?>` or one of `ends`), nil when there is none.
    static func lineBreakEnd(_ page: HTMLBytes, at index: Int, ends: [[UInt8]]) -> Int? {
        if page.has(Array("<br".utf8), at: index) {
            var at = index + 3
            while at < page.count, HTMLBytes.isSpace(page.bytes[at]) { at += 1 }
            if at < page.count, page.bytes[at] == UInt8(ascii: "/") { at += 1 }
            if at < page.count, page.bytes[at] == HTMLBytes.close { return at + 1 }
        }
        return ends.first { page.has($0, at: index) }.map { index + $0.count }
    }

    /// Each `<…>` (to the first `>`) made a space, in one pass; a `<` with no `>` after it stays.
    static func tagsToSpaces(_ page: HTMLBytes) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(page.count)
        var at = 0
        while let open = page.firstIndex(of: HTMLBytes.open, from: at),
            let close = page.firstIndex(of: HTMLBytes.close, from: open + 1)
        {
            out += page.bytes[at..<open]
            out.append(UInt8(ascii: " "))
            at = close + 1
        }
        out += page.bytes[at...]
        return out
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
