import Foundation
import GRDB

extension SQLiteStore {
    /// Families the account belongs to, the one it joined or founded last first.
    public func families(of accountID: Int64) async throws -> [Stored<FamilyRecord>] {
        try await pool.read { db in
            try Stored<FamilyRecord>.fetchAll(
                db,
                sql: """
                    SELECT family.* FROM family JOIN familyMember m ON m.familyId = family.id WHERE m.accountId = ?
                    ORDER BY m.joinedAt DESC, family.id DESC
                    """,
                arguments: [accountID])
        }
    }

    public func family(id: Int64) async throws -> Stored<FamilyRecord>? {
        try await pool.read { db in try Stored<FamilyRecord>.fetchOne(db, key: id) }
    }

    /// Founds a family with the account as founder (and, for independence, its parent family).
    /// Founds a family, unless the account founded `maxFounded` that still exist.
    public func foundFamily(
        name: String, founderID: Int64, parentFamilyID: Int64? = nil, maxFounded: Int = .max, now: Date = Date()
    ) async throws -> Stored<FamilyRecord> {
        try await pool.write { db in
            let founded =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM family WHERE founderId = ?", arguments: [founderID])
                ?? 0
            try FamilyRules.checkFounding(founded: founded, maxFounded: maxFounded)
            let family = try FamilyRecord(
                name: name, founderId: founderID, parentFamilyId: parentFamilyID, createdAt: now
            ).insertStored(db)
            try db.execute(
                sql: "INSERT INTO familyMember (familyId, accountId, role, joinedAt) VALUES (?, ?, 'founder', ?)",
                arguments: [family.id, founderID, now])
            return family
        }
    }

    public func familyMembers(_ familyID: Int64) async throws -> [FamilyMember] {
        try await pool.read { db in try Self.members(db, familyID) }
    }

