import Foundation
import HearthTesting
import PostgresNIO
import Testing

@testable import HearthStore

/// Phrase search by pairs under their line's scope (issue 38, `HistorySearchScopedPairs`): on
/// PostgreSQL the index hands back only the reader's candidates; the lines found are the same as
/// by words, on both engines, through retirement and the backfill of lines written before.
@Suite struct ScopedPhraseSearchStoreTests {
    typealias Search = HistorySearchStoreTests
    typealias Scoped = HistorySearchScopedPairs

    static func phrase(_ text: String) -> TextSearch { TextSearch(parts: [.term(text, prefix: false)]) }

    /// Hay after the lines, so PostgreSQL reads them through the pairs' bitmap.
    static func hay(_ target: String) -> [HistoryRecord] {
        (0..<Int(HistorySearchWindows.first) + 10).map { Search.line(target, "h\($0)", "only hay") }
    }

    @Test(arguments: Engine.allCases)
    func aPhraseIsFoundOnlyWhereTheReaderMayRead(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            let bob = try await AccountStoreTests.make(store, "bob").id
            let cy = try await AccountStoreTests.make(store, "cy").id
            try await Search.append(
                store,
                [
                    Search.line("#room", "room", "the orange cat"),
                    Search.line("#other", "other", "the orange cat"),
                    Search.line(HistoryRecord.conversation(ann, bob), "ab", "orange cat here", account: ann),
                    Search.line(HistoryRecord.conversation(bob, cy), "bc", "an orange cat", account: bob),
                    Search.line("#old abc", "old", "orange cat of old"),
                    Search.line("#old def", "missed", "orange cat ann missed"),
                    Search.line("#room", "reversed", "cat orange"),
                ] + Self.hay("#room"), access: [HistoryAccess(target: "#old abc", accountID: ann)])
            let cat = Self.phrase("orange cat")
            let anns = try await store.searchScope(
                channels: [(key: "#room", current: "#room"), (key: "#old", current: "#old xyz")], accountID: ann)
            #expect(try await Search.find(store, cat, anns) == ["room", "ab", "old"])
            #expect(try await Search.find(store, cat, HistoryScope(targets: [], conversationsOf: bob)) == ["ab", "bc"])
            #expect(try await Search.find(store, cat, HistoryScope(targets: [], conversationsOf: cy)) == ["bc"])
            let other = HistoryScope(targets: ["#other"], conversationsOf: nil)
            #expect(try await Search.find(store, cat, other) == ["other"])
            // A scope naming a conversation's key reads it too (without pairs on PostgreSQL).
            let byKey = HistoryScope(targets: [HistoryRecord.conversation(bob, cy)], conversationsOf: nil)
            #expect(try await Search.find(store, cat, byKey) == ["bc"])
            // The channel is retired: its lines go with it, found by whoever may read them there.
            try await store.retireHistory(
                target: "#room", to: "#room 42", access: [HistoryAccess(target: "#room 42", accountID: ann)])
            let kept = try await store.searchScope(channels: [(key: "#room", current: "#room")], accountID: ann)
            #expect(try await Search.find(store, cat, kept) == ["room", "ab"])
            #expect(try await Search.find(store, cat, HistoryScope(targets: ["#room"], conversationsOf: nil)).isEmpty)
            if let postgres = store as? PostgresStore {
                // …and written again under the new name, not left for every phrase search to check.
                let left = try await postgres.rows(
                    "SELECT count(*) FROM history WHERE searchScopedPairs IS NULL AND command = 'PRIVMSG'"
                )[0].decode(Int64.self)
                #expect(left == 0)
                let renamed = try await postgres.rows(
                    "SELECT searchScopedPairs @@ '''@#room 42|orange cat''' FROM history WHERE msgid = 'room'"
                )[0].decode(Bool.self)
                #expect(renamed)
            }
        }
    }

    /// A renamed channel's lines are found under its new name by a phrase, also through the pairs'
    /// bitmap (on PostgreSQL their scoped pairs named the old name and were never written again).
    @Test(arguments: Engine.allCases)
    func aRenamedChannelsLinesAreFoundUnderItsNewName(engine: Engine) async throws {
        try await engine.withStore { store in
            try await Search.append(store, [Search.line("#old", "before", "the orange cat")] + Self.hay("#old"))
            try await store.renameChannel(from: "#old", to: "#new", name: "#new")
            let (cat, new, old) = (
                Self.phrase("orange cat"), HistoryScope(targets: ["#new"], conversationsOf: nil),
                HistoryScope(targets: ["#old"], conversationsOf: nil)
            )
            #expect(try await Search.find(store, cat, new) == ["before"])
            #expect(try await Search.find(store, cat, old).isEmpty)
        }
    }

    /// Lines written before migration v41 have no scoped pairs: a phrase search checks them all
    /// (the same lines found), and `indexHistoryForSearch` fills them in batches, newest first.
    @Test(arguments: Engine.allCases)
    func linesWrittenBeforeAreFoundAndBackfilled(engine: Engine) async throws {
        let inserts = [("#room", "the orange cat"), ("pm:1:2", "orange cat inside"), ("#far", "orange cat far")]
            .enumerated().map { n, line in
                "INSERT INTO history (target, msgid, source, command, text, createdAt) VALUES "
                    + "('\(line.0)', 'old\(n)', 'ann!a@h', 'PRIVMSG', '\(line.1)', '2026-01-01 10:00:0\(n)Z')"
            }
        try await MigratedStore.with(
            engine, before: "v28-history-search-prefix-index", "v41-history-search-scoped-pairs", rows: inserts
        ) { store in
            try await Search.append(store, Self.hay("#room"))
            let scope = HistoryScope(targets: ["#room"], conversationsOf: 2)
            #expect(try await Search.find(store, Self.phrase("orange cat"), scope) == ["old0", "old1"])
            var batches: [Int] = []
            while true {
                let done = try await store.indexHistoryForSearch(batch: 2)
                batches.append(done)
                if done == 0 { break }
            }
            #expect(batches == (engine == .postgres ? [2, 1, 0] : [0]))
            #expect(try await Search.find(store, Self.phrase("orange cat"), scope) == ["old0", "old1"])
            #expect(try await Search.find(store, Self.phrase("cat orange"), scope).isEmpty)
        }
    }

    /// A line's lexemes: each pair under each scope lexeme `search` gives the line.
    @Test func aLinesScopedPairs() {
        #expect(Scoped.lexemes(target: "#room", text: "la la land") == ["@#room|la la", "@#room|la land"])
        #expect(Scoped.lexemes(target: "#room 42", text: "a b") == ["@#room 42|a b"])
        #expect(Scoped.lexemes(target: "pm:1:2", text: "a b") == ["@u:1|a b", "@u:2|a b"])
        #expect(Scoped.lexemes(target: "pm:3:3", text: "a b") == ["@u:3|a b"])
        #expect(Scoped.lexemes(target: "pm:", text: "a b") == ["@u:|a b"])
        #expect(Scoped.lexemes(target: "#room", text: "hello").isEmpty)
        // A comma parts lexemes on the way in: such a scope's lines are `any`, as odd lines are.
        #expect(Scoped.lexemes(target: "#a,b", text: "a b") == [HistorySearchPairs.any])
    }

    /// PostgreSQL's longest lexeme and a line's most bytes: crossed, the line is `any`.
    @Test func tooLongIsAny() {
        let word = String(repeating: "w", count: HistorySearchPairs.maxWordBytes - 1)
        let pair = word + " " + word
        let fits = "#" + String(repeating: "c", count: Scoped.maxLexemeBytes - pair.utf8.count - 3)
        #expect(Scoped.lexemes(target: fits, text: pair) == ["@" + fits + "|" + pair])
        #expect(Scoped.lexemes(target: fits + "c", text: pair) == [HistorySearchPairs.any])
        // A line of long words in a conversation: two lexemes a pair, each pair another.
        let short = String(repeating: "w", count: 200)
        let pairsAllowed = Scoped.maxLineBytes / 2 / ("@u:1|".utf8.count + 2 * short.utf8.count + 1)
        let words = (0...pairsAllowed).map { String(("w\($0)" + short).prefix(short.count)) }
        let line = words.joined(separator: " ")
        #expect(Scoped.lexemes(target: "pm:1:2", text: line).count == 2 * pairsAllowed)
        #expect(Scoped.lexemes(target: "pm:1:2", text: line + " x" + short) == [HistorySearchPairs.any])
    }

    /// A search's tsquery: each scope's pairs of each group, or `any`; quotes escaped.
    @Test func aSearchsScopedTsquery() {
        let scope = HistoryScope(targets: ["#a", "#it's"], conversationsOf: 1)
        #expect(
            Scoped.tsquery(groups: [["x y", "y z"]], scope: scope)
                == "(('@#a|x y' & '@#a|y z') | ('@#it''s|x y' & '@#it''s|y z') | ('@u:1|x y' & '@u:1|y z')) | '*'")
        #expect(
            Scoped.tsquery(groups: [["x y"], ["a b"]], scope: HistoryScope(targets: ["#a"], conversationsOf: nil))
                == "(('@#a|x y') | ('@#a|a b')) | '*'")
        let conversation = HistoryScope(targets: ["pm:1:2"], conversationsOf: nil)
        #expect(Scoped.tsquery(groups: [["x y"]], scope: conversation) == nil)
        let long = "#" + String(repeating: "c", count: Scoped.maxLexemeBytes)
        #expect(Scoped.tsquery(groups: [["x y"]], scope: HistoryScope(targets: [long], conversationsOf: nil)) == nil)
    }

    /// With scoped pairs the bitmap fetches about the matches in scope: read instead of a second
    /// backward window when those cost less than the window's rows.
    @Test func aPhraseWithPairsTakesTheBitmapWhenItCostsLess() {
        typealias W = HistorySearchWindows
        // 15 hits in the first window: 85 more about 113,000 ids away (a window of 170,000), or
        // the 735 matches below at that density.
        #expect(
            W.next(upTo: 980_000, covered: W.first, found: 15, need: 85, byPairs: true)
                == W.Window(above: nil, read: .bitmap))
        #expect(W.next(upTo: 980_000, covered: W.first, found: 15, need: 85).read == .backward)
        // 60 hits: 40 more about 13,000 ids away, cheaper than fetching 2,940.
        #expect(
            W.next(upTo: 980_000, covered: W.first, found: 60, need: 40, byPairs: true)
                == W.Window(above: 980_000 - 40 * 3 * W.first / 120, read: .backward))
    }
}
