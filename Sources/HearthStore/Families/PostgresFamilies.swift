import Foundation
import PostgresNIO

/// Families, members, relationships, invites and the family feed on PostgreSQL. An invite
/// row is locked while it is used, so a code admits one person however many try at once;
/// the founder's account row is locked while their families are counted.
extension PostgresStore: FamilyStore {
    static let familyColumns = "id, name, founderId, parentFamilyId, createdAt"
    static let postColumns = "id, familyId, accountId, kind, text, imageId, eventDate, likes, comments, createdAt"

    static func family(_ row: PostgresRow) throws -> Stored<FamilyRecord> {
        let (id, name, founderId, parentId, createdAt) = try row.decode((Int64, String, Int64, Int64?, Date).self)
        let family = FamilyRecord(name: name, founderId: founderId, parentFamilyId: parentId, createdAt: createdAt)
        return Stored(id: id, family)
    }

    static func post(_ row: PostgresRow) throws -> Stored<FamilyPost> {
        let (id, familyId, accountId, kind, text, imageId, eventDate, likes, comments, createdAt) = try row.decode(
            (Int64, Int64, Int64, String, String, String?, String?, Int64, Int64, Date).self)
        var post = FamilyPost(
            familyId: familyId, accountId: accountId, kind: kind, text: text, imageId: imageId, eventDate: eventDate,
            createdAt: createdAt)
        (post.likes, post.comments) = (Int(likes), Int(comments))
        return Stored(id: id, post)
    }

    public func families(of accountID: Int64) async throws -> [Stored<FamilyRecord>] {
        try await rows(
            """
            SELECT \(unescaped: Self.qualified(Self.familyColumns, "family")) FROM family
            JOIN familyMember m ON m.familyId = family.id WHERE m.accountId = \(accountID)
            ORDER BY m.joinedAt DESC, family.id DESC
            """
        ).map(Self.family)
    }

    public func family(id: Int64) async throws -> Stored<FamilyRecord>? {
        try await rows("SELECT \(unescaped: Self.familyColumns) FROM family WHERE id = \(id)").first.map(Self.family)
    }

    public func foundFamily(name: String, founderID: Int64, parentFamilyID: Int64?, maxFounded: Int, now: Date)
        async throws -> Stored<FamilyRecord>
    {
        try await transaction { db in
            _ = try await db.rows("SELECT 1 FROM account WHERE id = \(founderID) FOR UPDATE", self.logger)
            let founded = try await db.rows("SELECT COUNT(*) FROM family WHERE founderId = \(founderID)", self.logger)[
                0
            ]
            .decode(Int64.self)
            try FamilyRules.checkFounding(founded: Int(founded), maxFounded: maxFounded)
            let family = try Self.family(
                try await db.rows(
                    """
                    INSERT INTO family (name, founderId, parentFamilyId, createdAt)
                    VALUES (\(name), \(founderID), \(parentFamilyID), \(now)) RETURNING \(unescaped: Self.familyColumns)
                    """, self.logger)[0])
            try await db.query(
                """
                INSERT INTO familyMember (familyId, accountId, role, joinedAt)
                VALUES (\(family.id), \(founderID), 'founder', \(now))
                """, logger: self.logger)
            return family
        }
    }

    public func familyMembers(_ familyID: Int64) async throws -> [FamilyMember] {
        try await rows(Self.membersQuery(familyID)).map(Self.member)
    }

    static func members(_ db: PostgresConnection, _ familyID: Int64, _ logger: Logger) async throws -> [FamilyMember] {
        try await db.rows(membersQuery(familyID), logger).map(member)
    }

    static func membersQuery(_ familyID: Int64) -> PostgresQuery {
        """
        SELECT m.accountId, a.name, m.role, m.joinedAt FROM familyMember m JOIN account a ON a.id = m.accountId
        WHERE m.familyId = \(familyID) ORDER BY m.joinedAt, a.nameKey COLLATE "C"
        """
    }

