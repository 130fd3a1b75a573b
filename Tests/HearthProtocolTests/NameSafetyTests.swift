import Testing

@testable import HearthProtocol

/// Names that hide characters or imitate other names are refused (`NameSafety`).
@Suite struct NameSafetyTests {
    /// The probes of the security review: each reads like #lobby.
    static let lookalikes = [
        "#lobby\u{200B}", "#lobby\u{00A0}", "#lobby\u{2028}", "#lobby\u{0085}", "#\u{FEFF}lobby", "#\u{202E}lobby",
        "#lobby\u{07}", "#l\u{03BF}bby", "#lobb\u{0443}", "#\u{FF4C}obby", "#lo\u{00AD}bby", "#lobby\u{2060}",
        "#lobby\u{3000}", "#lobby\u{E000}", "#lobby\u{FE0F}", "#\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}",
    ]

    @Test(arguments: lookalikes) func lookalikesAreRefused(_ name: String) {
        #expect(NameSafety.problem(in: name) != nil, "accepted \(name.unicodeScalars.map { $0.value })")
        #expect(!IRCNames.isValidChannel(name))
    }

    /// Real names in one script, or Latin with CJK scripts, pass.
    @Test(arguments: [
        "#lobby", "#café", "#naïve-2", "#Ελληνικά", "#русский", "#日本語チャット", "#東京2024", "#한국어", "#עברית",
        "#العربية", "#हिन्दी", "#ไทย", "#c++", "#rust_lang", "#Ubuntu中文", "#ひらがなとカタカナ",
    ]) func honestNamesPass(_ name: String) {
        #expect(NameSafety.problem(in: name) == nil, "\(name): \(NameSafety.problem(in: name) ?? "")")
        #expect(IRCNames.isValidChannel(name))
    }

    @Test func theReasonNamesTheProblem() {
        #expect(NameSafety.problem(in: "#lobby\u{200B}")?.contains("U+200B") == true)
        #expect(NameSafety.problem(in: "#l\u{03BF}bby")?.contains("Greek and Latin") == true)
        #expect(NameSafety.problem(in: "#\u{0430}\u{0440}\u{0440}")?.contains("look like Latin") == true)
    }
}
