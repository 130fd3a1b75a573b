import Foundation
import PostgresNIO

/// Follows, blocks, settings, bios and the activity record on PostgreSQL. Names compare
/// byte by byte (`COLLATE "C"`), as in SQLite, whatever the database's collation.
extension PostgresStore: SocialStore {
    public func follow(_ follower: Int64, _ followee: Int64, now: Date) async throws -> FollowResult {
        try await transaction { db in
            let blocked = try await db.rows(
                """
                SELECT 1 FROM block WHERE (blockerId = \(follower) AND blockedId = \(followee))
                  OR (blockerId = \(followee) AND blockedId = \(follower))
                """, self.logger)
            if let refusal = SocialRules.followRefusal(eitherBlocks: !blocked.isEmpty) { return refusal }
            let added = try await db.rows(
                """
                INSERT INTO follow (followerId, followeeId, createdAt) VALUES (\(follower), \(followee), \(now))
                ON CONFLICT DO NOTHING RETURNING 1
                """, self.logger)
            let result = SocialRules.followResult(added: !added.isEmpty)
            if result == .followed {
                try await Self.addActivity(
                    db, accountID: follower, kind: "follow", subjectID: followee, text: "follows", now: now,
                    self.logger)
            }
            return result
        }
    }

    public func unfollow(_ follower: Int64, _ followee: Int64) async throws -> Bool {
        !(try await rows(
            "DELETE FROM follow WHERE followerId = \(follower) AND followeeId = \(followee) RETURNING 1")).isEmpty
    }

    public func block(_ blocker: Int64, _ blocked: Int64, now: Date) async throws -> Bool {
        try await transaction { db in
            let added = try await db.rows(
                """
                INSERT INTO block (blockerId, blockedId, createdAt) VALUES (\(blocker), \(blocked), \(now))
                ON CONFLICT DO NOTHING RETURNING 1
                """, self.logger)
            try await db.query(
                """
                DELETE FROM follow WHERE (followerId = \(blocker) AND followeeId = \(blocked))
                  OR (followerId = \(blocked) AND followeeId = \(blocker))
                """, logger: self.logger)
            return !added.isEmpty
        }
    }

    public func unblock(_ blocker: Int64, _ blocked: Int64) async throws -> Bool {
        !(try await rows("DELETE FROM block WHERE blockerId = \(blocker) AND blockedId = \(blocked) RETURNING 1"))
            .isEmpty
    }

    func ids(_ query: PostgresQuery) async throws -> Set<Int64> {
        Set(try await rows(query).map { try $0.decode(Int64.self) })
    }

    public func blockedIDs(by accountID: Int64) async throws -> Set<Int64> {
        try await ids("SELECT blockedId FROM block WHERE blockerId = \(accountID)")
    }

    public func blockerIDs(of accountID: Int64) async throws -> Set<Int64> {
        try await ids("SELECT blockerId FROM block WHERE blockedId = \(accountID)")
    }

    public func followingIDs(of accountID: Int64) async throws -> Set<Int64> {
        try await ids("SELECT followeeId FROM follow WHERE followerId = \(accountID)")
    }

    public func isBlocked(_ blocked: Int64, by blocker: Int64) async throws -> Bool {
        !(try await rows("SELECT 1 FROM block WHERE blockerId = \(blocker) AND blockedId = \(blocked)")).isEmpty
    }

    public func people(_ list: PeopleList, of accountID: Int64, after: String?) async throws -> PeoplePage {
        let join: String
        switch list {
        case .followers: join = "JOIN follow f ON f.followerId = a.id AND f.followeeId = $1"
        case .following: join = "JOIN follow f ON f.followeeId = a.id AND f.followerId = $1"
        case .friends:
            join = """
                JOIN follow f ON f.followeeId = a.id AND f.followerId = $1
                JOIN follow g ON g.followerId = a.id AND g.followeeId = $1
                """
        case .blocked: join = "JOIN block b ON b.blockedId = a.id AND b.blockerId = $1"
        }
        var binds = PostgresBindings()
        binds.append(accountID)
        binds.append(after?.lowercased() ?? "")
        binds.append(Int64(KeysetPage.rowsToRead(StoreLimits.peoplePageSize)))
        return try await page(
            PostgresQuery(
                unsafeSQL: """
                    SELECT a.name FROM account a \(join) WHERE a.nameKey > $2 COLLATE "C"
                    ORDER BY a.nameKey COLLATE "C" LIMIT $3
                    """, binds: binds))
    }

    public func findPeople(prefix: String, after: String?) async throws -> PeoplePage {
        let limit = Int64(KeysetPage.rowsToRead(StoreLimits.peoplePageSize))
        return try await page(
            """
            SELECT name FROM account
            WHERE starts_with(nameKey, \(prefix.lowercased())) AND nameKey > \(after?.lowercased() ?? "") COLLATE "C"
            ORDER BY nameKey COLLATE "C" LIMIT \(limit)
            """)
    }

    private func page(_ query: PostgresQuery) async throws -> PeoplePage {
        PeoplePage(read: try await rows(query).map { try $0.decode(String.self) })
    }