    static func member(_ row: PostgresRow) throws -> FamilyMember {
        let (id, name, role, joinedAt) = try row.decode((Int64, String, String, Date).self)
        return FamilyMember(accountId: id, name: name, role: FamilyRole(rawValue: role) ?? .member, joinedAt: joinedAt)
    }

    public func familyRole(_ familyID: Int64, accountID: Int64) async throws -> FamilyRole? {
        try await rows("SELECT role FROM familyMember WHERE familyId = \(familyID) AND accountId = \(accountID)")
            .first.flatMap { FamilyRole(rawValue: try $0.decode(String.self)) }
    }

    public func setFamilyRole(_ familyID: Int64, accountID: Int64, to role: FamilyRole) async throws -> Bool {
        guard role != .founder else { return false }
        return
            !(try await rows(
                """
                UPDATE familyMember SET role = \(role.rawValue)
                WHERE familyId = \(familyID) AND accountId = \(accountID) AND role <> 'founder' RETURNING 1
                """)).isEmpty
    }

    public func familyLinks(_ familyID: Int64) async throws -> [FamilyLink] {
        try await rows(Self.linksQuery(familyID)).compactMap(Self.link)
    }

    static func linksQuery(_ familyID: Int64) -> PostgresQuery {
        "SELECT fromId, toId, kind, eventDate, eventPlace FROM familyLink WHERE familyId = \(familyID)"
    }

    static func link(_ row: PostgresRow) throws -> FamilyLink? {
        let (from, to, kind, date, place) = try row.decode((Int64, Int64, String, String?, String?).self)
        return FamilyLinkKind(rawValue: kind).map { FamilyLink(from: from, to: to, kind: $0, date: date, place: place) }
    }

    public func link(
        _ familyID: Int64, from: Int64, to: Int64, kind: FamilyLinkKind, date: String?, place: String?
    ) async throws {
        try await transaction { db in
            try await Self.link(db, familyID, from: from, to: to, kind: kind, date: date, place: place, self.logger)
        }
    }

    /// Reads what `FamilyRules.link` decides on and stores the link it returns (in a transaction).
    static func link(
        _ db: PostgresConnection, _ familyID: Int64, from: Int64, to: Int64, kind: FamilyLinkKind,
        date: String? = nil, place: String? = nil, _ logger: Logger
    ) async throws {
        let members = try await db.ids(
            """
            SELECT accountId FROM familyMember WHERE familyId = \(familyID) AND accountId IN (\(from), \(to))
            UNION SELECT -id FROM familyPerson WHERE familyId = \(familyID) AND accountId IS NULL
              AND -id IN (\(from), \(to))
            """, logger)
        var ancestors: Set<Int64> = []
        if kind == .parent {
            // The family's links are changed one at a time, so two new links cannot make a cycle together.
            try await db.query("SELECT 1 FROM family WHERE id = \(familyID) FOR UPDATE", logger: logger)
            ancestors = try await db.ids(
                """
                WITH RECURSIVE up(id) AS (SELECT \(from)::BIGINT UNION SELECT l.fromId FROM familyLink l
                  JOIN up ON l.toId = up.id WHERE l.familyId = \(familyID) AND l.kind = 'parent')
                SELECT id FROM up
                """, logger)
        }
        let link = try FamilyRules.link(
            from: from, to: to, kind: kind, members: members, ancestorsOfFrom: ancestors, date: date, place: place)
        try await db.query(
            """
            INSERT INTO familyLink AS l (familyId, fromId, toId, kind, eventDate, eventPlace)
            VALUES (\(familyID), \(link.from), \(link.to), \(link.kind.rawValue), \(link.date), \(link.place))
            ON CONFLICT (familyId, fromId, toId, kind) DO UPDATE SET
              eventDate = COALESCE(excluded.eventDate, l.eventDate),
              eventPlace = COALESCE(excluded.eventPlace, l.eventPlace)
            """, logger: logger)
    }

