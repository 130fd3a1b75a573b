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

    public func publish(_ events: [[UInt8]], from node: String) async throws {
        guard !events.isEmpty else { return }
        try await run(Self.logAndAnnounce(events, from: node))
    }

    /// One statement, one transaction: the batch is logged whole and in order, and announced by
    /// one notification, "LAST NODE {"v":2,"first":FIRST,"e":"ID:B64,ID:B64,…"}": its first and
    /// last ids and its events in base64, or without "e" when they would not fit (NOTIFY refuses
    /// 8,000 bytes): listeners then read them from the log. A node from before the binary form
    /// reads that notification (and the log's `payload` column, `newerFormat`) as an event of a
    /// version it does not know: refused, logged and counted there, never misread.
    static func logAndAnnounce(_ events: [[UInt8]], from node: String) -> PostgresQuery {
        let buffers = events.map { ByteBuffer(bytes: $0) }
        return """
            WITH logged AS (
              INSERT INTO networkEvent (fromNode, payload, data)
              SELECT \(node), \(newerFormat), event
              FROM unnest(\(buffers)::bytea[]) WITH ORDINALITY AS batch(event, n) ORDER BY n
              RETURNING id, data),
            batch AS (
              SELECT min(id) AS first, max(id) AS last,
                string_agg(id || ':' || translate(encode(data, 'base64'), E'\\n', ''), ',' ORDER BY id) AS inline
              FROM logged),
            note AS (
              SELECT last || ' ' || \(node) || ' {"v":2,"first":' || first AS head, inline FROM batch)
            -- The whole notification is measured (ids and node name too), not the events alone.
            SELECT pg_notify(\(busChannel), CASE
                WHEN octet_length(head || ',"e":"' || inline || '"}') < \(NetworkLimits.notifyPayloadLimit)
                THEN head || ',"e":"' || inline || '"}' ELSE head || '}' END)
            FROM note
            """
    }

    /// The `payload` of an event logged in binary (in `data`): what a node that reads only JSON
    /// sees, a version newer than its own.
    static let newerFormat = #"{"v":2}"#
    /// How a batch's notification ends after its first id.
    static let batchMark = #"{"v":2,"first":"#
    /// Events read from the log per query.
    static let fetchLimit = 512

    public func subscribe(ignoring node: String) -> AsyncThrowingStream<NetworkDelivery, any Error> {
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
                    // The last event read from each node's log: a notification whose batch an
                    // earlier read already took (it read on past its own batch) costs nothing.
                    var read: [String: Int64] = [:]
                    for try await notification in notifications {
                        let text = notification.payload
                        for delivery in try await self.deliveries(text, read: &read, ignoring: node) {
                            continuation.yield(delivery)
                        }
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
            "SELECT id, data, payload FROM networkEvent WHERE fromNode = \(node) AND id > \(id) ORDER BY id"
        ).map { try Self.delivery($0, node: node) }
    }

    /// A notification's events: a batch ("LAST NODE {"v":2,"first":FIRST…}"), carried in it or
    /// read from the log with what that node logged after it; or, from a node before the binary
    /// form, one event ("ID NODE EVENT", or "ID NODE @" for one kept in the log only).
    func deliveries(_ text: String, read: inout [String: Int64], ignoring listener: String) async throws
        -> [NetworkDelivery]
    {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let id = Int64(parts[0]) else { return [] }
        let node = String(parts[1])
        if node == listener { return [] }
        if parts[2].hasPrefix(Self.batchMark) {
            let rest = parts[2].dropFirst(Self.batchMark.count)
            guard let first = Int64(rest.prefix { $0.isNumber }) else { return [] }
            guard id > read[node] ?? 0 else { return [] }
            let inline = rest.drop { $0.isNumber }
            if inline.hasPrefix(#","e":""#), inline.hasSuffix(#""}"#) {
                read[node] = id
                return Self.inlined(inline.dropFirst(6).dropLast(2), node: node)
            }
            return try await fetch(node, after: max(first - 1, read[node] ?? 0), through: id, read: &read)
        }
        guard parts[2] == "@" else { return [NetworkDelivery(id: id, node: node, payload: String(parts[2]))] }
        let row = try await rows("SELECT id, data, payload FROM networkEvent WHERE id = \(id)").first
        return try row.map { [try Self.delivery($0, node: node)] } ?? []
    }

    /// `node`'s events after `after` from the log, at least through `last`, `fetchLimit` a query.
    func fetch(_ node: String, after: Int64, through last: Int64, read: inout [String: Int64]) async throws
        -> [NetworkDelivery]
    {
        var after = after
        var all: [NetworkDelivery] = []
        while true {
            let got = try await rows(
                """
                SELECT id, data, payload FROM networkEvent WHERE fromNode = \(node) AND id > \(after)
                ORDER BY id LIMIT \(Self.fetchLimit)
                """
            ).map { try Self.delivery($0, node: node) }
            all += got
            after = got.last?.id ?? after
            if got.count < Self.fetchLimit || after >= last { break }
        }
        // Gone from the log before it was read (past retention): the catch-up rules apply.
        read[node] = max(after, last)
        return all
    }

    /// A batch's events carried in its notification: "ID:BASE64", comma-separated.
    static func inlined(_ text: Substring, node: String) -> [NetworkDelivery] {
        text.split(separator: ",").compactMap { entry in
            let (id, event) = (entry.prefix { $0 != ":" }, entry.drop { $0 != ":" }.dropFirst())
            guard let id = Int64(id) else { return nil }
            // Not base64: handed on empty, so the node refuses it and counts it.
            let payload = Data(base64Encoded: String(event)).map { Array($0) } ?? []
            return NetworkDelivery(id: id, node: node, payload: payload)
        }
    }

    /// A logged event: its binary form, or the JSON of a node before it.
    static func delivery(_ row: PostgresRow, node: String) throws -> NetworkDelivery {
        let (id, data, payload) = try row.decode((Int64, ByteBuffer?, String).self)
        guard let data else { return NetworkDelivery(id: id, node: node, payload: payload) }
        return NetworkDelivery(id: id, node: node, payload: Array(data.readableBytesView))
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
