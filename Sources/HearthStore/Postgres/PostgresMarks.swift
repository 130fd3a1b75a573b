import Foundation
import PostgresNIO

/// The one shape of every statement that marks a thing (a like, a favourite, a vote, a comment)
/// or takes the mark back and moves the thing's counts by what changed. Its row locks come in the
/// order account deletion takes them too (`deleteAccount`): the marking account's row first (FOR
/// KEY SHARE: a mark waits while its account is being deleted and then finds it gone, and a
/// deletion waits for the marks under way), then the thing's row, then the mark's. Taken in
/// other orders, a like counted meanwhile went with its account uncounted (the meme kept one too
/// many), and an unlike and the deletion each held the row the other needed next (a deadlock).
extension PostgresStore {
    struct MarkStatement {
        /// The thing's table: meme, recipe or familyPost.
        var table: String
        /// The marks' CTEs, after `me` (the account's row, locked) and `target` (the thing's,
        /// locked; empty when there is no such thing).
        var changes: String
        /// The SET list of `counted`, the thing's row moved by what changed.
        var counts: String
        /// What the statement answers after whether the account is there.
        var answer: String
    }

    /// Runs `mark` with $1 the account, $2 the thing and the rest of `binds` as `changes` uses
    /// them; the row it answers. Throws `StoreError.notFound` when the account is gone.
    func mark(_ mark: MarkStatement, _ binds: PostgresBindings) async throws -> PostgresRandomAccessRow {
        let sql = """
            WITH me AS MATERIALIZED (SELECT id FROM account WHERE id = $1 FOR KEY SHARE),
            target AS MATERIALIZED (
              SELECT id FROM \(mark.table) WHERE id = $2 AND EXISTS (SELECT 1 FROM me) FOR NO KEY UPDATE),
            \(mark.changes),
            counted AS (
              UPDATE \(mark.table) SET \(mark.counts) WHERE id = $2 AND EXISTS (SELECT 1 FROM target) RETURNING *)
            SELECT EXISTS (SELECT 1 FROM me), \(mark.answer)
            """
        let row = try await rows(PostgresQuery(unsafeSQL: sql, binds: binds))[0].makeRandomAccess()
        guard try row[0].decode(Bool.self) else { throw StoreError.notFound }
        return row
    }

    /// The binds every mark starts with.
    static func markBinds(account: Int64, target: Int64) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(account)
        binds.append(target)
        return binds
    }
}
