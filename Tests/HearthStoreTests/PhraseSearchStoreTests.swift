import Foundation
import HearthTesting
import PostgresNIO
import Testing

@testable import HearthStore

/// Phrase search of chat history (issue 38): on PostgreSQL a phrase is found by its word pairs
/// (`HistorySearchPairs`), so they must hold every pair the 'simple' parser puts side by side, and
/// a search finds the same lines as it did before them, on both engines.
@Suite struct PhraseSearchStoreTests {
    typealias Search = HistorySearchStoreTests
    static let room = HistoryScope(targets: ["#room"], conversationsOf: nil)

    static func phrase(_ text: String, prefix: Bool = false) -> TextSearch {
        TextSearch(parts: [.term(text, prefix: prefix)])
    }

    /// The lines are older than the first window, so PostgreSQL reads them through the pairs' index.
    @Test(arguments: Engine.allCases)
    func phrasesFoundByTheirPairsAreTheSame(engine: Engine) async throws {
        try await engine.withStore { store in
            var lines = [
                Search.line("#room", "punct", "Good, morning!"),
                Search.line("#room", "repeat", "la la land"),
                Search.line("#room", "three", "pick the cheese"),
                Search.line("#room", "apart", "we pick the apples and the cheese"),
                Search.line("#room", "accent", "une crème brûlée, café au lait"),
                Search.line("#room", "hyphen", "a well-known fact"),
                Search.line("#room", "digits", "meet at 10 30 sharp"),
                Search.line("#room", "late", "good morning to you"),
                Search.line("#room", "notice", "good morning from the bot"),
            ]
            lines[8].command = "NOTICE"
            lines += (0..<Int(HistorySearchWindows.first) + 10).map { Search.line("#room", "h\($0)", "only hay") }
            try await Search.append(store, lines)
            func find(_ words: TextSearch) async throws -> [String] {
                try await Search.find(store, words, Self.room)
            }
            #expect(try await find(Self.phrase("good morning")) == ["punct", "late", "notice"])
            #expect(try await find(Self.phrase("GOOD MORNING TO")) == ["late"])
            #expect(try await find(Self.phrase("good morn", prefix: true)) == ["punct", "late", "notice"])
            #expect(try await find(Self.phrase("la land")) == ["repeat"])
            #expect(try await find(Self.phrase("la la")) == ["repeat"])
            #expect(try await find(Self.phrase("la la land")) == ["repeat"])
            #expect(try await find(Self.phrase("la la la")).isEmpty)
            #expect(try await find(Self.phrase("land la")).isEmpty)
            // Both pairs are in "apart", but not one after the other.
            #expect(try await find(Self.phrase("pick the cheese")) == ["three"])
            #expect(try await find(Self.phrase("the cheese")) == ["three", "apart"])
            #expect(try await find(Self.phrase("crème brûlée")) == ["accent"])
            #expect(try await find(Self.phrase("au lait")) == ["accent"])
            #expect(try await find(Self.phrase("café au")) == ["accent"])
            #expect(try await find(Self.phrase("known fact")) == ["hyphen"])
            #expect(try await find(Self.phrase("10 30")) == ["digits"])
            #expect(try await find(Self.phrase("only morning")).isEmpty)
            let either = TextSearch(parts: [.term("la land", prefix: false), .or, .term("known fact", prefix: false)])
            #expect(try await find(either) == ["repeat", "hyphen"])
            let without = TextSearch(parts: [.term("good morning", prefix: false), .not, .term("to", prefix: false)])
            #expect(try await find(without) == ["punct", "notice"])
            let mixed = TextSearch(parts: [.term("la land", prefix: false), .or, .term("cheese", prefix: false)])
            #expect(try await find(mixed) == ["repeat", "three", "apart"])
        }
    }

