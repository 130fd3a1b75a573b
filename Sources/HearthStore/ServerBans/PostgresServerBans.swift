import Foundation
import PostgresNIO

extension PostgresStore: ServerBanStore {
    public func serverBans(now: Date) async throws -> [ServerBan] {
        try await run("DELETE FROM serverBan WHERE expiresAt <= \(now)")
        return try await rows(
            "SELECT target, kind, reason, setBy, createdAt, expiresAt FROM serverBan ORDER BY createdAt"
        ).map { row in
            let (target, kind, reason, setBy, createdAt, expiresAt) = try row.decode(
                (String, String, String, String, Date, Date?).self)
            return ServerBan(
                target: target, kind: ServerBan.Kind(rawValue: kind) ?? .mask, reason: reason, setBy: setBy,
                createdAt: createdAt, expiresAt: expiresAt)
        }
    }

    public func addServerBan(_ ban: ServerBan) async throws {
        try await run(
            """
            INSERT INTO serverBan (target, kind, reason, setBy, createdAt, expiresAt)
            VALUES (\(ban.target), \(ban.kind.rawValue), \(ban.reason), \(ban.setBy), \(ban.createdAt),
              \(ban.expiresAt))
            ON CONFLICT (target) DO UPDATE SET kind = EXCLUDED.kind, reason = EXCLUDED.reason,
              setBy = EXCLUDED.setBy, createdAt = EXCLUDED.createdAt, expiresAt = EXCLUDED.expiresAt
            """)
    }

    public func removeServerBan(target: String) async throws -> Bool {
        !(try await rows("DELETE FROM serverBan WHERE target = \(target) RETURNING 1")).isEmpty
    }
}
