import Foundation
import PostgresNIO

/// A family's days on PostgreSQL: which were announced, and its posts on this day in earlier years.
extension PostgresStore {
    public func claimFamilyDay(_ familyID: Int64, day: String, now: Date) async throws -> Bool {
        // The primary key makes the first insert of the day the only one, whichever node runs it.
        !(try await rows(
            """
            INSERT INTO familyAnnouncement (familyId, day, announcedAt) VALUES (\(familyID), \(day), \(now))
            ON CONFLICT DO NOTHING RETURNING 1
            """
        )).isEmpty
    }

    public func familyPostsOnThisDay(_ familyID: Int64, monthDay: String, year: Int, limit: Int) async throws
        -> [(Stored<FamilyPost>, String)]
    {
        try await rows(
            """
            SELECT \(unescaped: Self.qualified(Self.postColumns, "familyPost")), account.name FROM familyPost
            JOIN account ON account.id = familyPost.accountId
            WHERE familyId = \(familyID) AND (
              (eventDate IS NOT NULL AND substr(eventDate, 6, 5) = \(monthDay)
                AND substr(eventDate, 1, 4)::int < \(Int64(year)))
              OR (kind <> 'event' AND to_char(familyPost.createdAt AT TIME ZONE 'UTC', 'MM-DD') = \(monthDay)
                AND extract(year FROM familyPost.createdAt AT TIME ZONE 'UTC') < \(Int64(year))))
            ORDER BY familyPost.id LIMIT \(Int64(limit))
            """
        ).map { row in (try Self.post(row), try row.makeRandomAccess()[10].decode(String.self)) }
    }
}
