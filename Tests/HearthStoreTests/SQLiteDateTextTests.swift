import Foundation
import GRDB
import HearthTesting
import Testing

@testable import HearthStore

/// The history writer's hand-written date text is GRDB's `DateFormatter` text, and a row it
/// writes holds what GRDB's own arguments wrote.
@Suite struct SQLiteDateTextTests {
    /// What GRDB stores for a date (its `DateFormatter`).
    static func grdb(_ date: Date) -> String? { String.fromDatabaseValue(date.databaseValue) }

    @Test func sameTextAsGRDBOverManyInstants() {
        var generator = SystemRandomNumberGenerator()
        var dates: [Date] = []
        // Whole, fractional and sub-millisecond instants from 1970 to the end of 9999.
        for _ in 0..<200_000 {
            let seconds = Double.random(in: 0..<253_402_300_800, using: &generator)
            dates.append(Date(timeIntervalSince1970: seconds))
            dates.append(Date(timeIntervalSince1970: seconds.rounded(.down)))
            dates.append(Date(timeIntervalSince1970: (seconds * 1000).rounded(.down) / 1000))
        }
        // Near now, where history lives: a fresh random sub-millisecond part each.
        for _ in 0..<100_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: 1.7e9..<1.9e9, using: &generator)))
        }
        // Day, month and year edges (leap days, century years), a millisecond either side.
        for year in [1970, 1972, 1999, 2000, 2024, 2026, 2038, 2100, 2400, 9999] {
            for (month, day) in [(1, 1), (2, 28), (2, 29), (3, 1), (12, 31)] {
                let components = DateComponents(
                    calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(secondsFromGMT: 0),
                    year: year, month: month, day: day)
                guard let midnight = components.date else { continue }
                for offset in [-0.001, -0.0005, 0, 0.0005, 0.001, 0.999, 86_399.999] {
                    dates.append(midnight + offset)
                }
            }
        }
        // Outside the hand-written range: GRDB's own text.
        dates += [-1, -0.0005, -86_400 * 365.25 * 500, 253_402_300_800, 253_402_300_800 * 4].map {
            Date(timeIntervalSince1970: $0)
        }
        dates += [.distantPast, .distantFuture]
        let wrong = dates.filter { SQLiteDateText.text($0) != Self.grdb($0) }
        let shown = wrong.prefix(8).map {
            "\($0.timeIntervalSince1970): \(SQLiteDateText.text($0)) \(Self.grdb($0) ?? "-")"
        }
        #expect(wrong.count == 0, "of \(dates.count): \(shown)")
        #expect(SQLiteDateText.text(Date(timeIntervalSince1970: 951_782_400.0127)) == "2000-02-29 00:00:00.013")
    }

    @Test func rowsHoldWhatGRDBArgumentsWrote() async throws {
        let store = try SQLiteStore(dataDirectory: TestServer.tempDirectory())
        let ann = try await AccountStoreTests.make(store, "ann").id
        let at = Date(timeIntervalSince1970: 1_795_000_000.123_456)
        let records = [
            HistoryRecord(target: "#room", msgid: "a", source: "ann!a@h", command: "PRIVMSG", text: "", createdAt: at),
            HistoryRecord(
                target: "#room", msgid: "b", source: "ann!a@h", accountID: ann, command: "TAGMSG", text: "soup 🍲",
                createdAt: .distantPast, tags: "+draft/react=👍", refMsgid: "a"),
            // An account deleted meanwhile is kept as none.
            HistoryRecord(
                target: "#room", msgid: "c", source: "bob!b@h", accountID: 9_999, command: "NOTICE", text: "x\u{0}y",
                createdAt: at),
        ]
        try await store.appendHistory(records)
        let columns = "target, msgid, source, accountId, command, text, createdAt, tags, refMsgid"
        let rows = try await store.pool.write { db in
            let written = try Row.fetchAll(db, sql: "SELECT \(columns) FROM history ORDER BY id")
            try db.execute(sql: "DELETE FROM history")
            for record in records {
                try db.execute(
                    sql: "INSERT INTO history (\(columns)) VALUES (?, ?, ?, (SELECT id FROM account WHERE id = ?), "
                        + "?, ?, ?, ?, ?)",
                    arguments: [
                        record.target, record.msgid, record.source, record.accountID, record.command, record.text,
                        record.createdAt, record.tags, record.refMsgid,
                    ])
            }
            return (written, try Row.fetchAll(db, sql: "SELECT \(columns) FROM history ORDER BY id"))
        }
        #expect(rows.0 == rows.1)
        #expect(rows.0.count == 3)
        #expect(rows.0.first?["tags"] == "".databaseValue)
    }
}
