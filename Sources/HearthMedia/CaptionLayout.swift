import Synchronization

/// Fitting a caption into a box: words wrapped into lines, the font shrunk until every line
/// fits the width and all lines fit the height. Words are measured once at a reference size
/// and scaled; the chosen lines are then measured exactly, so nothing ever overflows.
public struct CaptionLayout: Sendable {
    /// A piece of text drawn with one font (a word, or one CJK character).
    struct Token {
        var text: String
        var font: String
        var spaceBefore: Bool
        var width: Double  // at the reference size
    }

    public struct Line: Sendable {
        public var runs: [(text: String, font: String)]
        public var width: Int  // measured at the final size
    }

    public let size: Double
    public let lines: [Line]
    public var lineHeight: Int { Self.lineHeight(size) }
    public var height: Int { lineHeight * lines.count }

    static let referenceSize = 100.0
    /// Line pitch for the caption fonts (DejaVu's ascent + descent is 1.164 em).
    static func lineHeight(_ size: Double) -> Int { Int((size * 1.2).rounded(.up)) }
    static func ascent(_ size: Double) -> Int { Int((size * 0.95).rounded()) }
    public static let minSize = 9.0

    /// Lays out `text` to fit `width`×`height` pixels, starting at `maxSize`.
    public static func fit(_ text: String, width: Int, height: Int, maxSize: Double, fonts: FontSet) -> CaptionLayout {
        let tokens = tokenize(text, fonts: fonts)
        let space = estimatedWidth(" ", font: fonts.primary)
        var size = max(minSize, min(maxSize, Double(height) / 1.2))
        // Small sizes are hinted wider than scaling says: at the minimum, wrap narrower until it fits.
        var widthFactor = 0.97
        while true {
            let atMinimum = size <= minSize
            if let lines = wrap(
                tokens, space: space, scale: size / referenceSize, width: Double(width) * widthFactor,
                breakWords: atMinimum)
            {
                // Exact widths at this size; shrink if rounding or kerning pushed one over.
                let measured = lines.map { line in
                    Line(
                        runs: line,
                        width: Int(
                            line.reduce(0.0) { $0 + measureWidth($1.text, font: $1.font, size: size) }.rounded(.up)))
                }
                let fitsWidth = measured.allSatisfy { $0.width <= width }
                if fitsWidth && (atMinimum || measured.count * lineHeight(size) <= height) {
                    return CaptionLayout(size: size, lines: measured)
                }
                if atMinimum { widthFactor *= 0.9 }
            }
            size = max(minSize, (size * 0.92).rounded(.down))
        }
    }

    /// Greedy wrapping at `scale`; nil when a word is wider than the line (unless `breakWords`,
    /// which cuts it into characters).
    static func wrap(_ tokens: [Token], space: Double, scale: Double, width: Double, breakWords: Bool) -> [[(
        text: String, font: String
    )]]? {
        var lines: [[(text: String, font: String)]] = []
        var current: [(text: String, font: String)] = []
        var used = 0.0
        func append(_ text: String, _ font: String, spaced: Bool) {
            if spaced, let last = current.last, last.font == font {
                current[current.count - 1].text += " " + text
            } else if spaced {
                current.append((" " + text, font))
            } else if let last = current.last, last.font == font {
                current[current.count - 1].text += text
            } else {
                current.append((text, font))
            }
        }
        for token in tokens {
            let w = token.width * scale
            let gap = current.isEmpty || !token.spaceBefore ? 0 : space * scale
            if used + gap + w <= width {
                append(token.text, token.font, spaced: gap > 0)
                used += gap + w
                continue
            }
            if !current.isEmpty {
                lines.append(current)
                current = []
                used = 0
            }
            if w <= width {
                append(token.text, token.font, spaced: false)
                used = w
                continue
            }
            guard breakWords else { return nil }
            for character in token.text {
                let cw = estimatedWidth(String(character), font: token.font) * scale
                if used + cw > width && !current.isEmpty {
                    lines.append(current)
                    current = []
                    used = 0
                }
                append(String(character), token.font, spaced: false)
                used += cw
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    static func tokenize(_ text: String, fonts: FontSet) -> [Token] {
        var tokens: [Token] = []
        var pendingSpace = false
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            tokens.append(Token(text: word, font: fonts.primary, spaceBefore: pendingSpace, width: 0))
            word = ""
            pendingSpace = false
        }
        for character in text {
            // An emoji is a token of its own, like a CJK character: lines may break on either side.
            if let emoji = fonts.emoji, emoji.draws(character) {
                flush()
                tokens.append(Token(text: String(character), font: emoji.path, spaceBefore: pendingSpace, width: 0))
                pendingSpace = false
                continue
            }
            for scalar in character.unicodeScalars {
                if scalar.properties.isWhitespace {
                    flush()
                    pendingSpace = !tokens.isEmpty
                } else if fonts.fallback != nil && FontSet.needsFallback(scalar) {
                    // CJK text wraps between any two characters.
                    flush()
                    tokens.append(
                        Token(text: String(scalar), font: fonts.font(for: scalar), spaceBefore: pendingSpace, width: 0))
                    pendingSpace = false
                } else {
                    word.unicodeScalars.append(scalar)
                }
            }
        }
        flush()
        for index in tokens.indices {
            tokens[index].width = estimatedWidth(tokens[index].text, font: tokens[index].font)
        }
        return tokens
    }

    /// Advance widths of single characters at the reference size, per font, kept across
    /// renders: a word's width is estimated as their sum (no kerning; the chosen lines are
    /// measured exactly afterwards), so a caption costs few FreeType calls.
    private static let characterWidths = Mutex<[String: [Character: Double]]>([:])
    static let maxCachedCharacters = 20_000

    static func estimatedWidth(_ text: String, font: String) -> Double {
        if let emoji = EmojiFont.named(font) { return emoji.width(text, size: referenceSize) }
        var missing: [Character] = []
        var total = characterWidths.withLock { cache -> Double in
            let widths = cache[font] ?? [:]
            var sum = 0.0
            for character in text {
                if let w = widths[character] { sum += w } else { missing.append(character) }
            }
            return sum
        }
        guard !missing.isEmpty else { return total }
        var measured: [Character: Double] = [:]
        for character in missing where measured[character] == nil {
            // The advance between two n's: a lone glyph's box misses side bearings (and spaces).
            measured[character] =
                measureWidth("n" + String(character) + "n", font: font, size: referenceSize)
                - measureWidth("nn", font: font, size: referenceSize)
        }
        for character in missing { total += measured[character]! }
        characterWidths.withLock { cache in
            if cache.values.reduce(0, { $0 + $1.count }) > maxCachedCharacters { cache = [:] }
            cache[font, default: [:]].merge(measured) { a, _ in a }
        }
        return total
    }

    static func measureWidth(_ text: String, font: String, size: Double) -> Double {
        if let emoji = EmojiFont.named(font) { return emoji.width(text, size: size) }
        let box = GDImage.measure(text, font: font, size: size)
        return Double(box[2] - box[0])
    }
}
