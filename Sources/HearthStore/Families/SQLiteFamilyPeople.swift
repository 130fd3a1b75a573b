import Foundation
import GRDB

/// People who are not users on SQLite (see `FamilyPerson`).
extension SQLiteStore {
    static let personColumns =
        "id, familyId, name, born, bornPlace, died, diedPlace, accountId, claimantId, addedBy, createdAt, sex"

    static func person(_ row: Row) -> FamilyPerson {
        FamilyPerson(
            id: row[0], familyId: row[1], name: row[2], sex: row[11], born: row[3], bornPlace: row[4], died: row[5],
            diedPlace: row[6], accountId: row[7], claimantId: row[8], addedBy: row[9], createdAt: row[10])
    }

    public func addFamilyPerson(_ person: FamilyPerson) async throws -> FamilyPerson {
        try await pool.write { db in
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM familyPerson WHERE familyId = ?", arguments: [person.familyId]) ?? 0
            try FamilyPersonRules.checkAdding(count: count)
            var added = person
            added.id = try Self.insert(db, person)
            return added
        }
    }

    /// Writes a person's row (through one prepared statement, reused by an import's rows) and
    /// returns its number.
    static func insert(_ db: Database, _ person: FamilyPerson) throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO familyPerson (
                  familyId, name, born, bornPlace, died, diedPlace, addedBy, createdAt, sex, accountId)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            person.familyId, person.name, person.born, person.bornPlace, person.died, person.diedPlace,
            person.addedBy, person.createdAt, person.sex, person.accountId,
        ])
        return db.lastInsertedRowID
    }

    static func people(_ db: Database, _ familyID: Int64) throws -> [FamilyPerson] {
        try Row.fetchAll(
            db, sql: "SELECT \(Self.personColumns) FROM familyPerson WHERE familyId = ? ORDER BY id",
            arguments: [familyID]
        ).map(Self.person)
    }

    public func familyPeople(_ familyID: Int64) async throws -> [FamilyPerson] {
        try await pool.read { db in try Self.people(db, familyID) }
    }

    public func updateFamilyPerson(_ person: FamilyPerson) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE familyPerson
                    SET name = ?, sex = ?, born = ?, bornPlace = ?, died = ?, diedPlace = ?, claimantId = ?
                    WHERE id = ? AND familyId = ?
                    """,
                arguments: [
                    person.name, person.sex, person.born, person.bornPlace, person.died, person.diedPlace,
                    person.claimantId,
                    person.id, person.familyId,
                ])
        }
    }

    public func removeFamilyPerson(id: Int64, familyID: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM familyPerson WHERE id = ? AND familyId = ? AND accountId IS NULL",
                arguments: [id, familyID])
            guard db.changesCount == 1 else { return false }
            try db.execute(
                sql: "DELETE FROM familyLink WHERE familyId = ? AND (fromId = ? OR toId = ?)",
                arguments: [familyID, -id, -id])
            return true
        }
    }

    public func claimFamilyPerson(id: Int64, familyID: Int64, accountID: Int64) async throws {
        try await pool.write { db in
            guard
                let person = try Row.fetchOne(
                    db, sql: "SELECT \(Self.personColumns) FROM familyPerson WHERE id = ? AND familyId = ?",
                    arguments: [id, familyID]
                ).map(Self.person)
            else { throw FamilyError.notFound }
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM familyMember WHERE familyId = ? AND accountId = ?",
                    arguments: [familyID, accountID]) != nil
            else { throw FamilyError.notMember }
            let isAPerson =
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM familyPerson WHERE familyId = ? AND accountId = ?",
                    arguments: [familyID, accountID]) != nil
            try FamilyPersonRules.checkClaim(person: person, accountIsAPerson: isAPerson)
            let moved = FamilyPersonRules.moved(try Self.links(db, familyID), from: person.treeID, to: accountID)
            try db.execute(
                sql: "DELETE FROM familyLink WHERE familyId = ? AND (fromId = ? OR toId = ?)",
                arguments: [familyID, person.treeID, person.treeID])
            try db.execute(
                sql: "UPDATE familyPerson SET accountId = ?, claimantId = NULL WHERE id = ?",
                arguments: [accountID, id])
            for link in moved {
                try Self.link(
                    db, familyID, from: link.from, to: link.to, kind: link.kind, date: link.date, place: link.place)
            }
        }
    }

    /// A member leaves the family's tree (they left, were removed or deleted their account):
    /// when relatives are linked to them, they stay in the tree as a person who is not a user
    /// (the one they had claimed, or a new one with their name), so the others' ties hold.
    static func detach(_ db: Database, _ familyID: Int64, accountID: Int64) throws {
        try db.execute(
            sql: "UPDATE familyPerson SET claimantId = NULL WHERE familyId = ? AND claimantId = ?",
            arguments: [familyID, accountID])
        let linked =
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM familyLink WHERE familyId = ? AND (fromId = ? OR toId = ?) LIMIT 1",
                arguments: [familyID, accountID, accountID]) != nil
        var personID = try Int64.fetchOne(
            db, sql: "SELECT id FROM familyPerson WHERE familyId = ? AND accountId = ?",
            arguments: [familyID, accountID])
        if personID == nil, linked {
            try db.execute(
                sql: """
                    INSERT INTO familyPerson (familyId, name, createdAt)
                    SELECT ?, name, ? FROM account WHERE id = ?
                    """, arguments: [familyID, Date(), accountID])
            personID = db.lastInsertedRowID
        }
        try db.execute(
            sql: "UPDATE familyPerson SET accountId = NULL WHERE familyId = ? AND accountId = ?",
            arguments: [familyID, accountID])
        guard let personID else { return }
        try db.execute(
            sql: "UPDATE familyLink SET fromId = ? WHERE familyId = ? AND fromId = ?",
            arguments: [-personID, familyID, accountID])
        try db.execute(
            sql: "UPDATE familyLink SET toId = ? WHERE familyId = ? AND toId = ?",
            arguments: [-personID, familyID, accountID])
    }
}
