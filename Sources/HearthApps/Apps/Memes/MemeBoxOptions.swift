import HearthKit
import HearthMedia

/// Texts placed and styled one by one: `!meme ID "top" --box 5,5,90,20 --color yellow "bottom"`.
/// Each option changes the box of the text before it; a `--box` may add a box the picture lacks.
struct MemeBoxOptions: Equatable {
    /// Most texts one meme may have.
    static let maxBoxes = 6
    /// Smallest box side, in percent of the picture (a smaller one could not hold a letter).
    static let minSide = 5.0
    static let names = ["box", "font", "color", "outline", "align", "valign"]

    /// Position in percent of the picture's width and height.
    var box: (x: Double, y: Double, w: Double, h: Double)?
    var font: String?
    var color: CaptionColor?
    /// `.some(nil)`: `--outline none`.
    var outline: CaptionColor??
    var textAlign: CaptionBox.TextAlign?
    var align: CaptionBox.Align?

    static func == (a: Self, b: Self) -> Bool {
        a.box.map { [$0.x, $0.y, $0.w, $0.h] } == b.box.map { [$0.x, $0.y, $0.w, $0.h] } && a.font == b.font
            && a.color == b.color && a.outline == b.outline && a.textAlign == b.textAlign && a.align == b.align
    }

    /// Whether `text` uses the option grammar (else it is `top | bottom`).
    static func used(in text: String) -> Bool {
        text.hasPrefix("\"") || text.split(separator: " ").contains { $0.hasPrefix("--") }
    }

    /// The texts and each one's options. Quoted texts are one text each; plain words run together
    /// into one text up to the next quote, `|` or option.
    static func parse(_ text: String) throws -> (captions: [String], options: [MemeBoxOptions]) {
        var captions: [String] = []
        var options: [MemeBoxOptions] = []
        var pending: String?
        func close() {
            guard let text = pending else { return }
            captions.append(text.trimmingCharacters(in: .whitespaces))
            options.append(MemeBoxOptions())
            pending = nil
        }
        var tokens = tokenize(text)[...]
        while let token = tokens.popFirst() {
            switch token {
            case .quoted(let text):
                close()
                pending = text
                close()
            case .bar:
                close()
            case .word(let word) where word.hasPrefix("--"):
                close()
                let name = String(word.dropFirst(2)).lowercased()
                guard names.contains(name) else {
                    throw BotError("there is no option --\(name); the options are --\(names.joined(separator: ", --"))")
                }
                guard case .word(let value)? = tokens.popFirst() else { throw BotError("--\(name) needs a value") }
                guard !options.isEmpty else { throw BotError("put --\(name) after the text it is for") }
                try options[options.count - 1].set(name, value)
            case .word(let word):
                pending = pending.map { $0 + " " + word } ?? word
            }
        }
        close()
        guard captions.count <= maxBoxes else { throw BotError("a meme may have \(maxBoxes) texts at most") }
        return (try MemeDraft.checked(captions), options)
    }

    mutating func set(_ name: String, _ value: String) throws {
        switch name {
        case "box": box = try Self.box(value)
        case "font":
            guard let face = CaptionFonts.resolve(value) else {
                throw BotError("there is no font \"\(value)\": \(CaptionFonts.available.joined(separator: ", "))")
            }
            font = face
        case "color":
            guard let colour = CaptionColor(parsing: value) else { throw BotError(Self.colourProblem(value)) }
            color = colour
        case "outline":
            if value.lowercased() == "none" {
                outline = .some(nil)
            } else {
                guard let colour = CaptionColor(parsing: value) else { throw BotError(Self.colourProblem(value)) }
                outline = colour
            }
        case "align":
            guard let across = CaptionBox.TextAlign(rawValue: value.lowercased()) else {
                throw BotError("--align is left, center or right")
            }
            textAlign = across
        default:
            guard let down = CaptionBox.Align(rawValue: value.lowercased()) else {
                throw BotError("--valign is top, middle or bottom")
            }
            align = down
        }
    }

    static func colourProblem(_ value: String) -> String {
        "\"\(value)\" is not a colour: a name (white, yellow, red…) or #rrggbb"
    }

    /// `x,y,w,h` in percent: inside the picture, each side at least `minSide`.
    static func box(_ text: String) throws -> (x: Double, y: Double, w: Double, h: Double) {
        let numbers = text.split(separator: ",").compactMap { Double($0) }.filter(\.isFinite)
        let usage = "--box is x,y,w,h in percent of the picture, e.g. --box 5,70,90,25"
        guard numbers.count == 4, text.split(separator: ",").count == 4 else { throw BotError(usage) }
        let (x, y, w, h) = (numbers[0], numbers[1], numbers[2], numbers[3])
        guard x >= 0, y >= 0, w >= minSide, h >= minSide else {
            throw BotError("a box starts at 0 or more and is at least \(Int(minSide))% wide and high — \(usage)")
        }
        guard x + w <= 100, y + h <= 100 else { throw BotError("that box goes off the picture — \(usage)") }
        return (x, y, w, h)
    }

    /// `base` (the picture's own box for this text, if it has one) changed by these options.
    func applied(to base: CaptionBox?) -> CaptionBox? {
        guard var result = base ?? box.map({ _ in CaptionBox(0, 0, 1, 1) }) else { return nil }
        if let box { (result.x, result.y, result.w, result.h) = (box.x / 100, box.y / 100, box.w / 100, box.h / 100) }
        if let font { result.font = font }
        if let color { result.color = color }
        if let outline {
            result.outline = outline
            // No outline: the letters alone, white unless a colour was given.
            if outline == nil, result.style == .outline {
                result.style = .dark
                result.color = color ?? CaptionColor(255, 255, 255)
            }
        }
        if let textAlign { result.textAlign = textAlign }
        if let align { result.align = align }
        return result
    }

    enum Token: Equatable {
        case quoted(String)
        case word(String)
        case bar
    }

    /// Words, `|` and double-quoted texts (`\"` a quote inside one).
    static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var quoted = false
        var escaping = false
        func flush() {
            if !current.isEmpty { tokens.append(current == "|" ? .bar : .word(current)) }
            current = ""
        }
        for character in text {
            if quoted {
                if escaping {
                    current.append(character)
                    escaping = false
                } else if character == "\\" {
                    escaping = true
                } else if character == "\"" {
                    tokens.append(.quoted(current))
                    current = ""
                    quoted = false
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                flush()
                quoted = true
            } else if character == " " || character == "|" {
                flush()
                if character == "|" { tokens.append(.bar) }
            } else {
                current.append(character)
            }
        }
        if quoted { tokens.append(.quoted(current)) } else { flush() }
        return tokens
    }
}