    public func profileTally(of accountID: Int64) async throws -> ProfileTally {
        let id = accountID
        // Recipes, memes and follows are kept counted (migration v5); cookies and points are
        // a few a day at most, so they are counted here.
        let row = try await rows(
            """
            SELECT COALESCE(t.followers, 0), COALESCE(t.following, 0), COALESCE(t.memes, 0),
              (SELECT COUNT(*) FROM fortune WHERE accountId = \(id)),
              (SELECT COALESCE(SUM(points), 0)::BIGINT FROM pointsEvent WHERE accountId = \(id)),
              COALESCE(t.recipes, 0)
            FROM (SELECT 1) one LEFT JOIN accountTally t ON t.accountId = \(id)
            """)[0]
        let (followers, following, memes, fortunes, points, recipes) = try row.decode(
            (Int64, Int64, Int64, Int64, Int64, Int64).self)
        return ProfileTally(
            followers: Int(followers), following: Int(following), memes: Int(memes), fortunes: Int(fortunes),
            points: Int(points), recipes: Int(recipes))
    }

    public func follows(_ follower: Int64, _ followee: Int64) async throws -> Bool {
        !(try await rows("SELECT 1 FROM follow WHERE followerId = \(follower) AND followeeId = \(followee)")).isEmpty
    }

    public func setBio(_ accountID: Int64, _ bio: String) async throws {
        try await run("UPDATE account SET bio = \(bio) WHERE id = \(accountID)")
    }

    public func settings(_ accountID: Int64) async throws -> [String: String] {
        let pairs = try await rows("SELECT key, value FROM setting WHERE accountId = \(accountID)")
            .map { try $0.decode((String, String).self) }
        return Dictionary(pairs, uniquingKeysWith: { $1 })
    }

    public func setSetting(_ accountID: Int64, key: String, value: String) async throws {
        try await run(
            """
            INSERT INTO setting (accountId, key, value) VALUES (\(accountID), \(key), \(value))
            ON CONFLICT (accountId, key) DO UPDATE SET value = excluded.value
            """)
    }

    public func profileFields(_ accountID: Int64) async throws -> [String: String] {
        let pairs = try await rows("SELECT key, value FROM profileField WHERE accountId = \(accountID)")
            .map { try $0.decode((String, String).self) }
        return Dictionary(pairs, uniquingKeysWith: { $1 })
    }

    public func setProfileField(_ accountID: Int64, key: String, value: String?) async throws -> Bool {
        guard let value else {
            try await run("DELETE FROM profileField WHERE accountId = \(accountID) AND key = \(key)")
            return true
        }
        return try await transaction { db in
            // The account's row lock orders two devices adding fields at once.
            _ = try await db.rows("SELECT id FROM account WHERE id = \(accountID) FOR UPDATE", self.logger)
            let keys = try await db.rows("SELECT key FROM profileField WHERE accountId = \(accountID)", self.logger)
                .map { try $0.decode(String.self) }
            guard ProfileFields.hasRoom(count: keys.count, replacing: keys.contains(key)) else { return false }
            _ = try await db.rows(
                """
                INSERT INTO profileField (accountId, key, value) VALUES (\(accountID), \(key), \(value))
                ON CONFLICT (accountId, key) DO UPDATE SET value = excluded.value
                """, self.logger)
            return true
        }
    }

    /// Records something a user did, for their followers' feeds.
    static func addActivity(
        _ db: PostgresConnection, accountID: Int64, kind: String, subjectID: Int64?, text: String, now: Date,
        _ logger: Logger
    ) async throws {
        try await db.query(
            """
            INSERT INTO activity (accountId, kind, subjectId, text, createdAt)
            VALUES (\(accountID), \(kind), \(subjectID), \(text), \(now))
            """, logger: logger)
    }

    public func feed(for accountID: Int64, before: Int64?) async throws -> (items: [ActivityItem], more: Bool) {
        let limit = Int64(KeysetPage.rowsToRead(StoreLimits.feedPageSize))
        let found = try await rows(
            """
            SELECT act.id, a.name, act.kind, act.text, s.name, act.createdAt
            FROM activity act
            JOIN follow f ON f.followeeId = act.accountId AND f.followerId = \(accountID)
            JOIN account a ON a.id = act.accountId
            LEFT JOIN account s ON act.kind = 'follow' AND s.id = act.subjectId
            WHERE act.id < \(before ?? Int64.max)
              AND act.accountId NOT IN (SELECT blockedId FROM block WHERE blockerId = \(accountID))
            ORDER BY act.id DESC LIMIT \(limit)
            """)
        let (page, more) = KeysetPage.split(found, size: StoreLimits.feedPageSize)
        let items = try page.map { row in
            let (id, actor, kind, text, subject, createdAt) = try row.decode(
                (Int64, String, String, String, String?, Date).self)
            return ActivityItem(
                id: id, actor: actor, kind: kind, text: text, subjectName: subject, createdAt: createdAt)
        }
        return (items, more)
    }
}