    static func members(_ db: Database, _ familyID: Int64) throws -> [FamilyMember] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT m.accountId, a.name, m.role, m.joinedAt FROM familyMember m JOIN account a ON a.id = m.accountId
                WHERE m.familyId = ? ORDER BY m.joinedAt, a.nameKey
                """, arguments: [familyID]
        ).map { FamilyMember(accountId: $0[0], name: $0[1], role: $0[2], joinedAt: $0[3]) }
    }

    public func familyRole(_ familyID: Int64, accountID: Int64) async throws -> FamilyRole? {
        try await pool.read { db in
            try FamilyRole.fetchOne(
                db, sql: "SELECT role FROM familyMember WHERE familyId = ? AND accountId = ?",
                arguments: [familyID, accountID])
        }
    }

    public func setFamilyRole(_ familyID: Int64, accountID: Int64, to role: FamilyRole) async throws -> Bool {
        guard role != .founder else { return false }
        return try await pool.write { db in
            try db.execute(
                sql: "UPDATE familyMember SET role = ? WHERE familyId = ? AND accountId = ? AND role <> 'founder'",
                arguments: [role.rawValue, familyID, accountID])
            return db.changesCount == 1
        }
    }

    public func familyLinks(_ familyID: Int64) async throws -> [FamilyLink] {
        try await pool.read { db in
            try Self.links(db, familyID)
        }
    }

    static func links(_ db: Database, _ familyID: Int64) throws -> [FamilyLink] {
        try Row.fetchAll(
            db, sql: "SELECT fromId, toId, kind, eventDate, eventPlace FROM familyLink WHERE familyId = ?",
            arguments: [familyID]
        )
        .map { FamilyLink(from: $0[0], to: $0[1], kind: $0[2], date: $0[3], place: $0[4]) }
    }

    /// Adds a relationship between two of the family's people. Parents may not form a cycle,
    /// and nobody is linked to themselves.
    public func link(
        _ familyID: Int64, from: Int64, to: Int64, kind: FamilyLinkKind, date: String?, place: String?
    ) async throws {
        try await pool.write { db in
            try Self.link(db, familyID, from: from, to: to, kind: kind, date: date, place: place)
        }
    }

    /// Reads what `FamilyRules.link` decides on and stores the link it returns (in a transaction:
    /// SQLite has one writer, so nothing changes the family's links in between).
    static func link(
        _ db: Database, _ familyID: Int64, from: Int64, to: Int64, kind: FamilyLinkKind, date: String? = nil,
        place: String? = nil
    ) throws {
        let members = try Int64.fetchSet(
            db,
            sql: """
                SELECT accountId FROM familyMember WHERE familyId = :family AND accountId IN (:from, :to)
                UNION SELECT -id FROM familyPerson WHERE familyId = :family AND accountId IS NULL
                  AND -id IN (:from, :to)
                """, arguments: ["family": familyID, "from": from, "to": to])
        let ancestors =
            kind != .parent
            ? []
            : try Int64.fetchSet(
                db,
                sql: """
                    WITH RECURSIVE up(id) AS (SELECT ? UNION SELECT l.fromId FROM familyLink l JOIN up ON l.toId = up.id
                      WHERE l.familyId = ? AND l.kind = 'parent')
                    SELECT id FROM up
                    """, arguments: [from, familyID])
        let link = try FamilyRules.link(
            from: from, to: to, kind: kind, members: members, ancestorsOfFrom: ancestors, date: date, place: place)
        try store(db, familyID, link)
    }

    /// Writes a link `FamilyRules.link` decided on (one prepared statement, reused by an
    /// import's links); a link there already takes the new date and place.
    static func store(_ db: Database, _ familyID: Int64, _ link: FamilyLink) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO familyLink (familyId, fromId, toId, kind, eventDate, eventPlace) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT DO UPDATE SET eventDate = COALESCE(excluded.eventDate, eventDate),
                  eventPlace = COALESCE(excluded.eventPlace, eventPlace)
                """
        ).execute(arguments: [familyID, link.from, link.to, link.kind, link.date, link.place])
    }

    // MARK: invites

    /// Stores an invite; returns its number.
    @discardableResult
    public func addFamilyInvite(_ invite: FamilyInvite, now: Date = Date()) async throws -> Int64 {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM familyInvite WHERE expiresAt < ?", arguments: [now])
            try db.execute(
                sql: """
                    INSERT INTO familyInvite (codeHash, familyId, inviterId, relation, expiresAt)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [invite.codeHash, invite.familyId, invite.inviterId, invite.relation, invite.expiresAt])
            return db.lastInsertedRowID
        }
    }

    public func familyInvites(_ familyID: Int64, now: Date = Date()) async throws -> [FamilyInvite] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, codeHash, familyId, inviterId, relation, expiresAt FROM familyInvite
                    WHERE familyId = ? AND expiresAt > ? ORDER BY expiresAt
                    """,
                arguments: [familyID, now]
            ).map {
                FamilyInvite(
                    id: $0[0], codeHash: $0[1], familyId: $0[2], inviterId: $0[3], relation: $0[4], expiresAt: $0[5])
            }
        }
    }

    public func takeFamilyInvite(codeHashes: [String], now: Date) async throws -> FamilyInvite? {
        try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT rowid, codeHash, familyId, inviterId, relation, expiresAt FROM familyInvite
                        WHERE codeHash IN \(Self.placeholders(codeHashes.count)) AND expiresAt > ?
                        """,
                    arguments: StatementArguments(codeHashes + [now] as [any DatabaseValueConvertible]))
            else { return nil }
            let invite = FamilyInvite(
                id: row[0], codeHash: row[1], familyId: row[2], inviterId: row[3], relation: row[4], expiresAt: row[5])
            try db.execute(sql: "DELETE FROM familyInvite WHERE codeHash = ?", arguments: [invite.codeHash])
            return invite
        }
    }

    /// Cancels an open invite of the family, named by its number or by its code's hashes.
    public func revokeFamilyInvite(id: Int64?, codeHashes: [String], familyID: Int64) async throws -> Bool {
        try await pool.write { db in
            var arguments: [any DatabaseValueConvertible] = [familyID, id ?? -1]
            arguments += codeHashes
            try db.execute(
                sql: """
                    DELETE FROM familyInvite WHERE familyId = ?
                    AND (rowid = ? OR codeHash IN \(Self.placeholders(codeHashes.count)))
                    """,
                arguments: StatementArguments(arguments))
            return db.changesCount >= 1
        }
    }

    /// Uses up an invite: the account joins with the relationship the inviter chose. The code
    /// works once; an expired or unknown one throws `notFound`.
    public func joinFamily(codeHashes: [String], accountID: Int64, now: Date = Date()) async throws
        -> (family: Stored<FamilyRecord>, relation: FamilyRelation?, inviter: Int64)
    {
        try await pool.write { db in
            var arguments: [any DatabaseValueConvertible] = codeHashes
            arguments.append(now)
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT familyId, inviterId, relation, codeHash FROM familyInvite
                        WHERE codeHash IN \(Self.placeholders(codeHashes.count)) AND expiresAt > ?
                        """,
                    arguments: StatementArguments(arguments))
            else { throw FamilyError.notFound }
            let familyID: Int64 = row[0]
            let inviter: Int64 = row[1]
            let relation: FamilyRelation? = row[2]
            let codeHash: String = row[3]
            try db.execute(sql: "DELETE FROM familyInvite WHERE codeHash = ?", arguments: [codeHash])
            let family = try Self.admit(
                db, familyID, inviter: inviter, relation: relation, accountID: accountID, now: now)
            return (family, relation, inviter)
        }
    }

    public func joinFamily(invite: FamilyInvite, accountID: Int64, now: Date) async throws -> Stored<FamilyRecord> {
        try await pool.write { db in
            guard try Stored<FamilyRecord>.fetchOne(db, key: invite.familyId) != nil else { throw FamilyError.notFound }
            return try Self.admit(
                db, invite.familyId, inviter: invite.inviterId, relation: invite.relation, accountID: accountID,
                now: now)
        }
    }

    /// Makes the account a member, linked to the inviter as the invite said.
    static func admit(
        _ db: Database, _ familyID: Int64, inviter: Int64, relation: FamilyRelation?, accountID: Int64, now: Date
    ) throws -> Stored<FamilyRecord> {
        try FamilyRules.checkJoin(
            alreadyMember: try Bool.fetchOne(
                db, sql: "SELECT 1 FROM familyMember WHERE familyId = ? AND accountId = ?",
                arguments: [familyID, accountID]) != nil)
        try db.execute(
            sql: "INSERT INTO familyMember (familyId, accountId, role, joinedAt) VALUES (?, ?, 'member', ?)",
            arguments: [familyID, accountID, now])
        if let new = FamilyRules.link(for: relation, inviter: inviter, newcomer: accountID) {
            try link(db, familyID, from: new.from, to: new.to, kind: new.kind)
        }
        return try Stored<FamilyRecord>.fetchOne(db, key: familyID)!
    }

    /// Takes a member out of a family with their links (the founder cannot leave).
    public func leaveFamily(_ familyID: Int64, accountID: Int64) async throws {
        try await pool.write { db in
            try FamilyRules.checkLeave(
                role: try FamilyRole.fetchOne(
                    db, sql: "SELECT role FROM familyMember WHERE familyId = ? AND accountId = ?",
                    arguments: [familyID, accountID]))
            try db.execute(
                sql: "DELETE FROM familyMember WHERE familyId = ? AND accountId = ?", arguments: [familyID, accountID])
            try Self.detach(db, familyID, accountID: accountID)
        }
    }

    /// The account is being deleted: each family it founded passes to the longest-standing
    /// member left (an admin first), or is removed when nobody is. Its own rows go with the
    /// account. Reports every family it was in.
    static func departFamilies(_ db: Database, accountID: Int64) throws -> [FamilyDeparture] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, name, founderId FROM family WHERE founderId = :id
                  OR id IN (SELECT familyId FROM familyMember WHERE accountId = :id) ORDER BY id
                """, arguments: ["id": accountID])
        return try rows.map { row in
            let (familyID, founderID): (Int64, Int64) = (row[0], row[2])
            let others = founderID == accountID ? try members(db, familyID) : []
            let departure = FamilyRules.departure(
                familyID: familyID, name: row[1], founderID: founderID, leaving: accountID, others: others)
            if let successor = departure.newFounderId {
                try db.execute(sql: "UPDATE family SET founderId = ? WHERE id = ?", arguments: [successor, familyID])
                try db.execute(
                    sql: "UPDATE familyMember SET role = 'founder' WHERE familyId = ? AND accountId = ?",
                    arguments: [familyID, successor])
            } else if departure.removed {
                try db.execute(sql: "DELETE FROM family WHERE id = ?", arguments: [familyID])
            }
            if !departure.removed { try Self.detach(db, familyID, accountID: accountID) }
            return departure
        }
    }

    /// Every family's members (to guard the families' private channels).
    public func allFamilies() async throws -> [Stored<FamilyRecord>] {
        try await pool.read { db in try Stored<FamilyRecord>.fetchAll(db) }
    }

    public func allFamilyMembers() async throws -> [Int64: Set<Int64>] {
        try await pool.read { db in
            var result: [Int64: Set<Int64>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT familyId, accountId FROM familyMember") {
                result[row[0], default: []].insert(row[1])
            }
            return result
        }
    }

    public func familyMemberIDs(_ familyID: Int64) async throws -> Set<Int64> {
        try await pool.read { db in
            Set(
                try Int64.fetchAll(
                    db, sql: "SELECT accountId FROM familyMember WHERE familyId = ?", arguments: [familyID]))
        }
    }

    /// Families founded by members who left home from `familyID`.
    public func childFamilies(of familyID: Int64) async throws -> [Stored<FamilyRecord>] {
        try await pool.read { db in
            try Stored<FamilyRecord>.fetchAll(
                db, sql: "SELECT * FROM family WHERE parentFamilyId = ?", arguments: [familyID])
        }
    }
}

extension SQLiteStore {
    public func addFamilyPost(_ post: FamilyPost) async throws -> Stored<FamilyPost> {
        try await pool.write { db in
            let record = try post.insertStored(db)
            return record
        }
    }

    public func familyPost(id: Int64) async throws -> Stored<FamilyPost>? {
        try await pool.read { db in try Stored<FamilyPost>.fetchOne(db, key: id) }
    }

    public func familyPosts(_ familyID: Int64, page: Int) async throws -> (
        posts: [(Stored<FamilyPost>, String)], total: Int
    ) {
        try await pool.read { db in
            let total =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM familyPost WHERE familyId = ?", arguments: [familyID])
                ?? 0
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT familyPost.*, account.name AS author FROM familyPost
                    JOIN account ON account.id = familyPost.accountId
                    WHERE familyId = ? ORDER BY familyPost.id DESC LIMIT ? OFFSET ?
                    """,
                arguments: [familyID, StoreLimits.familyPostPageSize, (page - 1) * StoreLimits.familyPostPageSize])
            return (try rows.map { (try Stored<FamilyPost>(row: $0), $0["author"] as String) }, total)
        }
    }

    public func likedPosts(_ postIDs: [Int64], accountID: Int64) async throws -> Set<Int64> {
        guard !postIDs.isEmpty else { return [] }
        return try await pool.read { db in
            let marks = postIDs.map { _ in "?" }.joined(separator: ",")
            return Set(
                try Int64.fetchAll(
                    db, sql: "SELECT postId FROM postLike WHERE accountId = ? AND postId IN (\(marks))",
                    arguments: StatementArguments([accountID] + postIDs)))
        }
    }

    public func familyPicturePosts(_ familyID: Int64, limit: Int) async throws -> [(Stored<FamilyPost>, String)] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT familyPost.*, account.name AS author FROM familyPost
                    JOIN account ON account.id = familyPost.accountId
                    WHERE familyId = ? AND imageId IS NOT NULL ORDER BY familyPost.id DESC LIMIT ?
                    """,
                arguments: [familyID, limit]
            ).map { (try Stored<FamilyPost>(row: $0), $0["author"] as String) }
        }
    }

    /// Likes a post (or takes it back); idempotent, the count recomputed in the transaction.
    public func likePost(_ postID: Int64, accountID: Int64, on: Bool) async throws -> (changed: Bool, count: Int)? {
        try await pool.write { db in
            try Self.requireAccount(db, accountID)
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM familyPost WHERE id = ?", arguments: [postID]) != nil else {
                return nil
            }
            if on {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO postLike (postId, accountId) VALUES (?, ?)",
                    arguments: [postID, accountID])
            } else {
                try db.execute(
                    sql: "DELETE FROM postLike WHERE postId = ? AND accountId = ?", arguments: [postID, accountID])
            }
            let changed = db.changesCount == 1
            try db.execute(
                sql: "UPDATE familyPost SET likes = (SELECT COUNT(*) FROM postLike WHERE postId = ?) WHERE id = ?",
                arguments: [postID, postID])
            return (
                changed,
                try Int.fetchOne(db, sql: "SELECT likes FROM familyPost WHERE id = ?", arguments: [postID]) ?? 0
            )
        }
    }
}