    @discardableResult
    public func addFamilyInvite(_ invite: FamilyInvite, now: Date) async throws -> Int64 {
        try await transaction { db in
            try await db.query("DELETE FROM familyInvite WHERE expiresAt < \(now)", logger: self.logger)
            return try await db.rows(
                """
                INSERT INTO familyInvite (codeHash, familyId, inviterId, relation, expiresAt)
                VALUES (\(invite.codeHash), \(invite.familyId), \(invite.inviterId), \(invite.relation?.rawValue),
                  \(invite.expiresAt))
                RETURNING id
                """, self.logger)[0].decode(Int64.self)
        }
    }

    public func familyInvites(_ familyID: Int64, now: Date) async throws -> [FamilyInvite] {
        try await rows(
            """
            SELECT id, codeHash, familyId, inviterId, relation, expiresAt FROM familyInvite
            WHERE familyId = \(familyID) AND expiresAt > \(now) ORDER BY expiresAt
            """
        ).map { row in
            let (id, codeHash, familyId, inviterId, relation, expiresAt) = try row.decode(
                (Int64, String, Int64, Int64, String?, Date).self)
            return FamilyInvite(
                id: id, codeHash: codeHash, familyId: familyId, inviterId: inviterId,
                relation: relation.flatMap(FamilyRelation.init(rawValue:)), expiresAt: expiresAt)
        }
    }

    public func takeFamilyInvite(codeHashes: [String], now: Date) async throws -> FamilyInvite? {
        // One statement: of two registrations racing with one code, only one gets the row.
        try await rows(
            """
            DELETE FROM familyInvite WHERE codeHash = (
              SELECT codeHash FROM familyInvite WHERE codeHash = ANY(\(codeHashes)) AND expiresAt > \(now) LIMIT 1)
            RETURNING id, codeHash, familyId, inviterId, relation, expiresAt
            """
        ).first.map { row in
            let (id, codeHash, familyId, inviterId, relation, expiresAt) = try row.decode(
                (Int64, String, Int64, Int64, String?, Date).self)
            return FamilyInvite(
                id: id, codeHash: codeHash, familyId: familyId, inviterId: inviterId,
                relation: relation.flatMap(FamilyRelation.init(rawValue:)), expiresAt: expiresAt)
        }
    }

    public func revokeFamilyInvite(id: Int64?, codeHashes: [String], familyID: Int64) async throws -> Bool {
        !(try await rows(
            """
            DELETE FROM familyInvite
            WHERE familyId = \(familyID) AND (id = \(id ?? -1) OR codeHash = ANY(\(codeHashes)))
            RETURNING 1
            """)).isEmpty
    }

    public func joinFamily(codeHashes: [String], accountID: Int64, now: Date) async throws
        -> (family: Stored<FamilyRecord>, relation: FamilyRelation?, inviter: Int64)
    {
        try await transaction { db in
            guard
                let (familyID, inviter, relationName, codeHash) = try await db.rows(
                    """
                    SELECT familyId, inviterId, relation, codeHash FROM familyInvite
                    WHERE codeHash = ANY(\(codeHashes)) AND expiresAt > \(now) LIMIT 1 FOR UPDATE
                    """, self.logger
                ).first?.decode((Int64, Int64, String?, String).self)
            else { throw FamilyError.notFound }
            let relation = relationName.flatMap(FamilyRelation.init(rawValue:))
            let already = try await db.rows(
                "SELECT 1 FROM familyMember WHERE familyId = \(familyID) AND accountId = \(accountID)", self.logger)
            try FamilyRules.checkJoin(alreadyMember: !already.isEmpty)
            let used = try await db.rows(
                "DELETE FROM familyInvite WHERE codeHash = \(codeHash) RETURNING 1", self.logger)
            guard !used.isEmpty else { throw FamilyError.notFound }
            let family = try await self.admit(
                db, familyID, inviter: inviter, relation: relation, accountID: accountID, now: now)
            return (family, relation, inviter)
        }
    }

    public func joinFamily(invite: FamilyInvite, accountID: Int64, now: Date) async throws -> Stored<FamilyRecord> {
        try await transaction { db in
            let family = try await db.rows(
                "SELECT 1 FROM family WHERE id = \(invite.familyId) FOR UPDATE", self.logger)
            guard !family.isEmpty else { throw FamilyError.notFound }
            let already = try await db.rows(
                "SELECT 1 FROM familyMember WHERE familyId = \(invite.familyId) AND accountId = \(accountID)",
                self.logger)
            try FamilyRules.checkJoin(alreadyMember: !already.isEmpty)
            return try await self.admit(
                db, invite.familyId, inviter: invite.inviterId, relation: invite.relation, accountID: accountID,
                now: now)
        }
    }

