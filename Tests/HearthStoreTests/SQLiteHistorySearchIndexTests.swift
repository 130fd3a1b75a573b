import Foundation
import GRDB
import HearthTesting
import Testing

@testable import HearthStore

/// SQLite's search index of history is written by `appendHistory`, a batch in one statement, no
/// longer by a trigger per row (v40: FTS5 wrote a segment per line). What it holds must be what the
/// index rebuilt from the rows holds, through writes, a retired channel and a deletion.
@Suite struct SQLiteHistorySearchIndexTests {
    @Test func theIndexHoldsWhatARebuildFromTheRowsHolds() async throws {
        let store = try SQLiteStore(dataDirectory: TestServer.tempDirectory())
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        func line(_ target: String, _ msgid: String, _ command: String, _ text: String) -> HistoryRecord {
            HistoryRecord(target: target, msgid: msgid, source: "ann!a@h", command: command, text: text, createdAt: at)
        }
        try await store.appendHistory([
            line("#room", "a", "PRIVMSG", "remember the marmalade"), line("#room", "b", "TAGMSG", ""),
            line("pm:1:2", "c", "NOTICE", "soup at noon"), line("#room", "d", "TOPIC", "not searched"),
        ])
        try await store.appendHistory([line("#other", "e", "PRIVMSG", "marmalade again")])
        try await store.appendHistory([])
        try await store.retireHistory(target: "#other", to: "#other 1x", access: [])
        let (written, rebuilt, triggers) = try store.pool.write { db in
            try db.execute(sql: "DELETE FROM history WHERE msgid = 'c'")
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.entries USING fts5vocab(main, historySearch, instance)")
            let sql = "SELECT term, doc, col, offset FROM temp.entries ORDER BY doc, col, offset, term"
            let written = try Row.fetchAll(db, sql: sql)
            try db.execute(sql: "INSERT INTO historySearch (historySearch) VALUES ('rebuild')")
            let triggers = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'history' ORDER BY name")
            return (written, try Row.fetchAll(db, sql: sql), triggers)
        }
        #expect(!written.isEmpty)
        #expect(written == rebuilt)
        #expect(Set(written.map { $0["doc"] as Int64 }) == [1, 5])
        // Deleting and changing a line still goes through the index's triggers; adding one does not.
        #expect(triggers == ["historySearch_delete", "historySearch_reindex", "historySearch_unindex"])
    }
}
