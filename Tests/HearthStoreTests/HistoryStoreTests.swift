import Foundation
import HearthStore
import HearthTesting
import Testing

/// History windows, incarnations, redaction, expiry and read markers, the same on every engine.
@Suite struct HistoryStoreTests {
    static func line(_ target: String, _ n: Int, at: Date, account: Int64? = nil) -> HistoryRecord {
        HistoryRecord(
            target: target, msgid: "m\(n)", source: "ann!ann@host", accountID: account, command: "PRIVMSG",
            text: "line \(n)", createdAt: at)
    }

    @Test(arguments: Engine.allCases)
    func windowsByMsgidAndTime(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let lines = (1...10).map {
                Self.line("#room", $0, at: start + Double($0), account: $0 % 2 == 0 ? ann : nil)
            }
            try await store.appendHistory(lines + [Self.line("#other", 99, at: start)])
            #expect(try await store.latestHistory(targets: ["#room"], limit: 3).map(\.msgid) == ["m8", "m9", "m10"])
            #expect(try await store.latestHistory(targets: ["#room"], limit: 3).last?.accountID == ann)
            let before = try await store.history(
                targets: ["#room"], after: nil, before: .msgid("m5"), limit: 2, newestFirst: true)
            #expect(before.map(\.msgid) == ["m3", "m4"])
            let after = try await store.history(
                targets: ["#room"], after: .msgid("m5"), before: nil, limit: 2, newestFirst: false)
            #expect(after.map(\.msgid) == ["m6", "m7"])
            let including = try await store.history(
                targets: ["#room"], after: .msgid("m5"), before: nil, limit: 1, newestFirst: false,
                includeAfter: true)
            #expect(including.map(\.msgid) == ["m5"])
            let between = try await store.history(
                targets: ["#room"], after: .time(start + 2), before: .time(start + 5), limit: 10, newestFirst: false)
            #expect(between.map(\.msgid) == ["m3", "m4"])
            #expect(
                try await store.history(
                    targets: ["#room"], after: .msgid("nope"), before: nil, limit: 5, newestFirst: false
                ).isEmpty)

            #expect(try await store.historyMessage(targets: ["#room"], msgid: "m4")?.text == "line 4")
            try await store.deleteHistoryMessage(targets: ["#room"], msgid: "m4")
            #expect(try await store.historyMessage(targets: ["#room"], msgid: "m4") == nil)

            // By each target's latest message, earliest first, strictly inside the span.
            let targets = try await store.historyTargets(
                channels: ["#room", "#other"], accountID: nil, from: start - 1, to: start + 100, limit: 10)
            #expect(targets.map(\.target) == ["#other", "#room"])
            let later = try await store.historyTargets(
                channels: ["#room", "#other"], accountID: nil, from: start, to: start + 10, limit: 10)
            #expect(later.isEmpty)

