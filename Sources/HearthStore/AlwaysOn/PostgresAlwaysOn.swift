import Foundation
import PostgresNIO

extension PostgresStore: AlwaysOnStore {
    public func alwaysOnPresences() async throws -> [StoredPresence] {
        try await rows(
            """
            SELECT p.accountId, p.nick, p.userName, p.host, p.realname, p.channels, p.since, a.name, s.value
            FROM alwaysOnPresence p JOIN account a ON a.id = p.accountId
            LEFT JOIN setting s ON s.accountId = p.accountId AND s.key = \(AlwaysOnRules.settingKey)
            ORDER BY p.accountId
            """
        ).map { row in
            let (id, nick, user, host, realname, channels, since, name, choice) = try row.decode(
                (Int64, String, String, String, String, String, Date, String, String?).self)
            return StoredPresence(
                presence: AlwaysOnPresence(
                    accountID: id, nick: nick, user: user, host: host, realname: realname,
                    channels: AlwaysOnRules.split(channels), since: since),
                accountName: name, choice: AlwaysOnRules.choice(choice))
        }
    }

    public func keepAlwaysOnPresence(_ p: AlwaysOnPresence) async throws {
        _ = try await rows(
            """
            INSERT INTO alwaysOnPresence (accountId, nick, userName, host, realname, channels, since)
            VALUES (\(p.accountID), \(p.nick), \(p.user), \(p.host), \(p.realname),
              \(AlwaysOnRules.joined(p.channels)), \(p.since))
            ON CONFLICT (accountId) DO UPDATE SET nick = excluded.nick, userName = excluded.userName,
              host = excluded.host, realname = excluded.realname, channels = excluded.channels,
              since = excluded.since
            """)
    }

    public func dropAlwaysOnPresence(accountID: Int64) async throws {
        _ = try await rows("DELETE FROM alwaysOnPresence WHERE accountId = \(accountID)")
    }
}
