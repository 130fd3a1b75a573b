import Foundation
import GRDB

/// Follows, blocks, settings, bios and the activity record.
extension SQLiteStore {
    public func follow(_ follower: Int64, _ followee: Int64, now: Date = Date()) async throws -> FollowResult {
        try await pool.write { db in
            let blocks = try Bool.fetchOne(
                db,
                sql: """
                    SELECT 1 FROM block WHERE (blockerId = ? AND blockedId = ?) OR (blockerId = ? AND blockedId = ?)
                    """, arguments: [follower, followee, followee, follower])
            if let refusal = SocialRules.followRefusal(eitherBlocks: blocks != nil) { return refusal }
            try db.execute(
                sql: "INSERT OR IGNORE INTO follow (followerId, followeeId, createdAt) VALUES (?, ?, ?)",
                arguments: [follower, followee, now])
            let result = SocialRules.followResult(added: db.changesCount == 1)
            if result == .followed {
                try Self.addActivity(
                    db, accountID: follower, kind: "follow", subjectID: followee, text: "follows", now: now)
            }
            return result
        }
    }

    public func unfollow(_ follower: Int64, _ followee: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM follow WHERE followerId = ? AND followeeId = ?", arguments: [follower, followee])
            return db.changesCount == 1
        }
    }

    /// Blocks and removes follows in both directions, in one transaction.
    public func block(_ blocker: Int64, _ blocked: Int64, now: Date = Date()) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO block (blockerId, blockedId, createdAt) VALUES (?, ?, ?)",
                arguments: [blocker, blocked, now])
            let added = db.changesCount == 1
            try db.execute(
                sql:
                    "DELETE FROM follow WHERE (followerId = ? AND followeeId = ?) OR (followerId = ? AND "
                    + "followeeId = ?)",
                arguments: [blocker, blocked, blocked, blocker])
            return added
        }
    }

    public func unblock(_ blocker: Int64, _ blocked: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM block WHERE blockerId = ? AND blockedId = ?", arguments: [blocker, blocked])
            return db.changesCount == 1
        }
    }

    /// Accounts that `accountID` blocks.
    public func blockedIDs(by accountID: Int64) async throws -> Set<Int64> {
        try await pool.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT blockedId FROM block WHERE blockerId = ?", arguments: [accountID]))
        }
    }

    /// Accounts that block `accountID`.
    public func blockerIDs(of accountID: Int64) async throws -> Set<Int64> {
        try await pool.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT blockerId FROM block WHERE blockedId = ?", arguments: [accountID]))
        }
    }

    /// Accounts `accountID` follows.
    public func followingIDs(of accountID: Int64) async throws -> Set<Int64> {
        try await pool.read { db in
            Set(
                try Int64.fetchAll(
                    db, sql: "SELECT followeeId FROM follow WHERE followerId = ?", arguments: [accountID]))
        }
    }

    public func isBlocked(_ blocked: Int64, by blocker: Int64) async throws -> Bool {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM block WHERE blockerId = ? AND blockedId = ?",
                arguments: [blocker, blocked]) ?? 0
                > 0
        }
    }

    /// One page of a person list, keyset-paged by name (`after` is the last name seen).
    public func people(_ list: PeopleList, of accountID: Int64, after: String?) async throws -> PeoplePage {
        let join: String
        switch list {
        case .followers: join = "JOIN follow f ON f.followerId = a.id AND f.followeeId = :me"
        case .following: join = "JOIN follow f ON f.followeeId = a.id AND f.followerId = :me"
        case .friends:
            join = """
                JOIN follow f ON f.followeeId = a.id AND f.followerId = :me
                JOIN follow g ON g.followerId = a.id AND g.followeeId = :me
                """
        case .blocked: join = "JOIN block b ON b.blockedId = a.id AND b.blockerId = :me"
        }
        return try await page(
            sql:
                "SELECT a.name, a.nameKey FROM account a \(join) WHERE a.nameKey > :after ORDER BY a.nameKey "
                + "LIMIT :limit",
            arguments: ["me": accountID], after: after)
    }

    /// People whose name starts with `prefix` (case-insensitive), keyset-paged by name.
    public func findPeople(prefix: String, after: String?) async throws -> PeoplePage {
        let folded = prefix.lowercased()
        // The range [prefix, prefix + U+FFFF) is a prefix match that uses the unique index.
        return try await page(
            sql: """
                SELECT name, nameKey FROM account
                WHERE nameKey >= :prefix AND nameKey < :upper AND nameKey > :after
                ORDER BY nameKey LIMIT :limit
                """,
            arguments: ["prefix": folded, "upper": folded + "\u{FFFF}"], after: after)
    }

    private func page(sql: String, arguments: [String: (any DatabaseValueConvertible)?], after: String?) async throws
        -> PeoplePage
    {
        var args = arguments
        args["after"] = after?.lowercased() ?? ""
        args["limit"] = KeysetPage.rowsToRead(StoreLimits.peoplePageSize)
        let statementArguments = StatementArguments(args)
        return try await pool.read { db in
            PeoplePage(read: try Row.fetchAll(db, sql: sql, arguments: statementArguments).map { $0["name"] as String })
        }
    }

    public func profileTally(of accountID: Int64) async throws -> ProfileTally {
        try await pool.read { db in
            let row = try Row.fetchOne(db, sql: Self.tallySQL, arguments: ["id": accountID])
            return ProfileTally(
                followers: row?[0] ?? 0, following: row?[1] ?? 0, memes: row?[2] ?? 0, fortunes: row?[3] ?? 0,
                points: row?[4] ?? 0, recipes: row?[5] ?? 0)
        }
    }

    static let tallySQL = """
        SELECT (SELECT COUNT(*) FROM follow WHERE followeeId = :id),
          (SELECT COUNT(*) FROM follow WHERE followerId = :id),
          (SELECT COUNT(*) FROM meme WHERE accountId = :id), (SELECT COUNT(*) FROM fortune WHERE accountId = :id),
          (SELECT COALESCE(SUM(points), 0) FROM pointsEvent WHERE accountId = :id),
          (SELECT COUNT(*) FROM recipe WHERE accountId = :id)
        """

    public func follows(_ follower: Int64, _ followee: Int64) async throws -> Bool {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM follow WHERE followerId = ? AND followeeId = ?",
                arguments: [follower, followee])
                ?? 0 > 0
        }
    }

    public func setBio(_ accountID: Int64, _ bio: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE account SET bio = ? WHERE id = ?", arguments: [bio, accountID])
        }
    }

    public func settings(_ accountID: Int64) async throws -> [String: String] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM setting WHERE accountId = ?", arguments: [accountID])
            return Dictionary(rows.map { ($0["key"] as String, $0["value"] as String) }, uniquingKeysWith: { $1 })
        }
    }

    public func setSetting(_ accountID: Int64, key: String, value: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql:
                    "INSERT INTO setting (accountId, key, value) VALUES (?, ?, ?) ON CONFLICT(accountId, key) "
                    + "DO UPDATE SET value = excluded.value",
                arguments: [accountID, key, value])
        }
    }

    public func profileFields(_ accountID: Int64) async throws -> [String: String] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM profileField WHERE accountId = ?", arguments: [accountID])
            return Dictionary(rows.map { ($0["key"] as String, $0["value"] as String) }, uniquingKeysWith: { $1 })
        }
    }

    public func setProfileField(_ accountID: Int64, key: String, value: String?) async throws -> Bool {
        try await pool.write { db in
            guard let value else {
                try db.execute(
                    sql: "DELETE FROM profileField WHERE accountId = ? AND key = ?", arguments: [accountID, key])
                return true
            }
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM profileField WHERE accountId = ?", arguments: [accountID])
                ?? 0
            let replacing =
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM profileField WHERE accountId = ? AND key = ?", arguments: [accountID, key])
                ?? false
            guard ProfileFields.hasRoom(count: count, replacing: replacing) else { return false }
            try db.execute(
                sql:
                    "INSERT INTO profileField (accountId, key, value) VALUES (?, ?, ?) ON CONFLICT(accountId, key) "
                    + "DO UPDATE SET value = excluded.value",
                arguments: [accountID, key, value])
            return true
        }
    }

    /// Records something a user did, for their followers' feeds.
    public static func addActivity(
        _ db: Database, accountID: Int64, kind: String, subjectID: Int64?, text: String, now: Date = Date()
    ) throws {
        try db.execute(
            sql: "INSERT INTO activity (accountId, kind, subjectId, text, createdAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [accountID, kind, subjectID, text, now])
    }
}

