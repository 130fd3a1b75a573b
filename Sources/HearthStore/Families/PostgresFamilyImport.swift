import Foundation
import PostgresNIO

/// A file's people and ties on PostgreSQL (see `FamilyImport`): one transaction under the
/// family's row lock (as a single link or person takes it), a handful of statements however
/// large the file. The people's numbers are taken from their sequence first, so each row's
/// number is known without relying on the order rows come back in; rows go in as arrays
/// (`unnest`, whose arrays hold no NULLs here: an empty text stands for none, `FamilyImport.text`).
extension PostgresStore {
    public func importFamily(
        _ familyID: Int64, people file: [FamilyImport.Person], ties: [FamilyImport.Tie], by accountID: Int64?,
        now: Date
    ) async throws -> FamilyImport.Outcome {
        try await transaction { db in
            let logger = self.logger
            let family = try await db.rows("SELECT 1 FROM family WHERE id = \(familyID) FOR UPDATE", logger)
            guard !family.isEmpty else { throw FamilyError.notFound }
            let people = try await db.rows(
                "SELECT \(unescaped: Self.personColumns) FROM familyPerson WHERE familyId = \(familyID) ORDER BY id",
                logger
            ).map(Self.person)
            var plan = try FamilyImport.Plan(
                file, familyID: familyID, members: try await Self.members(db, familyID, logger), people: people,
                by: accountID, now: now)
            plan.added(try await Self.insert(db, plan.rows, logger))
            let (links, outcome) = try await plan.links(
                ties, after: try await db.rows(Self.linksQuery(familyID), logger).compactMap(Self.link))
            for batch in Self.batches(links) { try await Self.insert(db, familyID, batch, logger) }
            return outcome
        }
    }

    static func batches<T>(_ rows: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: rows.count, by: FamilyImport.batchRows).map {
            rows[$0..<min(rows.count, $0 + FamilyImport.batchRows)]
        }
    }

    /// Inserts people (of one family) and returns their numbers, in their order.
    static func insert(_ db: PostgresConnection, _ people: [FamilyPerson], _ logger: Logger) async throws -> [Int64] {
        guard let first = people.first else { return [] }
        let numbers = try await db.rows(
            """
            SELECT nextval(pg_get_serial_sequence('familyperson', 'id')) FROM generate_series(1, \(people.count))
            """, logger
        ).map { try $0.decode(Int64.self) }
        for batch in batches(Array(zip(numbers, people))) {
            func texts(_ field: (FamilyPerson) -> String?) -> [String] { batch.map { field($0.1) ?? "" } }
            try await db.query(
                """
                INSERT INTO familyPerson (
                  id, familyId, name, sex, born, bornPlace, died, diedPlace, addedBy, createdAt)
                SELECT i, \(first.familyId), n, NULLIF(s, ''), NULLIF(b, ''), NULLIF(bp, ''), NULLIF(d, ''),
                  NULLIF(dp, ''), \(first.addedBy), \(first.createdAt)
                FROM unnest(
                  \(batch.map { $0.0 })::bigint[], \(batch.map { $0.1.name })::text[], \(texts(\.sex))::text[],
                  \(texts(\.born))::text[], \(texts(\.bornPlace))::text[], \(texts(\.died))::text[],
                  \(texts(\.diedPlace))::text[]
                ) AS u(i, n, s, b, bp, d, dp)
                """, logger: logger)
        }
        return numbers
    }

    /// Inserts links `FamilyRules.link` decided on, each once (ON CONFLICT may touch a row once
    /// per statement); a link there already takes the new date and place, as a single link does.
    static func insert(
        _ db: PostgresConnection, _ familyID: Int64, _ links: ArraySlice<FamilyLink>, _ logger: Logger
    ) async throws {
        try await db.query(
            """
            INSERT INTO familyLink AS l (familyId, fromId, toId, kind, eventDate, eventPlace)
            SELECT \(familyID), f, t, k, NULLIF(d, ''), NULLIF(p, '')
            FROM unnest(
              \(links.map(\.from))::bigint[], \(links.map(\.to))::bigint[], \(links.map(\.kind.rawValue))::text[],
              \(links.map { $0.date ?? "" })::text[], \(links.map { $0.place ?? "" })::text[]
            ) AS u(f, t, k, d, p)
            ON CONFLICT (familyId, fromId, toId, kind) DO UPDATE SET
              eventDate = COALESCE(excluded.eventDate, l.eventDate),
              eventPlace = COALESCE(excluded.eventPlace, l.eventPlace)
            """, logger: logger)
    }
}
