import Foundation
import Logging
import NIOPosix
import PostgresNIO

/// The network on PostgreSQL: nodes and their heartbeats, network-wide nicks, and a bus on
/// LISTEN/NOTIFY. One channel carries every event; each node publishes through one task, so
/// its events arrive in order. Events too big for NOTIFY (8,000 bytes) wait in `networkEvent`
/// and the notification names their row.
extension PostgresStore: NetworkStore {
    public var network: (any NetworkStore)? { self }

    static let busChannel = "hearth_network"

    public func joinNetwork(node: String) async throws -> [NetworkNick] {
        try await transaction { db in
            let held = try await Self.takeNicks(db, node: node, self.logger)
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

    public func heartbeat(node: String, users: Int) async throws -> [(node: String, nicks: [NetworkNick])] {
        let timeout = Double(NetworkLimits.nodeTimeout.components.seconds)
        let retention = Double(NetworkLimits.eventRetention.components.seconds)
        return try await transaction { db in
            // A node the others gave up for lost (a long stall) comes back under its name.
            try await db.query(
                """
                INSERT INTO node (name, startedAt, heartbeatAt, users) VALUES (\(node), now(), now(), \(users))
                ON CONFLICT (name) DO UPDATE SET heartbeatAt = now(), users = excluded.users
                """, logger: self.logger)
            let lost = try await db.rows(
                """
                DELETE FROM node WHERE name <> \(node) AND heartbeatAt < now() - make_interval(secs => \(timeout))
                RETURNING name
                """, self.logger
            ).map { try $0.decode(String.self) }
            var result: [(node: String, nicks: [NetworkNick])] = []
            for name in lost { result.append((name, try await Self.takeNicks(db, node: name, self.logger))) }
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
            for (node, session, account) in holders {
                if node == claim.node && Int(session) == claim.session { return true }
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

    public func networkNicks() async throws -> [NetworkNick] {
        try await rows("SELECT nickKey, node, session, accountId FROM networkNick").map(Self.nick)
    }

    public func publish(_ events: [String]) async throws {
        guard !events.isEmpty else { return }
        var payloads: [String] = []
        for event in events {
            if event.utf8.count <= NetworkLimits.maxNotifyPayload {
                payloads.append(event)
            } else {
                let id = try await rows("INSERT INTO networkEvent (payload) VALUES (\(event)) RETURNING id")[0]
                    .decode(Int64.self)
                payloads.append("@\(id)")
            }
        }
        // One statement, one transaction: the batch arrives whole and in order.
        var bindings = PostgresBindings(capacity: payloads.count)
        for payload in payloads { bindings.append(payload) }
        let calls = payloads.indices.map { "pg_notify('\(Self.busChannel)', $\($0 + 1))" }.joined(separator: ", ")
        try await run(PostgresQuery(unsafeSQL: "SELECT \(calls)", binds: bindings))
    }

    public func subscribe() -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self)
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
                    continuation.yield("")  // listening from here on
                    for try await notification in notifications {
                        continuation.yield(try await self.resolve(notification.payload))
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

    /// A notification's event: itself, or the oversized event its `@id` names.
    func resolve(_ payload: String) async throws -> String {
        guard payload.hasPrefix("@"), let id = Int64(payload.dropFirst()) else { return payload }
        return try await rows("SELECT payload FROM networkEvent WHERE id = \(id)").first?.decode(String.self) ?? ""
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
