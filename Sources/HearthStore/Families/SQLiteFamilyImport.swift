import Foundation
import GRDB

/// A file's people and ties on SQLite (see `FamilyImport`): one write transaction, in which
/// SQLite's single writer keeps the family as it was read; rows go through prepared statements
/// (no round trips to save here).
extension SQLiteStore {
    public func importFamily(
        _ familyID: Int64, people file: [FamilyImport.Person], ties: [FamilyImport.Tie], by accountID: Int64?,
        now: Date
    ) async throws -> FamilyImport.Outcome {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM family WHERE id = ?", arguments: [familyID]) != nil
            else { throw FamilyError.notFound }
            let (members, people) = (try Self.members(db, familyID), try Self.people(db, familyID))
            var plan = try FamilyImport.Plan(
                file, familyID: familyID, members: members, people: people, by: accountID, now: now)
            plan.added(try plan.rows.map { try Self.insert(db, $0) })
            let (links, outcome) = try plan.links(ties, after: try Self.links(db, familyID))
            for link in links { try Self.store(db, familyID, link) }
            return outcome
        }
    }
}