    /// Makes the account a member, linked to the inviter as the invite said (in a transaction).
    func admit(
        _ db: PostgresConnection, _ familyID: Int64, inviter: Int64, relation: FamilyRelation?, accountID: Int64,
        now: Date
    ) async throws -> Stored<FamilyRecord> {
        try await db.query(
            """
            INSERT INTO familyMember (familyId, accountId, role, joinedAt)
            VALUES (\(familyID), \(accountID), 'member', \(now))
            """, logger: logger)
        if let new = FamilyRules.link(for: relation, inviter: inviter, newcomer: accountID) {
            try await Self.link(db, familyID, from: new.from, to: new.to, kind: new.kind, logger)
        }
        let family = try await db.rows(
            "SELECT \(unescaped: Self.familyColumns) FROM family WHERE id = \(familyID)", logger)[0]
        return try Self.family(family)
    }

    public func leaveFamily(_ familyID: Int64, accountID: Int64) async throws {
        try await transaction { db in
            let role = try await db.rows(
                "SELECT role FROM familyMember WHERE familyId = \(familyID) AND accountId = \(accountID)",
                self.logger
            ).first.map { FamilyRole(rawValue: try $0.decode(String.self)) ?? .member }
            try FamilyRules.checkLeave(role: role)
            try await db.query(
                "DELETE FROM familyMember WHERE familyId = \(familyID) AND accountId = \(accountID)",
                logger: self.logger)
            try await Self.detach(db, familyID, accountID: accountID, self.logger)
        }
    }

    /// The account is being deleted: each family it founded passes to the longest-standing
    /// member left (an admin first), or is removed when nobody is. Its own rows go with the
    /// account. Reports every family it was in.
    static func departFamilies(_ db: PostgresConnection, accountID: Int64, _ logger: Logger) async throws
        -> [FamilyDeparture]
    {
        var departures: [FamilyDeparture] = []
        for row in try await db.rows(
            """
            SELECT id, name, founderId FROM family WHERE founderId = \(accountID)
              OR id IN (SELECT familyId FROM familyMember WHERE accountId = \(accountID)) ORDER BY id FOR UPDATE
            """, logger)
        {
            let (id, name, founder) = try row.decode((Int64, String, Int64).self)
            let others = founder == accountID ? try await members(db, id, logger) : []
            let departure = FamilyRules.departure(
                familyID: id, name: name, founderID: founder, leaving: accountID, others: others)
            if let successor = departure.newFounderId {
                try await db.query("UPDATE family SET founderId = \(successor) WHERE id = \(id)", logger: logger)
                try await db.query(
                    "UPDATE familyMember SET role = 'founder' WHERE familyId = \(id) AND accountId = \(successor)",
                    logger: logger)
            } else if departure.removed {
                try await db.query("DELETE FROM family WHERE id = \(id)", logger: logger)
            }
            if !departure.removed { try await detach(db, id, accountID: accountID, logger) }
            departures.append(departure)
        }
        return departures
    }

    public func allFamilies() async throws -> [Stored<FamilyRecord>] {
        try await rows("SELECT \(unescaped: Self.familyColumns) FROM family").map(Self.family)
    }

    public func allFamilyMembers() async throws -> [Int64: Set<Int64>] {
        var result: [Int64: Set<Int64>] = [:]
        for row in try await rows("SELECT familyId, accountId FROM familyMember") {
            let (family, account) = try row.decode((Int64, Int64).self)
            result[family, default: []].insert(account)
        }
        return result
    }

    public func familyMemberIDs(_ familyID: Int64) async throws -> Set<Int64> {
        try await ids("SELECT accountId FROM familyMember WHERE familyId = \(familyID)")
    }

