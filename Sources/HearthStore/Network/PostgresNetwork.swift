import Foundation
import Logging
import NIOPosix
import PostgresNIO

/// The network on PostgreSQL: nodes and their heartbeats, network-wide nicks, and a bus on
/// LISTEN/NOTIFY. Every event is logged in `networkEvent` (kept `NetworkLimits.eventRetention`)
/// and announced on one channel; each node publishes through one task, so its events are
/// logged and arrive in order, and a node that lost the bus reads what it missed from the log.
extension PostgresStore: NetworkStore {
    public var network: (any NetworkStore)? { self }

    static let busChannel = "hearth_network"

    public func joinNetwork(node: String) async throws -> [NetworkNick] {
        try await transaction { db in
            let held = try await Self.takeNicks(db, node: node, self.logger)
            // The first node of a network that stopped: no channel is left from before.
            let timeout = Double(NetworkLimits.nodeTimeout.components.seconds)
            let others = try await db.rows(
                """
                SELECT count(*) FROM node
                WHERE name <> \(node) AND heartbeatAt > now() - make_interval(secs => \(timeout))
                """, self.logger)[0].decode(Int64.self)
            if others == 0 { try await db.query("DELETE FROM networkChannel", logger: self.logger) }
            try await db.query(
                """
                INSERT INTO node (name, startedAt, heartbeatAt, users) VALUES (\(node), now(), now(), 0)
                ON CONFLICT (name) DO UPDATE SET startedAt = now(), heartbeatAt = now(), users = 0
                """, logger: self.logger)
            return held
        }
    }

    public func leaveNetwork(node: String) async throws {
        try await transaction { db in
            _ = try await Self.takeNicks(db, node: node, self.logger)
            try await db.query("DELETE FROM node WHERE name = \(node)", logger: self.logger)
        }
    }

    public func heartbeat(node: String, users: Int, reap: Bool) async throws -> Heartbeat {
        let timeout = Double(NetworkLimits.nodeTimeout.components.seconds)
        let retention = Double(NetworkLimits.eventRetention.components.seconds)
        return try await transaction { db in
            // A node the others gave up for lost (a long stall) comes back under its name.
            let returned = try await db.rows(
                """
                INSERT INTO node (name, startedAt, heartbeatAt, users) VALUES (\(node), now(), now(), \(users))
                ON CONFLICT (name) DO UPDATE SET heartbeatAt = now(), users = excluded.users
                RETURNING xmax = 0
                """, self.logger)[0].decode(Bool.self)
            guard reap else { return Heartbeat(returned: returned) }
            let lost = try await db.rows(
                """
                DELETE FROM node WHERE name <> \(node) AND heartbeatAt < now() - make_interval(secs => \(timeout))
                RETURNING name
                """, self.logger
            ).map { try $0.decode(String.self) }
            var result = Heartbeat(returned: returned)
            for name in lost { result.lost.append((name, try await Self.takeNicks(db, node: name, self.logger))) }
            try await db.query(
                "DELETE FROM networkEvent WHERE createdAt < now() - make_interval(secs => \(retention))",
                logger: self.logger)
            return result
        }
    }

    public func nodes() async throws -> [NodeInfo] {
        try await rows("SELECT name, startedAt, heartbeatAt, users FROM node ORDER BY name").map { row in
            let (name, started, beat, users) = try row.decode((String, Date, Date, Int64).self)
            return NodeInfo(name: name, startedAt: started, heartbeatAt: beat, users: Int(users))
        }
    }

    public func claimNick(_ claim: NetworkNick) async throws -> Bool {
        try await transaction { db in
            // Claims of one nick take turns, whichever node they come from.
            try await db.query("SELECT pg_advisory_xact_lock(hashtext(\(claim.nickKey)))", logger: self.logger)
            let holders = try await db.rows(
                "SELECT node, session, accountId FROM networkNick WHERE nickKey = \(claim.nickKey)", self.logger
            ).map { try $0.decode((String, Int64, Int64?).self) }
            for (node, session, account) in holders where node == claim.node && Int(session) == claim.session {
                // Its own claim again, after a login or logout: the account it speaks for now.
                if account != claim.accountID {
                    try await db.query(
                        """
                        UPDATE networkNick SET accountId = \(claim.accountID)
                        WHERE nickKey = \(claim.nickKey) AND node = \(node) AND session = \(session)
                        """, logger: self.logger)
                }
                return true
            }
            for (_, _, account) in holders {
                if account == nil || account != claim.accountID { return false }
            }
            try await db.query(
                """
                INSERT INTO networkNick (nickKey, node, session, accountId)
                VALUES (\(claim.nickKey), \(claim.node), \(Int64(claim.session)), \(claim.accountID))
                """, logger: self.logger)
            return true
        }
    }

