/// Neighbouring words of a line as lexemes of their own ("a b"), kept under their line's scope
/// (`HistorySearchScopedPairs`, migration v41; v39 kept them bare), so a phrase is found by its
/// pairs, a handful of lines, instead of by its words, each in a third of the lines; `search @@`
/// then checks the phrase on those.
///
/// Only a filter, never the answer: a line's pairs must hold every pair of words PostgreSQL's
/// 'simple' parser puts side by side in `search`, or a phrase would be missed; more are harmless.
/// So they are read loosely, with every way the parser might cut the line: words are runs of
/// ASCII letters and digits (anything else parts them — a parser may keep it in a word, but that
/// word is never one a phrase of ASCII words asks for); a run may be one word or cut where the
/// parser cuts ("1e5x" is '1e5' and 'x', "+5px" is '+5' and 'px'); runs the parser may drop — in
/// a tag, an entity, before "://" — are skipped as well as kept. "İ" and the Kelvin sign are
/// letters ('i', 'k': PostgreSQL lowers them so). A line too odd to read so is `any`, always
/// checked. Phrases of other words (accents, other scripts) are searched without pairs.
enum HistorySearchPairs {
    /// The lexeme of a line whose pairs are not listed: every phrase search checks it.
    static let any = "*"
    /// A longer word makes the line `any` (the parser drops words of 2,047 bytes and more).
    static let maxWordBytes = 1000
    /// More pairs than this (runs skipped in a long tag, a line of thousands of words) make it `any`.
    static let maxPairs = 2000
    /// More runs than this make it `any` (positions past 16,383 are all 16,383 in a tsvector).
    static let maxRuns = 10_000

    private struct Run {
        /// The ways the parser may read it, each one or more words.
        var readings: [[String]]
        /// The parser may drop it.
        var droppable: Bool
    }

    /// The pair lexemes of a line's text, or `[any]`.
    static func lexemes(_ text: String) -> [String] {
        if let plain = plainLexemes(text) { return plain }
        return readLexemes(text)
    }

