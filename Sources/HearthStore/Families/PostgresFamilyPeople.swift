import Foundation
import PostgresNIO

/// People who are not users on PostgreSQL (see `FamilyPerson`). The family's row is locked
/// while its people are counted or a claim moves links, as links are changed under it.
extension PostgresStore {
    static let personColumns =
        "id, familyId, name, born, bornPlace, died, diedPlace, accountId, claimantId, addedBy, createdAt, sex"

    static func person(_ row: PostgresRow) throws -> FamilyPerson {
        let (id, familyId, name, born, bornPlace, died, diedPlace, accountId, claimantId, addedBy, createdAt, sex) =
            try row.decode(
                (Int64, Int64, String, String?, String?, String?, String?, Int64?, Int64?, Int64?, Date, String?).self)
        return FamilyPerson(
            id: id, familyId: familyId, name: name, sex: sex, born: born, bornPlace: bornPlace, died: died,
            diedPlace: diedPlace, accountId: accountId, claimantId: claimantId, addedBy: addedBy, createdAt: createdAt)
    }

    public func addFamilyPerson(_ person: FamilyPerson) async throws -> FamilyPerson {
        try await transaction { db in
            try await db.query("SELECT 1 FROM family WHERE id = \(person.familyId) FOR UPDATE", logger: self.logger)
            let count = try await db.rows(
                "SELECT COUNT(*) FROM familyPerson WHERE familyId = \(person.familyId)", self.logger)[0].decode(
                    Int64.self)
            try FamilyPersonRules.checkAdding(count: Int(count))
            var added = person
            added.id = try await db.rows(
                """
                INSERT INTO familyPerson (
                      familyId, name, born, bornPlace, died, diedPlace, addedBy, createdAt, sex, accountId)
                VALUES (\(person.familyId), \(person.name), \(person.born), \(person.bornPlace), \(person.died),
                  \(person.diedPlace), \(person.addedBy), \(person.createdAt), \(person.sex),
                  \(person.accountId))
                RETURNING id
                """, self.logger)[0].decode(Int64.self)
            return added
        }
    }

    public func familyPeople(_ familyID: Int64) async throws -> [FamilyPerson] {
        try await rows(
            "SELECT \(unescaped: Self.personColumns) FROM familyPerson WHERE familyId = \(familyID) ORDER BY id"
        ).map(Self.person)
    }

    public func updateFamilyPerson(_ person: FamilyPerson) async throws {
        _ = try await rows(
            """
            UPDATE familyPerson SET name = \(person.name), sex = \(person.sex), born = \(person.born),
              bornPlace = \(person.bornPlace),
              died = \(person.died), diedPlace = \(person.diedPlace), claimantId = \(person.claimantId)
            WHERE id = \(person.id) AND familyId = \(person.familyId)
            """)
    }

    public func removeFamilyPerson(id: Int64, familyID: Int64) async throws -> Bool {
        try await transaction { db in
            try await db.query("SELECT 1 FROM family WHERE id = \(familyID) FOR UPDATE", logger: self.logger)
            let removed = try await db.rows(
                """
                DELETE FROM familyPerson WHERE id = \(id) AND familyId = \(familyID) AND accountId IS NULL RETURNING 1
                """, self.logger)
            guard !removed.isEmpty else { return false }
            try await db.query(
                "DELETE FROM familyLink WHERE familyId = \(familyID) AND (fromId = \(-id) OR toId = \(-id))",
                logger: self.logger)
            return true
        }
    }

    public func claimFamilyPerson(id: Int64, familyID: Int64, accountID: Int64) async throws {
        try await transaction { db in
            try await db.query("SELECT 1 FROM family WHERE id = \(familyID) FOR UPDATE", logger: self.logger)
            guard
                let person = try await db.rows(
                    """
                    SELECT \(unescaped: Self.personColumns) FROM familyPerson
                    WHERE id = \(id) AND familyId = \(familyID)
                    """, self.logger
                ).first.map(Self.person)
            else { throw FamilyError.notFound }
            let member = try await db.rows(
                "SELECT 1 FROM familyMember WHERE familyId = \(familyID) AND accountId = \(accountID)", self.logger)
            guard !member.isEmpty else { throw FamilyError.notMember }
            let isAPerson = try await db.rows(
                "SELECT 1 FROM familyPerson WHERE familyId = \(familyID) AND accountId = \(accountID)", self.logger)
            try FamilyPersonRules.checkClaim(person: person, accountIsAPerson: !isAPerson.isEmpty)
            let links = try await db.rows(Self.linksQuery(familyID), self.logger).compactMap(Self.link)
            let moved = FamilyPersonRules.moved(links, from: person.treeID, to: accountID)
            let old = person.treeID
            try await db.query(
                "DELETE FROM familyLink WHERE familyId = \(familyID) AND (fromId = \(old) OR toId = \(old))",
                logger: self.logger)
            try await db.query(
                "UPDATE familyPerson SET accountId = \(accountID), claimantId = NULL WHERE id = \(id)",
                logger: self.logger)
            for link in moved {
                try await Self.link(
                    db, familyID, from: link.from, to: link.to, kind: link.kind, date: link.date, place: link.place,
                    self.logger)
            }
        }
    }

    /// A member leaves the family's tree (they left, were removed or deleted their account):
    /// when relatives are linked to them, they stay in the tree as a person who is not a user
    /// (the one they had claimed, or a new one with their name), so the others' ties hold.
    static func detach(_ db: PostgresConnection, _ familyID: Int64, accountID: Int64, _ logger: Logger) async throws {
        try await db.query(
            "UPDATE familyPerson SET claimantId = NULL WHERE familyId = \(familyID) AND claimantId = \(accountID)",
            logger: logger)
        let linked = try await db.rows(
            """
            SELECT 1 FROM familyLink WHERE familyId = \(familyID) AND (fromId = \(accountID) OR toId = \(accountID))
            LIMIT 1
            """, logger)
        var personID = try await db.rows(
            "SELECT id FROM familyPerson WHERE familyId = \(familyID) AND accountId = \(accountID)", logger
        ).first?.decode(Int64.self)
        if personID == nil, !linked.isEmpty {
            personID = try await db.rows(
                """
                INSERT INTO familyPerson (familyId, name, createdAt)
                SELECT \(familyID), name, \(Date()) FROM account WHERE id = \(accountID) RETURNING id
                """, logger
            ).first?.decode(Int64.self)
        }
        try await db.query(
            "UPDATE familyPerson SET accountId = NULL WHERE familyId = \(familyID) AND accountId = \(accountID)",
            logger: logger)
        guard let personID else { return }
        try await db.query(
            "UPDATE familyLink SET fromId = \(-personID) WHERE familyId = \(familyID) AND fromId = \(accountID)",
            logger: logger)
        try await db.query(
            "UPDATE familyLink SET toId = \(-personID) WHERE familyId = \(familyID) AND toId = \(accountID)",
            logger: logger)
    }
}
