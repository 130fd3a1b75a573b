import Foundation
import GRDB

extension SQLiteStore: AlwaysOnStore {
    public func alwaysOnPresences() async throws -> [StoredPresence] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT p.*, a.name AS accountName, s.value AS choice FROM alwaysOnPresence p
                    JOIN account a ON a.id = p.accountId
                    LEFT JOIN setting s ON s.accountId = p.accountId AND s.key = ?
                    ORDER BY p.accountId
                    """,
                arguments: [AlwaysOnRules.settingKey]
            ).map { row in
                StoredPresence(
                    presence: AlwaysOnPresence(
                        accountID: row["accountId"], nick: row["nick"], user: row["userName"], host: row["host"],
                        realname: row["realname"], channels: AlwaysOnRules.split(row["channels"]),
                        since: row["since"]),
                    accountName: row["accountName"], choice: AlwaysOnRules.choice(row["choice"]))
            }
        }
    }

    public func keepAlwaysOnPresence(_ p: AlwaysOnPresence) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO alwaysOnPresence (accountId, nick, userName, host, realname, channels, since)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (accountId) DO UPDATE SET nick = excluded.nick, userName = excluded.userName,
                      host = excluded.host, realname = excluded.realname, channels = excluded.channels,
                      since = excluded.since
                    """,
                arguments: [
                    p.accountID, p.nick, p.user, p.host, p.realname, AlwaysOnRules.joined(p.channels), p.since,
                ])
        }
    }

    public func dropAlwaysOnPresence(accountID: Int64) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM alwaysOnPresence WHERE accountId = ?", arguments: [accountID])
        }
    }
}