    /// What only PostgreSQL's parser does — drop tags, entities and "http://", cut "1e5x" — still
    /// finds the phrase it makes, through the pairs.
    @Test func theParsersOwnCutsAreFoundOnPostgres() async throws {
        try await Engine.postgres.withStore { store in
            var lines = [
                Search.line("#room", "tag", "say <b>hello</b> world"),
                Search.line("#room", "entity", "salt &amp; pepper"),
                Search.line("#room", "protocol", "go http://home now"),
                Search.line("#room", "float", "exactly 1e5x more"),
                Search.line("#room", "signed", "about -5px wide"),
                Search.line("#room", "dotted", "\u{130}t works"),
            ]
            lines += (0..<Int(HistorySearchWindows.first) + 10).map { Search.line("#room", "h\($0)", "only hay") }
            try await Search.append(store, lines)
            for (words, expected) in [
                ("say hello world", "tag"), ("salt pepper", "entity"), ("go home now", "protocol"),
                ("x more", "float"), ("px wide", "signed"), ("it works", "dotted"),
            ] {
                #expect(try await Search.find(store, Self.phrase(words), Self.room) == [expected], "\(words)")
            }
        }
    }

    /// Random lines of what trips parsers: every pair of ASCII words side by side in `search` is
    /// among the line's pairs (or the line is `any`).
    @Test func pairsHoldEveryPairTheParserMakes() async throws {
        try await Engine.postgres.withStore { store in
            let postgres = try #require(store as? PostgresStore)
            let pieces = [
                "a", "e", "x", "1", "5", " ", " ", " ", ".", "-", "/", "@", ":", "<", ">", "&", ";", "#", "_", "+",
                "'", "\"", "=", "!", "?", ",", "é", "\u{130}", "\u{212A}", "½", "ß", "\u{301}", "://", "http",
                "&amp;", "<b>", "e5", "1e", "0x", "\t", "&a", "b;",
            ]
            // The same lines every run: a linear congruential generator.
            var state: UInt64 = 38
            func next(_ below: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(below))
            }
            let texts = (0..<3000).map { _ in (0...next(14)).map { _ in pieces[next(pieces.count)] }.joined() }
            try await store.appendHistory(
                texts.enumerated().map { Search.line("#fuzz", "f\($0.offset)", $0.element) })
            let made = try await postgres.rows(
                """
                WITH v AS (SELECT msgid, l.lexeme, p FROM history, unnest(search) l, unnest(l.positions) p
                           WHERE target = '#fuzz')
                SELECT a.msgid, a.lexeme || ' ' || b.lexeme FROM v a JOIN v b ON a.msgid = b.msgid AND b.p = a.p + 1
                WHERE a.lexeme ~ '^[a-z0-9]+$' AND b.lexeme ~ '^[a-z0-9]+$'
                """
            ).map { try $0.decode((String, String).self) }
            let kept = try await postgres.rows(
                """
                SELECT msgid, replace(array_to_string(tsvector_to_array(searchScopedPairs), ','), '@#fuzz|', '')
                FROM history WHERE target = '#fuzz'
                """
            ).reduce(into: [String: Set<String>]()) { kept, row in
                let (msgid, pairs) = try row.decode((String, String).self)
                kept[msgid] = Set(pairs.split(separator: ",").map(String.init))
            }
            #expect(made.count > 500)
            for (msgid, pair) in made {
                let pairs = kept[msgid] ?? []
                #expect(
                    pairs.contains(pair) || pairs.contains(HistorySearchPairs.any),
                    "\(texts[Int(msgid.dropFirst())!].debugDescription) lacks \(pair)")
            }
        }
    }

    /// Lines written before migration v39 have no pairs: a phrase search checks them all (the
    /// same lines found), and `indexHistoryForSearch` fills them in batches, newest first.
    @Test(arguments: Engine.allCases)
    func existingHistoryIsBackfilledInBatches(engine: Engine) async throws {
        let inserts = (1...5).map { n in
            "INSERT INTO history (target, msgid, source, command, text, createdAt) VALUES "
                + "('#room', 'old\(n)', 'ann!a@h', 'PRIVMSG', 'the orange cat \(n)', '2026-01-01 10:00:0\(n)Z')"
        }
        try await MigratedStore.with(
            engine, before: "v28-history-search-prefix-index", "v39-history-search-pairs", rows: inserts
        ) { store in
            try await Search.append(
                store, (0..<Int(HistorySearchWindows.first) + 10).map { Search.line("#room", "h\($0)", "only hay") })
            let all = (1...5).map { "old\($0)" }
            #expect(try await Search.find(store, Self.phrase("orange cat"), Self.room) == all)
            var batches: [Int] = []
            while true {
                let done = try await store.indexHistoryForSearch(batch: 2)
                batches.append(done)
                if done == 0 { break }
            }
            #expect(batches == (engine == .postgres ? [2, 2, 1, 0] : [0]))
            #expect(try await Search.find(store, Self.phrase("orange cat"), Self.room) == all)
            #expect(try await Search.find(store, Self.phrase("cat orange"), Self.room).isEmpty)
        }
    }

    /// A query's pairs: ASCII phrases only, each OR group needs one, NOT and prefixes as tsquery has them.
    @Test func aSearchsPairs() {
        func pairs(_ parts: TextSearch.Part...) -> [[String]]? { TextSearch(parts: parts).pairGroups }
        #expect(pairs(.term("Good morning, all", prefix: false)) == [["good morning", "morning all"]])
        #expect(pairs(.term("good morn", prefix: true)) == nil)
        #expect(pairs(.term("good morning you", prefix: true)) == [["good morning"]])
        #expect(pairs(.term("crème brûlée", prefix: false)) == nil)
        #expect(pairs(.term("1e5x more", prefix: false)) == nil)
        #expect(pairs(.term("good", prefix: false), .term("bad day", prefix: false)) == [["bad day"]])
        #expect(pairs(.term("la land", prefix: false), .or, .term("cheese", prefix: false)) == nil)
        #expect(pairs(.term("la land", prefix: false), .or, .term("a b", prefix: false)) == [["la land"], ["a b"]])
        #expect(pairs(.not, .term("la land", prefix: false), .term("x y", prefix: false)) == [["x y"]])
        // A NOT before no word waits for the next term, as `tsquery` reads it.
        #expect(pairs(.not, .term("!!", prefix: false), .term("x y", prefix: false)) == nil)
        #expect(pairs(.or, .term("x y", prefix: false)) == [["x y"]])
    }

    /// The byte reading of plain lines gives what the full reading gives, or leaves the line to it:
    /// lines drawn from letters, digits, spaces, punctuation and the characters that make a line odd.
    @Test func plainLinesArePairedAsTheFullReadingPairsThem() {
        #expect(
            HistorySearchPairs.plainLexemes("Line 12 about SOUP, bread!")
                == ["12 about", "about soup", "line 12", "soup bread"])
        for odd in ["5px wide", "see <b>this</b>", "a &amp; b", "http://x.y z", "café au lait", "İstanbul x"] {
            #expect(HistorySearchPairs.plainLexemes(odd) == nil, "\(odd)")
        }
        let pieces = [
            "soup", "Bread", "42", "e5", "1e5", " ", " ", "  ", ",", ".", "-", "'", "<", "&", ";", ":", "/",
            "://", "É", "İ", "\u{212A}", "😀", "\t", "x", "A", "0",
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var plain = 0
        for _ in 0..<10_000 {
            var line = ""
            for _ in 0..<Int(seed % 12) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                line += pieces[Int((seed >> 33) % UInt64(pieces.count))]
            }
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            guard let fast = HistorySearchPairs.plainLexemes(line) else { continue }
            plain += 1
            #expect(fast == HistorySearchPairs.readLexemes(line), "\(line)")
        }
        #expect(plain > 500, "too few plain lines drawn to compare: \(plain)")
    }

    /// A line's pairs: limits crossed make it `any`.
    @Test func oddLinesAreAny() {
        #expect(HistorySearchPairs.lexemes("la la land") == ["la la", "la land"])
        #expect(HistorySearchPairs.lexemes("hello") == [])
        let long = String(repeating: "a", count: HistorySearchPairs.maxWordBytes)
        #expect(HistorySearchPairs.lexemes("x " + long) == [HistorySearchPairs.any])
        #expect(HistorySearchPairs.lexemes("x " + long.dropFirst()) == ["x " + long.dropFirst()])
        let many = (0...HistorySearchPairs.maxRuns).map { "w\($0 % 3)" }.joined(separator: " ")
        #expect(HistorySearchPairs.lexemes(many) == [HistorySearchPairs.any])
        let wide = (0...HistorySearchPairs.maxPairs + 1).map { "w\($0)" }.joined(separator: " ")
        #expect(HistorySearchPairs.lexemes(wide) == [HistorySearchPairs.any])
        let widest = (0...HistorySearchPairs.maxPairs).map { "w\($0)" }.joined(separator: " ")
        #expect(HistorySearchPairs.lexemes(widest).count == HistorySearchPairs.maxPairs)
    }
}