    public func childFamilies(of familyID: Int64) async throws -> [Stored<FamilyRecord>] {
        try await rows("SELECT \(unescaped: Self.familyColumns) FROM family WHERE parentFamilyId = \(familyID)")
            .map(Self.family)
    }

    public func addFamilyPost(_ post: FamilyPost) async throws -> Stored<FamilyPost> {
        try await rows(
            """
            INSERT INTO familyPost (familyId, accountId, kind, text, imageId, eventDate, likes, comments, createdAt)
            VALUES (\(post.familyId), \(post.accountId), \(post.kind), \(post.text), \(post.imageId), \(post.eventDate),
              0, 0, \(post.createdAt))
            RETURNING \(unescaped: Self.postColumns)
            """
        ).map(Self.post)[0]
    }

    public func familyPost(id: Int64) async throws -> Stored<FamilyPost>? {
        try await rows("SELECT \(unescaped: Self.postColumns) FROM familyPost WHERE id = \(id)").first.map(Self.post)
    }

    public func familyPosts(_ familyID: Int64, page: Int) async throws -> (
        posts: [(Stored<FamilyPost>, String)], total: Int
    ) {
        let size = Int64(StoreLimits.familyPostPageSize)
        let total = try await rows("SELECT COUNT(*) FROM familyPost WHERE familyId = \(familyID)")[0].decode(Int64.self)
        let posts = try await rows(
            """
            SELECT \(unescaped: Self.qualified(Self.postColumns, "familyPost")), account.name FROM familyPost
            JOIN account ON account.id = familyPost.accountId WHERE familyId = \(familyID)
            ORDER BY familyPost.id DESC LIMIT \(size) OFFSET \(Int64(page - 1) * size)
            """
        ).map { row in (try Self.post(row), try row.makeRandomAccess()[10].decode(String.self)) }
        return (posts, Int(total))
    }

    public func likedPosts(_ postIDs: [Int64], accountID: Int64) async throws -> Set<Int64> {
        guard !postIDs.isEmpty else { return [] }
        return Set(
            try await rows("SELECT postId FROM postLike WHERE accountId = \(accountID) AND postId = ANY(\(postIDs))")
                .map { try $0.decode(Int64.self) })
    }

    public func familyPicturePosts(_ familyID: Int64, limit: Int) async throws -> [(Stored<FamilyPost>, String)] {
        try await rows(
            """
            SELECT \(unescaped: Self.qualified(Self.postColumns, "familyPost")), account.name FROM familyPost
            JOIN account ON account.id = familyPost.accountId
            WHERE familyId = \(familyID) AND imageId IS NOT NULL
            ORDER BY familyPost.id DESC LIMIT \(Int64(limit))
            """
        ).map { row in (try Self.post(row), try row.makeRandomAccess()[10].decode(String.self)) }
    }

    /// One statement, as meme likes: the post's row is locked only while it runs, not across the
    /// three round trips of a transaction that took it first (a family liking a post at once
    /// queued behind it on a loaded database). The count moves by what changed; the locks come in
    /// the order every mark takes them (`MarkStatement`).
    public func likePost(_ postID: Int64, accountID: Int64, on: Bool) async throws -> (changed: Bool, count: Int)? {
        let changes =
            on
            ? """
            changed AS (
              INSERT INTO postLike (postId, accountId) SELECT id, $1 FROM target ON CONFLICT DO NOTHING RETURNING 1)
            """
            : """
            changed AS (
              DELETE FROM postLike WHERE postId = $2 AND accountId = $1 AND EXISTS (SELECT 1 FROM target) RETURNING 1)
            """
        let row = try await mark(
            MarkStatement(
                table: "familyPost", changes: changes,
                counts: "likes = likes \(on ? "+" : "-") (SELECT COUNT(*) FROM changed)",
                answer: "(SELECT likes FROM counted), (SELECT COUNT(*) FROM changed)"),
            Self.markBinds(account: accountID, target: postID))
        guard let count = try row[1].decode(Int64?.self) else { return nil }
        return (try row[2].decode(Int64.self) > 0, Int(count))
    }
}
