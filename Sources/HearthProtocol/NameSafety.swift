/// Names people pick (channels) must not hide characters or imitate another name:
/// `#lobby` plus a zero-width space, or `#lοbby` with a Greek omicron, would be a second
/// channel that reads like the first. The rules follow what browsers do for domain names
/// (Unicode TS #39, "highly restrictive"): no invisible or control characters, letters
/// from one script (Latin may go with Han, Kana, Hangul or Bopomofo as in CJK text), and
/// no name written wholly in Cyrillic or Greek letters that all look Latin.
public enum NameSafety {
    /// Why `name` is refused, or nil when it is fine.
    public static func problem(in name: String) -> String? {
        for scalar in name.unicodeScalars where isInvisible(scalar) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            return
                "it contains an invisible or control character "
                + "(U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code))"
        }
        var scripts = Set<Script>()
        var letters: [Unicode.Scalar] = []
        for scalar in name.unicodeScalars {
            guard let script = script(of: scalar) else { continue }
            if script == fullwidthASCII { return "it uses full-width letters or digits, which look like plain ones" }
            scripts.insert(script)
            letters.append(scalar)
        }
        if !allowedTogether(scripts) {
            let names = scripts.sorted().joined(separator: " and ")
            return "it mixes letters of different scripts (\(names)), so it could imitate another name"
        }
        if scripts == ["Cyrillic"] && letters.allSatisfy({ latinLookalikes.cyrillic.contains($0) })
            || scripts == ["Greek"] && letters.allSatisfy({ latinLookalikes.greek.contains($0) })
        {
            return "all its letters look like Latin ones, so it could imitate another name"
        }
        return nil
    }

    /// Control, format (zero-width, bidi overrides, BOM), separators other than the
    /// plain space, private-use, unassigned and default-ignorable code points.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .surrogate,
            .unassigned:
            return true
        default:
            return properties.isDefaultIgnorableCodePoint || properties.isNoncharacterCodePoint
        }
    }

    /// A script's name; letters outside the table count by their 128-code-point block.
    typealias Script = String

    /// Scripts that may share a name: one script, or Latin with the scripts of CJK text.
    static func allowedTogether(_ scripts: Set<Script>) -> Bool {
        if scripts.count <= 1 { return true }
        let cjk: [Set<Script>] = [
            ["Latin", "Han", "Hiragana", "Katakana"], ["Latin", "Han", "Bopomofo"], ["Latin", "Han", "Hangul"],
        ]
        return cjk.contains { scripts.isSubset(of: $0) }
    }

    static let fullwidthASCII: Script = "full-width"

    /// Where the scripts people name things in live (Unicode's Scripts.txt, by block).
    static let scriptRanges: [(ClosedRange<UInt32>, Script)] = [
        (0x41...0x2AF, "Latin"), (0x1D00...0x1D7F, "Latin"), (0x1E00...0x1EFF, "Latin"), (0x2C60...0x2C7F, "Latin"),
        (0xA720...0xA7FF, "Latin"), (0xAB30...0xAB6F, "Latin"),
        (0x370...0x3FF, "Greek"), (0x1F00...0x1FFF, "Greek"),
        (0x400...0x52F, "Cyrillic"), (0x1C80...0x1C8F, "Cyrillic"), (0x2DE0...0x2DFF, "Cyrillic"),
        (0xA640...0xA69F, "Cyrillic"),
        (0x530...0x58F, "Armenian"), (0x590...0x5FF, "Hebrew"), (0xFB1D...0xFB4F, "Hebrew"),
        (0x600...0x6FF, "Arabic"), (0x750...0x77F, "Arabic"), (0x8A0...0x8FF, "Arabic"), (0xFB50...0xFDFF, "Arabic"),
        (0xFE70...0xFEFF, "Arabic"), (0x700...0x74F, "Syriac"), (0x780...0x7BF, "Thaana"),
        (0xF00...0xFFF, "Tibetan"), (0x1000...0x109F, "Myanmar"), (0x10A0...0x10FF, "Georgian"),
        (0x1C90...0x1CBF, "Georgian"), (0x2D00...0x2D2F, "Georgian"), (0x1200...0x139F, "Ethiopic"),
        (0x13A0...0x13FF, "Cherokee"), (0xAB70...0xABBF, "Cherokee"), (0x1780...0x17FF, "Khmer"),
        (0x1800...0x18AF, "Mongolian"),
        (0xFF10...0xFF19, fullwidthASCII), (0xFF21...0xFF3A, fullwidthASCII), (0xFF41...0xFF5A, fullwidthASCII),
        (0x3040...0x309F, "Hiragana"), (0x30A0...0x30FF, "Katakana"), (0x31F0...0x31FF, "Katakana"),
        (0xFF66...0xFF9F, "Katakana"),
        (0x1100...0x11FF, "Hangul"), (0x3130...0x318F, "Hangul"), (0xA960...0xA97F, "Hangul"),
        (0xAC00...0xD7FF, "Hangul"), (0xFFA0...0xFFDF, "Hangul"),
        (0x3100...0x312F, "Bopomofo"), (0x31A0...0x31BF, "Bopomofo"),
        (0x2E80...0x2FDF, "Han"), (0x3005...0x3007, "Han"), (0x3021...0x3029, "Han"), (0x3400...0x4DBF, "Han"),
        (0x4E00...0x9FFF, "Han"), (0xF900...0xFAFF, "Han"), (0x20000...0x3FFFF, "Han"),
    ]

    /// The script of a letter; nil for ASCII digits, punctuation, symbols and combining
    /// marks (which take the script of what they follow).
    static func script(of scalar: Unicode.Scalar) -> Script? {
        let properties = scalar.properties
        let category = properties.generalCategory
        guard properties.isAlphabetic || category == .decimalNumber else { return nil }
        if category == .nonspacingMark || category == .spacingMark || category == .enclosingMark { return nil }
        let v = scalar.value
        if v < 0x80 && category == .decimalNumber { return nil }
        if let (_, script) = scriptRanges.first(where: { $0.0.contains(v) }) { return script }
        return "U+" + String((v >> 7) << 7, radix: 16, uppercase: true) + "…"
    }

    /// Letters that are read as Latin ones (after Chrome's whole-script confusable lists).
    static let latinLookalikes = (
        cyrillic: Set("аеорсухіјѕԁԛԝһӏүвкмнтАВЕКМНОРСТХІЈЅԚԜҮ".unicodeScalars),
        greek: Set("αοιικνρτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ".unicodeScalars)
    )
}