            #expect(try await store.expireHistory(olderThan: 1, now: start + 86_400 + 5.5) == 5)
            #expect(
                try await store.latestHistory(targets: ["#room"], limit: 10).map(\.msgid) == [
                    "m6", "m7", "m8", "m9", "m10",
                ])
        }
    }

    @Test(arguments: Engine.allCases)
    func incarnationsAreReadOnlyByThoseGrantedAndMarkersOnlyMoveForward(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            let bob = try await AccountStoreTests.make(store, "bob").id
            let now = Date()
            try await store.appendHistory(
                [Self.line("#room a1", 1, at: now)], access: [HistoryAccess(target: "#room a1", accountID: ann)])
            try await store.appendHistory([], access: [HistoryAccess(target: "#room a1", accountID: 424_242)])  // gone
            #expect(
                try await store.readableHistoryTargets(channel: "#room", current: "#room b2", accountID: ann)
                    == ["#room b2", "#room a1"])
            #expect(
                try await store.readableHistoryTargets(channel: "#room", current: "#room b2", accountID: bob)
                    == ["#room b2"])
            #expect(
                try await store.readableHistoryTargets(channel: "#roo", current: "#roo c3", accountID: ann)
                    == ["#roo c3"])

            try await store.appendHistory([Self.line("#reg", 2, at: now)])
            try await store.retireHistory(
                target: "#reg", to: "#reg old", access: [HistoryAccess(target: "#reg old", accountID: bob)])
            #expect(try await store.latestHistory(targets: ["#reg"], limit: 5).isEmpty)
            #expect(
                try await store.readableHistoryTargets(channel: "#reg", current: "#reg", accountID: bob)
                    == ["#reg", "#reg old"])

            #expect(try await store.readMarker(accountID: ann, target: "#room") == nil)
            let later = try await store.advanceReadMarker(accountID: ann, target: "#room", to: now + 10)
            let kept = try await store.advanceReadMarker(accountID: ann, target: "#room", to: now)
            #expect(abs(kept.timeIntervalSince(later)) < 0.01 && abs(later.timeIntervalSince(now + 10)) < 0.01)
        }
    }

    /// Client-only tags come back as written; redacting a message takes the reactions and edits
    /// that act on it, not the replies to it (those are messages of their own).
    @Test(arguments: Engine.allCases)
    func tagsAndWhatActsOnAMessage(engine: Engine) async throws {
        try await engine.withStore { store in
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            func line(_ msgid: String, _ command: String, ref: String?, tags: String = "") -> HistoryRecord {
                HistoryRecord(
                    target: "#room", msgid: msgid, source: "bob!b@h", command: command, text: "t \(msgid)",
                    createdAt: at, tags: tags, refMsgid: ref)
            }
            try await store.appendHistory([
                line("a", "PRIVMSG", ref: nil),
                line("react", "TAGMSG", ref: "a", tags: "+draft/react=👍;+draft/reply=a"),
                line("reply", "PRIVMSG", ref: "a", tags: "+draft/reply=a"),
                line("edit", "EDIT", ref: "a"),
                line("other", "TAGMSG", ref: "b", tags: "+draft/react=x;+draft/reply=b"),
            ])
            let all = try await store.latestHistory(targets: ["#room"], limit: 10)
            #expect(all.map(\.msgid) == ["a", "react", "reply", "edit", "other"])
            #expect(all[1].tags == "+draft/react=👍;+draft/reply=a" && all[1].refMsgid == "a")
            #expect(all[0].tags == "" && all[0].refMsgid == nil)
            try await store.deleteHistoryMessage(targets: ["#room"], msgid: "a")
            #expect(try await store.latestHistory(targets: ["#room"], limit: 10).map(\.msgid) == ["reply", "other"])
        }
    }

    /// A batch as large as a busy server writes (PostgreSQL writes it in several transactions at
    /// once) comes back in its own order, whatever the lines' times.
    @Test(arguments: Engine.allCases)
    func aLargeBatchKeepsItsOrder(engine: Engine) async throws {
        try await engine.withStore { store in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let lines = (1...1_201).map { Self.line("#big", $0, at: start + Double($0 % 7)) }
            try await store.appendHistory(lines)
            let back = try await store.history(
                targets: ["#big"], after: nil, before: nil, limit: 2_000, newestFirst: false)
            #expect(back.map(\.msgid) == lines.map(\.msgid))
            let after = try await store.history(
                targets: ["#big"], after: .msgid("m600"), before: nil, limit: 2, newestFirst: false)
            #expect(after.map(\.msgid) == ["m601", "m602"])
        }
    }

    /// A line PostgreSQL refuses (a NUL character) in either part of a large batch leaves none of
    /// the batch written: the parts commit together or not at all.
    @Test(arguments: [100, 1_100])
    func aLargeBatchIsWrittenWholeOrNotAtAll(refused: Int) async throws {
        try await Engine.postgres.withStore { store in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            var lines = (1...1_200).map { Self.line("#big", $0, at: start) }
            lines[refused].text = "a NUL \u{0} here"
            let error = await #expect(throws: (any Error).self) { try await store.appendHistory(lines) }
            // The database's reason, not the other part's giving up.
            #expect(String(describing: error).contains("PostgreSQL"), "\(String(describing: error))")
            #expect(try await store.latestHistory(targets: ["#big"], limit: 10).isEmpty)
            lines[refused].text = "fine"
            try await store.appendHistory(lines)
            #expect(try await store.latestHistory(targets: ["#big"], limit: 2_000).count == 1_200)
        }
    }

    /// With one connection (`--database-pool 1`) a large batch is written in one transaction: two
    /// parts waiting for each other would wait for the one connection until the deadline, every time.
    @Test func aLargeBatchOnOneConnectionIsWritten() async throws {
        let url = try await TestPostgres.freshDatabase("onepool")
        let store = try await PostgresStore.open(url, poolSize: 1, operationTimeout: Engine.crowdedTimeout)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let lines = (1...600).map { Self.line("#big", $0, at: start) }
        do {
            try await store.appendHistory(lines)
            #expect(try await store.latestHistory(targets: ["#big"], limit: 1_000).map(\.msgid) == lines.map(\.msgid))
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