    public func releaseNick(_ nickKey: String, node: String, session: Int) async throws {
        try await run(
            "DELETE FROM networkNick WHERE nickKey = \(nickKey) AND node = \(node) AND session = \(Int64(session))")
    }

    public func claimChannel(_ channelKey: String, historyKey: String) async throws -> ChannelClaim {
        let rows = try await rows(
            """
            INSERT INTO networkChannel (channelKey, historyKey) VALUES (\(channelKey), \(historyKey))
            ON CONFLICT (channelKey) DO UPDATE SET channelKey = excluded.channelKey
            RETURNING historyKey, xmax = 0
            """)
        let (key, created) = try rows[0].decode((String, Bool).self)
        return ChannelClaim(historyKey: key, created: created)
    }

    public func releaseChannel(_ channelKey: String, historyKey: String) async throws {
        try await run("DELETE FROM networkChannel WHERE channelKey = \(channelKey) AND historyKey = \(historyKey)")
    }

    public func networkNicks() async throws -> [NetworkNick] {
        try await rows("SELECT nickKey, node, session, accountId FROM networkNick").map(Self.nick)
    }

    public func sweepNicks(node: String, live: [NetworkNick], below: Int) async throws -> [NetworkNick] {
        let keys = live.map(\.nickKey)
        let sessions = live.map { Int64($0.session) }
        return try await rows(
            """
            DELETE FROM networkNick n WHERE n.node = \(node) AND n.session < \(Int64(below))
              AND NOT EXISTS (
                SELECT 1 FROM unnest(\(keys)::text[], \(sessions)::bigint[]) AS held(nickKey, session)
                WHERE held.nickKey = n.nickKey AND held.session = n.session)
            RETURNING nickKey, node, session, accountId
            """
        ).map(Self.nick)
    }

    public func publish(_ events: [String], from node: String) async throws {
        guard !events.isEmpty else { return }
        // One statement, one transaction: the batch is logged and announced whole and in order.
        // A notification carries "ID NODE EVENT", or "ID NODE @" when the event is too big for
        // one (NOTIFY refuses 8,000 bytes) and must be read from the log.
        let limit = NetworkLimits.maxNotifyPayload
        try await run(
            """
            WITH logged AS (
              INSERT INTO networkEvent (fromNode, payload)
              SELECT \(node), event FROM unnest(\(events)::text[]) WITH ORDINALITY AS batch(event, n) ORDER BY n
              RETURNING id, payload)
            SELECT pg_notify(\(Self.busChannel), id || ' ' || \(node) || ' '
              || CASE WHEN octet_length(payload) < \(limit) THEN payload ELSE '@' END)
            FROM logged ORDER BY id
            """)
    }

    public func subscribe() -> AsyncThrowingStream<NetworkDelivery, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: NetworkDelivery.self)
        let configuration = Self.configuration(url)
        let logger = self.logger
        let task = Task {
            do {
                // Its own connection, outside the pool: LISTEN belongs to one session.
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1,
                    logger: logger)
                defer { Task { try? await connection.close() } }
                try await connection.listen(on: Self.busChannel) { notifications in
                    continuation.yield(.listening)
                    for try await notification in notifications {
                        if let delivery = try await self.delivery(notification.payload) { continuation.yield(delivery) }
                    }
                }
                continuation.finish(throwing: Failure(sqlState: nil, message: "the network bus closed"))
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    public func events(from node: String, after id: Int64) async throws -> [NetworkDelivery] {
        try await rows(
            "SELECT id, payload FROM networkEvent WHERE fromNode = \(node) AND id > \(id) ORDER BY id"
        ).map { row in
            let (id, payload) = try row.decode((Int64, String).self)
            return NetworkDelivery(id: id, node: node, payload: payload)
        }
    }

    /// A notification's event ("ID NODE EVENT", or "ID NODE @" for one kept in the log only).
    func delivery(_ text: String) async throws -> NetworkDelivery? {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let id = Int64(parts[0]) else { return nil }
        let node = String(parts[1])
        guard parts[2] == "@" else { return NetworkDelivery(id: id, node: node, payload: String(parts[2])) }
        let payload = try await rows("SELECT payload FROM networkEvent WHERE id = \(id)").first?.decode(String.self)
        return payload.map { NetworkDelivery(id: id, node: node, payload: $0) }
    }

    static func nick(_ row: PostgresRow) throws -> NetworkNick {
        let (key, node, session, account) = try row.decode((String, String, Int64, Int64?).self)
        return NetworkNick(nickKey: key, node: node, session: Int(session), accountID: account)
    }

    static func takeNicks(_ db: PostgresConnection, node: String, _ logger: Logger) async throws -> [NetworkNick] {
        try await db.rows(
            "DELETE FROM networkNick WHERE node = \(node) RETURNING nickKey, node, session, accountId", logger
        ).map(nick)
    }
}
