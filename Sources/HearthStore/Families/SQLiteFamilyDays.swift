import Foundation
import GRDB

/// A family's days on SQLite: which were announced, and its posts on this day in earlier years.
extension SQLiteStore {
    public func claimFamilyDay(_ familyID: Int64, day: String, now: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO familyAnnouncement (familyId, day, announcedAt) VALUES (?, ?, ?)",
                arguments: [familyID, day, now])
            return db.changesCount == 1
        }
    }

    public func familyPostsOnThisDay(_ familyID: Int64, monthDay: String, year: Int, limit: Int) async throws
        -> [(Stored<FamilyPost>, String)]
    {
        // GRDB keeps dates as UTC text, "YYYY-MM-DD HH:MM:SS.SSS".
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT familyPost.*, account.name AS author FROM familyPost
                    JOIN account ON account.id = familyPost.accountId
                    WHERE familyId = :family AND (
                      (eventDate IS NOT NULL AND substr(eventDate, 6, 5) = :day
                        AND CAST(substr(eventDate, 1, 4) AS INTEGER) < :year)
                      OR (kind != 'event' AND substr(familyPost.createdAt, 6, 5) = :day
                        AND CAST(substr(familyPost.createdAt, 1, 4) AS INTEGER) < :year))
                    ORDER BY familyPost.id LIMIT :limit
                    """,
                arguments: ["family": familyID, "day": monthDay, "year": year, "limit": limit]
            ).map { (try Stored<FamilyPost>(row: $0), $0["author"] as String) }
        }
    }
}