extension SQLiteStore {
    /// Activity of the people `accountID` follows, newest first, keyset-paged by id; `more`
    /// says whether anything older is left (one row past the page is read to know).
    public func feed(for accountID: Int64, before: Int64?) async throws -> (items: [ActivityItem], more: Bool) {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT act.id, a.name AS actor, act.kind, act.text, s.name AS subject, act.createdAt
                    FROM activity act
                    JOIN follow f ON f.followeeId = act.accountId AND f.followerId = :me
                    JOIN account a ON a.id = act.accountId
                    LEFT JOIN account s ON act.kind = 'follow' AND s.id = act.subjectId
                    WHERE act.id < :before
                      AND act.accountId NOT IN (SELECT blockedId FROM block WHERE blockerId = :me)
                    ORDER BY act.id DESC LIMIT :limit
                    """,
                arguments: [
                    "me": accountID, "before": before ?? Int64.max,
                    "limit": KeysetPage.rowsToRead(StoreLimits.feedPageSize),
                ])
            let (items, more) = KeysetPage.split(rows, size: StoreLimits.feedPageSize)
            return (
                items.map {
                    ActivityItem(
                        id: $0["id"], actor: $0["actor"], kind: $0["kind"], text: $0["text"],
                        subjectName: $0["subject"], createdAt: $0["createdAt"])
                }, more
            )
        }
    }
}
