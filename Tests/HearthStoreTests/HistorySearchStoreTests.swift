import Foundation
import GRDB
import HearthTesting
import Logging
import PostgresNIO
import Testing

@testable import HearthStore

/// Full-text search of chat history (issue 38), the same on every engine: only the history a
/// reader may read, redacted and retired lines handled, hostile words harmless.
@Suite struct HistorySearchStoreTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func line(_ target: String, _ id: String, _ text: String, from nick: String = "ann", account: Int64? = nil)
        -> HistoryRecord
    {
        HistoryRecord(
            target: target, msgid: id, source: "\(nick)!\(nick)@host", accountID: account, command: "PRIVMSG",
            text: text, createdAt: start + Double(id.utf8.reduce(0) { ($0 * 31 + Int($1)) % 100_000 }))
    }

    /// Appends `lines` 2,000 a statement (the access with the first): 20,000 in one took 0.3 s on a
    /// quiet PostgreSQL and passed the store's 5 s statement timeout in CI's loaded first pass.
    static func append(_ store: some Store, _ lines: [HistoryRecord], access: [HistoryAccess] = []) async throws {
        for start in stride(from: 0, to: max(lines.count, 1), by: 2_000) {
            let part = Array(lines[start..<min(start + 2_000, lines.count)])
            try await store.appendHistory(part, access: start == 0 ? access : [])
        }
    }

    static func words(_ parts: TextSearch.Part...) -> TextSearch { TextSearch(parts: parts) }
    static func word(_ text: String, prefix: Bool = false) -> TextSearch { words(.term(text, prefix: prefix)) }

    static func find(_ store: some Store, _ words: TextSearch, _ scope: HistoryScope, limit: Int = 50) async throws
        -> [String]
    {
        try await store.searchHistory(HistorySearch(words: words, scope: scope, limit: limit)).map(\.msgid)
    }

    @Test(arguments: Engine.allCases)
    func findsOnlyWhatTheReaderMayRead(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            let bob = try await AccountStoreTests.make(store, "bob").id
            let cy = try await AccountStoreTests.make(store, "cy").id
            try await store.appendHistory(
                [
                    Self.line("#room", "r1", "the pancakes are ready"),
                    Self.line("#secret", "s1", "pancakes in the secret room"),
                    Self.line(HistoryRecord.conversation(ann, bob), "d1", "pancakes for two?", account: ann),
                    Self.line(HistoryRecord.conversation(bob, cy), "d2", "secret pancakes", from: "bob", account: bob),
                    Self.line("#old abc", "o1", "pancakes of the first incarnation"),
                    Self.line("#old def", "o2", "pancakes of an incarnation ann missed"),
                    Self.line("#old xyz", "o3", "pancakes now"),
                ], access: [HistoryAccess(target: "#old abc", accountID: ann)])
            let scope = try await store.searchScope(
                channels: [(key: "#room", current: "#room"), (key: "#old", current: "#old xyz")], accountID: ann)
            #expect(Set(try await Self.find(store, Self.word("pancakes"), scope)) == ["r1", "d1", "o1", "o3"])
            // Without an account: the live incarnations of the channels one is in, no conversations.
            let guest = try await store.searchScope(channels: [(key: "#room", current: "#room")], accountID: nil)
            #expect(try await Self.find(store, Self.word("pancakes"), guest) == ["r1"])
            #expect(
                try await Self.find(store, Self.word("pancakes"), HistoryScope(targets: [], conversationsOf: nil))
                    .isEmpty)
            // bob's and cy's conversation is found by them, never by ann.
            #expect(
                try await Self.find(store, Self.word("secret"), HistoryScope(targets: [], conversationsOf: cy))
                    == ["d2"])
            #expect(try await Self.find(store, Self.word("secret"), scope).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func redactedAndRetiredLinesFollowTheirRow(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            try await store.appendHistory([
                Self.line("#room", "r1", "waffles at noon"), Self.line("#room", "r2", "more waffles"),
                HistoryRecord(
                    target: "#room", msgid: "t1", source: "ann!ann@host", command: "TAGMSG", text: "waffles",
                    createdAt: Self.start),
            ])
            let room = HistoryScope(targets: ["#room"], conversationsOf: nil)
            #expect(try await Self.find(store, Self.word("waffles"), room) == ["r1", "r2"])
            try await store.deleteHistoryMessage(targets: ["#room"], msgid: "r1")
            #expect(try await Self.find(store, Self.word("waffles"), room) == ["r2"])
            // The channel stops being registered: its lines move to an incarnation ann may read.
            try await store.retireHistory(
                target: "#room", to: "#room 42", access: [HistoryAccess(target: "#room 42", accountID: ann)])
            #expect(try await Self.find(store, Self.word("waffles"), room).isEmpty)
            let kept = try await store.searchScope(channels: [(key: "#room", current: "#room")], accountID: ann)
            #expect(try await Self.find(store, Self.word("waffles"), kept) == ["r2"])
        }
    }

    @Test(arguments: Engine.allCases)
    func wordsPhrasesPrefixesOperatorsAndBounds(engine: Engine) async throws {
        try await engine.withStore { store in
            let lines = [
                Self.line("#room", "a", "Good morning everyone"),
                Self.line("#room", "b", "morning coffee", from: "bob"),
                Self.line("#room", "c", "good night"), Self.line("#room", "d", "Mornings are hard", from: "Bob"),
            ]
            try await store.appendHistory(lines)
            let room = HistoryScope(targets: ["#room"], conversationsOf: nil)
            #expect(try await Self.find(store, Self.word("MORNING"), room) == ["a", "b"])
            #expect(try await Self.find(store, Self.word("morn", prefix: true), room) == ["a", "b", "d"])
            #expect(try await Self.find(store, Self.word("good morning"), room) == ["a"])
            #expect(
                try await Self.find(
                    store, Self.words(.term("good", prefix: false), .not, .term("night", prefix: false)), room) == ["a"]
            )
            #expect(
                try await Self.find(
                    store, Self.words(.term("coffee", prefix: false), .or, .term("night", prefix: false)), room) == [
                        "b", "c",
                    ])
            #expect(try await Self.find(store, Self.word("morn", prefix: true), room, limit: 2) == ["b", "d"])
            let fromBob = try await store.searchHistory(
                HistorySearch(words: Self.word("morn", prefix: true), scope: room, fromNick: "BOB", limit: 10))
            #expect(fromBob.map(\.msgid) == ["b", "d"])
            let wildcard = try await store.searchHistory(
                HistorySearch(words: Self.word("morn", prefix: true), scope: room, fromNick: "b%", limit: 10))
            #expect(wildcard.isEmpty)
            let bounded = try await store.searchHistory(
                HistorySearch(
                    words: Self.word("morn", prefix: true), scope: room, after: lines[1].createdAt,
                    before: lines[1].createdAt, limit: 10))
            #expect(bounded.map(\.msgid) == ["b"])
        }
    }

    /// What people type reaches the engine as values only: no syntax error, no crash.
    @Test(arguments: Engine.allCases)
    func hostileWordsAreOnlyWords(engine: Engine) async throws {
        try await engine.withStore { store in
            try await store.appendHistory([Self.line("#it's", "q", "it's \"quoted\" a:b NEAR(x y) \\ back'slash")])
            let scope = HistoryScope(targets: ["#it's"], conversationsOf: nil)
            for text in ["\"", "'", "it's", "NEAR(x", "a:b", "\\", "*", "x)", "-a", "(", "''", "\"\"quoted", "AND"] {
                _ = try await Self.find(store, Self.word(text), scope)
                _ = try await Self.find(store, Self.word(text, prefix: true), scope)
            }
            #expect(try await Self.find(store, Self.word("quoted"), scope) == ["q"])
            #expect(try await Self.find(store, Self.word("slash"), scope).count <= 1)
        }
    }

    /// A search reads id windows newest first (`HistorySearchWindows`): what lies beyond the
    /// first window is still found, and the newest lines come first whichever window holds them.
    @Test(arguments: Engine.allCases)
    func matchesOlderThanTheFirstWindowAreFound(engine: Engine) async throws {
        try await engine.withStore { store in
            let hay = Int(HistorySearchWindows.first) + 10
            var lines = [Self.line("#room", "oldest", "needle in the hay")]
            lines += (0..<hay).map { Self.line("#room", "h\($0)", $0 == hay / 2 ? "older needle" : "only hay") }
            lines.append(Self.line("#room", "newest", "the last needle"))
            try await Self.append(store, lines)
            let room = HistoryScope(targets: ["#room"], conversationsOf: nil)
            #expect(try await Self.find(store, Self.word("needle"), room) == ["oldest", "h\(hay / 2)", "newest"])
            #expect(try await Self.find(store, Self.word("needle"), room, limit: 2) == ["h\(hay / 2)", "newest"])
            // Two hits in the newest ids say a third is near: read backward again (PostgreSQL).
            let three = try await Self.find(store, Self.word("needle"), room, limit: 3)
            #expect(three == ["oldest", "h\(hay / 2)", "newest"])
            #expect(try await Self.find(store, Self.word("needle in"), room) == ["oldest"])
            #expect(try await Self.find(store, Self.word("absent"), room).isEmpty)
        }
    }

    /// PostgreSQL's windows: the newest ids backward first; again backward while the hits so far
    /// say the rest is near (1.5 times what they predict); else the bitmap down to the first line.
    @Test func searchWindowsFollowTheHitsAndReachTheFirstLine() {
        typealias W = HistorySearchWindows
        #expect(
            W.next(upTo: 1_000_000, covered: 0, found: 0, need: 100)
                == W.Window(above: 1_000_000 - W.first, read: .backward))
        // 60 hits in the first window: 40 more are about 13,000 ids away.
        let near = W.next(upTo: 980_000, covered: W.first, found: 60, need: 40)
        #expect(near == W.Window(above: 980_000 - 40 * 3 * W.first / 120, read: .backward))
        // 5 hits: 95 more are beyond `scanRows`; none: no guess at all. Both read all the rest.
        #expect(W.next(upTo: 980_000, covered: W.first, found: 5, need: 95) == W.Window(above: nil, read: .bitmap))
        #expect(W.next(upTo: 980_000, covered: W.first, found: 0, need: 100) == W.Window(above: nil, read: .bitmap))
        // Near the first line the window has no lower end either.
        #expect(W.next(upTo: 5, covered: 0, found: 0, need: 10) == W.Window(above: nil, read: .backward))
        #expect(W.next(upTo: 30_000, covered: W.first, found: 50, need: 50).above == nil)
    }

    /// The migration indexes the history written before it.
    @Test(arguments: Engine.allCases)
    func existingHistoryIsIndexedByTheMigration(engine: Engine) async throws {
        let insert =
            "INSERT INTO history (target, msgid, source, command, text, createdAt) VALUES "
            + "('#room', 'old1', 'ann!a@h', 'PRIVMSG', 'remember the marmalade', '2026-01-01 10:00:00Z')"
        let room = HistoryScope(targets: ["#room"], conversationsOf: nil)
        try await MigratedStore.with(engine, before: "v19-history-search", "v17-history-search", rows: [insert]) {
            (store: any Store) async throws in
            let found = try await Self.find(store, Self.word("marmalade"), room)
            #expect(found == ["old1"])
            // SQLite's index of 3-letter prefixes (v28) was rebuilt with the lines there were.
            #expect(try await Self.find(store, Self.word("mar", prefix: true), room) == ["old1"])
            #expect(try await Self.find(store, Self.word("marm", prefix: true), room) == ["old1"])
        }
    }
}