    /// Most lines' pairs, from their bytes: plain ASCII — no tag, entity or "://", every run of
    /// letters and digits all letters or all digits, and none too long or too many — is read
    /// one way only, each word then the next (what `readLexemes` gives such a line, at a fraction
    /// of its Unicode work: issue 38's history writes spent half their client time there). Nil for
    /// any other line.
    static func plainLexemes(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var words: [String] = []
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                guard byte < 0x80, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&") else { return nil }
                if byte == UInt8(ascii: ":"), i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "/"),
                    bytes[i + 2] == UInt8(ascii: "/")
                {
                    return nil
                }
                guard Self.isPlainWordByte(byte) else {
                    i += 1
                    continue
                }
                var end = i
                var letters = false
                var digits = false
                while end < bytes.count, Self.isPlainWordByte(bytes[end]) {
                    if bytes[end] <= UInt8(ascii: "9") { digits = true } else { letters = true }
                    end += 1
                }
                guard !(letters && digits), end - i < maxWordBytes, words.count < maxRuns else { return nil }
                words.append(
                    String(unsafeUninitializedCapacity: end - i) { out in
                        for k in i..<end {
                            let upper = bytes[k] >= UInt8(ascii: "A") && bytes[k] <= UInt8(ascii: "Z")
                            out[k - i] = upper ? bytes[k] | 0x20 : bytes[k]
                        }
                        return end - i
                    })
                i = end
            }
            let pairs = Set(zip(words, words.dropFirst()).map { $0 + " " + $1 })
            return pairs.count > maxPairs ? [any] : pairs.sorted()
        }
    }

    /// An ASCII letter or digit.
    private static func isPlainWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }

    /// Any line's pairs, read as the parser may read it (the runs and their readings).
    static func readLexemes(_ text: String) -> [String] {
        guard let runs = runs(Array(text.unicodeScalars)) else { return [any] }
        var pairs = Set<String>()
        for run in runs {
            for reading in run.readings {
                for (a, b) in zip(reading, reading.dropFirst()) { pairs.insert(a + " " + b) }
            }
        }
        for (index, run) in runs.enumerated() {
            let lasts = Set(run.readings.map { $0[$0.count - 1] })
            for next in runs[(index + 1)...] {
                for last in lasts {
                    for reading in next.readings { pairs.insert(last + " " + reading[0]) }
                }
                guard pairs.count <= maxPairs else { return [any] }
                if !next.droppable { break }
            }
        }
        return pairs.sorted()
    }

    private static func isWord(_ s: Unicode.Scalar) -> Bool {
        s.isASCII ? (s.properties.isAlphabetic || ("0"..."9").contains(s)) : s == "\u{130}" || s == "\u{212A}"
    }

    private static func lowered(_ s: Unicode.Scalar) -> Character {
        switch s {
        case "\u{130}": "i"
        case "\u{212A}": "k"
        default: Character(String(s).lowercased())
        }
    }

    private static func isASCIISpace(_ s: Unicode.Scalar) -> Bool { s == " " || ("\t"..."\r").contains(s) }

    /// The runs of a line, nil if it is too odd to read.
    private static func runs(_ text: [Unicode.Scalar]) -> [Run]? {
        var runs: [Run] = []
        let lastClose = text.lastIndex(of: ">") ?? -1
        var tagUntil = -1
        var entityUntil = -1
        var i = 0
        while i < text.count {
            let s = text[i]
            // A tag may run to the last '>' (a quoted '>' does not end it); an entity to its ';'.
            if s == "<", i + 1 < text.count, i < lastClose,
                text[i + 1].isASCII && text[i + 1].properties.isAlphabetic || "/!?".unicodeScalars.contains(text[i + 1])
            {
                tagUntil = max(tagUntil, lastClose)
            }
            if s == "&", let end = text[(i + 1)...].firstIndex(where: { $0 == ";" || isASCIISpace($0) }),
                text[end] == ";"
            {
                entityUntil = max(entityUntil, end)
            }
            guard isWord(s) else {
                i += 1
                continue
            }
            var end = i
            while end < text.count, isWord(text[end]) { end += 1 }
            let raw = text[i..<end]
            guard raw.reduce(0, { $0 + $1.utf8.count }) < maxWordBytes else { return nil }
            let protocolFollows = text[end...].starts(with: "://".unicodeScalars)
            runs.append(
                Run(
                    readings: readings(Array(raw), protocolFollows: protocolFollows),
                    droppable: i < tagUntil || i < entityUntil || protocolFollows))
            guard runs.count <= maxRuns else { return nil }
            i = end
        }
        return runs
    }

    /// The ways the parser may cut a run: whole; after its leading digits (a signed number or a
    /// float ends there); before its first "İ" or Kelvin sign after ASCII (a file path or a URL
    /// ends there); each piece as a float in e-notation and what follows; before "://", without
    /// its last piece.
    private static func readings(_ raw: [Unicode.Scalar], protocolFollows: Bool) -> [[String]] {
        let word = String(raw.map(lowered))
        let digits = raw.prefix { ("0"..."9").contains($0) }.count
        let digitCut: [Int] = digits > 0 && digits < raw.count ? [digits] : []
        let foldCut: [Int] =
            (1..<max(raw.count, 1)).first { !raw[$0].isASCII && raw[$0 - 1].isASCII }.map { [$0] } ?? []
        // Most runs are a plain word, read one way.
        if digitCut.isEmpty, foldCut.isEmpty, !protocolFollows, eNotationPrefix(Substring(word)) == nil {
            return [[word]]
        }
        let chars = Array(word)
        var readings: [[String]] = []
        for cuts in [[], digitCut, foldCut, (digitCut + foldCut).sorted()] {
            for eNotation in [false, true] {
                var pieces: [String] = []
                var from = 0
                for cut in cuts + [chars.count] where cut > from {
                    let piece = String(chars[from..<cut])
                    pieces += eNotation ? splitENotation(piece) : [piece]
                    from = cut
                }
                if !readings.contains(pieces) { readings.append(pieces) }
            }
        }
        if protocolFollows { readings += readings.filter { $0.count > 1 }.map { Array($0.dropLast()) } }
        return readings
    }

    /// "1e5x" as '1e5' and 'x', as the parser reads a float followed by letters.
    private static func splitENotation(_ word: String) -> [String] {
        var pieces: [String] = []
        var rest = Substring(word)
        while let float = eNotationPrefix(rest) {
            pieces.append(String(rest[..<float]))
            rest = rest[float...]
        }
        return pieces + [String(rest)]
    }

    /// Where a float like "12e3" ends when letters follow it, else nil.
    private static func eNotationPrefix(_ word: Substring) -> Substring.Index? {
        let mantissa = word.prefix { $0.isASCII && $0.isNumber }
        guard !mantissa.isEmpty, word[mantissa.endIndex...].first == "e" else { return nil }
        let afterE = word.index(after: mantissa.endIndex)
        let exponent = word[afterE...].prefix { $0.isASCII && $0.isNumber }
        guard !exponent.isEmpty, let next = word[exponent.endIndex...].first, next.isASCII, next.isLetter else {
            return nil
        }
        return exponent.endIndex
    }

    /// A phrase of ASCII words as its pairs; nil if a word is one the pairs cannot speak for.
    static func pairs(ofPhrase words: [String], prefix: Bool) -> [String]? {
        guard
            words.allSatisfy({ word in
                !word.isEmpty && word.utf8.count < maxWordBytes
                    && word.unicodeScalars.allSatisfy { $0.isASCII && isWord($0) && !("A"..."Z").contains($0) }
                    && splitENotation(word).count == 1
            })
        else { return nil }
        let whole = prefix ? words.dropLast() : words[...]
        return zip(whole, whole.dropFirst()).map { $0 + " " + $1 }
    }
}

extension TextSearch {
    /// The pairs every line matching this search holds, one list per OR group (a line holds all
    /// of one group's, or is `any`); nil if there is none to ask for: each group's phrases' pairs,
    /// if every group has a phrase of ASCII words. Groups and NOT are read as `tsquery` reads them
    /// (a NOT before no word waits for one).
    var pairGroups: [[String]]? {
        var groups: [(terms: Int, pairs: [String])] = [(0, [])]
        var negate = false
        for part in parts {
            switch part {
            case .or: groups.append((0, []))
            case .not: negate = true
            case .and: break
            case .term(let text, let prefix):
                let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
                guard !words.isEmpty else { continue }
                groups[groups.count - 1].terms += 1
                if !negate, words.count > 1, let pairs = HistorySearchPairs.pairs(ofPhrase: words, prefix: prefix) {
                    groups[groups.count - 1].pairs += pairs
                }
                negate = false
            }
        }
        let asked = groups.filter { $0.terms > 0 }
        guard !asked.isEmpty, asked.allSatisfy({ !$0.pairs.isEmpty }) else { return nil }
        return asked.map(\.pairs)
    }
}
