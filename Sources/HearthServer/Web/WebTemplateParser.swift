/// Reads a template into `WebTemplate` tokens by swift-mustache's rules (its parser, step by
/// step, for the tags Hearth uses): a line holding only a section, partial, comment or pragma
/// tag and spaces is dropped whole, and a standalone partial is indented as its tag was.
/// Other tags (unescaped values, set delimiters, blocks, transforms) are refused.
struct WebTemplateParser {
    private let characters: [Character]
    private var position = 0

    init(_ source: String) { characters = Array(source) }

    private static let nameCharacters = Set<Character>(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
    private static let partialCharacters = nameCharacters.union("/")

    private var atEnd: Bool { position >= characters.count }
    private var current: Character { atEnd ? "\0" : characters[position] }

    mutating func parse(section: String?, newLine startsOnNewLine: Bool) throws -> WebTemplate {
        var tokens: [WebTemplate.Token] = []
        var newLine = startsOnNewLine
        var spaceBefore = ""
        while !atEnd {
            if newLine { spaceBefore = read(while: { $0 == " " || $0 == "\t" }) }
            let text = readUntilTagOrNewline()
            if current.isNewline {
                tokens.append(.text(spaceBefore + text + String(current)))
                newLine = true
                position += 1
                continue
            }
            if !text.isEmpty {
                tokens.append(.text(spaceBefore + text))
                spaceBefore = ""
                newLine = false
            }
            if atEnd { break }
            var nextNewLine = false
            func flushSpace() {
                if !spaceBefore.isEmpty { tokens.append(.text(spaceBefore)) }
                spaceBefore = ""
            }
            switch current {
            case "#", "^":
                let inverted = current == "^"
                position += 1
                let name = try readName()
                if standalone(newLine) { nextNewLine = true } else { flushSpace() }
                let inner = try parse(section: name, newLine: nextNewLine)
                tokens.append(.section(try Self.name(name), inner, inverted: inverted))
            case "/":
                position += 1
                let name = try readName()
                guard name == section else { throw WebTemplate.ParseError(description: "{{/\(name)}} closes nothing") }
                if !standalone(newLine) { flushSpace() }
                return WebTemplate(tokens)
            case "!":
                position += 1
                try skipComment()
                nextNewLine = standalone(newLine)
            case ">":
                position += 1
                _ = read(while: \.isWhitespace)
                let name = read(while: { Self.partialCharacters.contains($0) })
                _ = read(while: \.isWhitespace)
                try expectClose()
                if !spaceBefore.isEmpty { tokens.append(.text(spaceBefore)) }
                if standalone(newLine) {
                    nextNewLine = true
                    tokens.append(.partial(name, indentation: spaceBefore))
                } else {
                    tokens.append(.partial(name, indentation: nil))
                }
                spaceBefore = ""
            case "%":
                position += 1
                try readPragma()
                nextNewLine = standalone(newLine)
            case "{", "&", "<", "$", "=":
                throw WebTemplate.ParseError(description: "{{\(current) is not used in Hearth's templates")
            default:
                flushSpace()
                tokens.append(.variable(try Self.name(try readName())))
            }
            newLine = nextNewLine
        }
        if let section { throw WebTemplate.ParseError(description: "{{#\(section)}} is not closed") }
        return WebTemplate(tokens)
    }

    static func name(_ text: String) throws -> WebTemplate.Name {
        if text == "." { return .current }
        guard !text.isEmpty else { throw WebTemplate.ParseError(description: "a tag without a name") }
        let names = text.split(separator: ".").map(String.init)
        guard !names.isEmpty else { throw WebTemplate.ParseError(description: "no name in \(text)") }
        return .path(names, fromCurrent: text.first == ".")
    }

    private mutating func read(while accept: (Character) -> Bool) -> String {
        let start = position
        while !atEnd, accept(characters[position]) { position += 1 }
        return String(characters[start..<position])
    }

    /// Text up to a newline (left unread) or past the next `{{`.
    private mutating func readUntilTagOrNewline() -> String {
        var text = ""
        while !atEnd {
            let character = characters[position]
            if character == "\n" || character == "\r\n" { break }
            if character == "{", position + 1 < characters.count, characters[position + 1] == "{" {
                position += 2
                break
            }
            text.append(character)
            position += 1
        }
        return text
    }

    /// A tag's name and its closing `}}`.
    private mutating func readName() throws -> String {
        _ = read(while: \.isWhitespace)
        let name = read(while: { Self.nameCharacters.contains($0) })
        _ = read(while: \.isWhitespace)
        try expectClose()
        return name
    }

    private mutating func expectClose() throws {
        guard position + 1 < characters.count, characters[position] == "}", characters[position + 1] == "}" else {
            throw WebTemplate.ParseError(description: "a tag is not closed with }}")
        }
        position += 2
    }

    private mutating func skipComment() throws {
        while position + 1 < characters.count {
            if characters[position] == "}", characters[position + 1] == "}" {
                position += 2
                return
            }
            position += 1
        }
        throw WebTemplate.ParseError(description: "a comment is not closed")
    }

    /// `{{% CONTENT_TYPE: HEARTH_HTML}}`, the only pragma (values are always escaped by `WebEscaping`).
    private mutating func readPragma() throws {
        _ = read(while: \.isWhitespace)
        let variable = read(while: { Self.nameCharacters.contains($0) })
        _ = read(while: \.isWhitespace)
        guard current == ":" else { throw WebTemplate.ParseError(description: "a pragma without a colon") }
        position += 1
        _ = read(while: \.isWhitespace)
        let value = read(while: { Self.nameCharacters.contains($0) })
        _ = read(while: \.isWhitespace)
        try expectClose()
        guard variable == "CONTENT_TYPE", value == WebEscaping.name else {
            throw WebTemplate.ParseError(description: "unknown pragma \(variable): \(value)")
        }
    }

    /// On a line of its own: the rest of the line is spaces (then its newline is read too).
    private mutating func standalone(_ newLine: Bool) -> Bool {
        guard newLine else { return false }
        if atEnd { return true }
        var probe = position
        while probe < characters.count, characters[probe] == " " || characters[probe] == "\t" { probe += 1 }
        guard probe < characters.count, characters[probe].isNewline else { return false }
        position = probe + 1
        return true
    }
}
