import Foundation
import GRDB
import GRDBSQLite

/// One history row bound straight to SQLite: the history writer runs this for every line said,
/// and GRDB's `StatementArguments` (an array of existentials per row) and its `DateFormatter`
/// for `createdAt` were most of that writer's own CPU. The values stored are GRDB's: the same
/// text for the date (`SQLiteDateText`), NULL for a missing account or reference.
enum SQLiteHistoryInsert {
    /// Runs `statement` (the columns of `appendHistory`'s INSERT, in order) for `record`.
    static func insert(_ record: HistoryRecord, with statement: Statement, in db: Database) throws {
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        var code = bindText(raw, 1, record.target)
        code = code == SQLITE_OK ? bindText(raw, 2, record.msgid) : code
        code = code == SQLITE_OK ? bindText(raw, 3, record.source) : code
        if code == SQLITE_OK {
            code = record.accountID.map { sqlite3_bind_int64(raw, 4, $0) } ?? sqlite3_bind_null(raw, 4)
        }
        code = code == SQLITE_OK ? bindText(raw, 5, record.command) : code
        code = code == SQLITE_OK ? bindText(raw, 6, record.text) : code
        if code == SQLITE_OK {
            code = SQLiteDateText.withText(record.createdAt) { bindBytes(raw, 7, $0) }
        }
        code = code == SQLITE_OK ? bindText(raw, 8, record.tags) : code
        if code == SQLITE_OK {
            code = record.refMsgid.map { bindText(raw, 9, $0) } ?? sqlite3_bind_null(raw, 9)
        }
        if code == SQLITE_OK { code = sqlite3_step(raw) }
        // Reset at once so the statement holds nothing between rows or after the batch.
        sqlite3_reset(raw)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    /// SQLite copies what it is given (SQLITE_TRANSIENT) before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// As GRDB binds a `String`: up to its first NUL (a native string's C form is not a copy).
    private static func bindText(_ raw: SQLiteStatement, _ index: Int32, _ text: String) -> Int32 {
        text.withCString { sqlite3_bind_text(raw, index, $0, -1, transient) }
    }

    /// The date's text (never empty, no NUL), by its length.
    private static func bindBytes(_ raw: SQLiteStatement, _ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32
    {
        guard let start = bytes.baseAddress else { return sqlite3_bind_text(raw, index, "", 0, transient) }
        return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text(raw, index, $0, Int32(bytes.count), transient)
        }
    }
}
