import Foundation
import GRDB
import PostgresNIO

/// `hearth migrate`: copies a whole SQLite Hearth — every table and every picture — into an
/// empty PostgreSQL one, then checks that each table has as many rows on both sides. Each
/// table is one transaction; ids are kept (and the identity sequences moved past them).
extension PostgresStore {
    /// Tables in an order their foreign keys allow.
    static let importOrder = [
        "account", "resumeToken", "recoveryCode", "follow", "block", "setting", "activity", "offlineMessage",
        "registeredChannel", "history", "historyAccess", "readMarker", "image", "uploadTicket", "template", "meme",
        "memeLike", "memeFav", "renderCache", "comment", "fortune", "pointsEvent", "lastLocation", "recipe",
        "recipeDraft", "recipeVote", "recipeSave", "family", "familyMember", "familyPerson", "familyLink",
        "familyInvite", "familyPost", "postLike", "familyAnnouncement", "scramCredential", "formerName",
        "registrationInvite", "pushSubscription", "serverBan", "channelListEntry", "channelAccess", "alwaysOnPresence",
        "clientCertificate", "profileField",
        "mealPlan", "shopItem",
    ]

    /// What was copied: rows per table, and pictures.
    public struct ImportSummary: Sendable {
        public var rows: [(table: String, count: Int)]
        public var pictures: Int
    }

    public struct ImportProblem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public func importSQLite(_ source: SQLiteStore, mediaDirectory: String) async throws -> ImportSummary {
        let existing = try await rows("SELECT (SELECT COUNT(*) FROM account) + (SELECT COUNT(*) FROM history)")[0]
            .decode(Int64.self)
        guard existing == 0 else {
            throw ImportProblem(
                description: "\(url) already holds Hearth data; migrate into an empty database only")
        }
        var summary = ImportSummary(rows: [], pictures: 0)
        for table in Self.importOrder {
            let count = try await importTable(table, from: source)
            summary.rows.append((table, count))
        }
        for image in try await source.pool.read({ db in try Row.fetchAll(db, sql: "SELECT id, format FROM image") }) {
            let id: String = image["id"]
            let format: String = image["format"]
            let ext = format == "jpeg" ? "jpg" : format
            let file = (mediaDirectory as NSString).appendingPathComponent("\(id).\(ext)")
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            try await putPicture(id: id, bytes: [UInt8](bytes))
            summary.pictures += 1
        }
        return summary
    }

    /// Copies one table; returns its row count, checked on both sides.
    func importTable(_ table: String, from source: SQLiteStore) async throws -> Int {
        // The PostgreSQL columns and types; SQLite's rowid is familyInvite's id there.
        let columns = try await rows(
            """
            SELECT column_name::text, data_type::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(table.lowercased()) AND is_generated = 'NEVER'
            ORDER BY ordinal_position
            """
        ).map { try $0.decode((String, String).self) }
        let sourceRows = try await source.pool.read { db -> [Row] in
            let select = table == "familyInvite" ? "SELECT rowid AS id, * FROM familyInvite" : "SELECT * FROM \(table)"
            return try Row.fetchAll(db, sql: select)
        }
        let names = columns.map(\.0)
        let casts = columns.enumerated().map { index, column in "$\(index + 1)::\(column.1)" }
        let sql = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(casts.joined(separator: ", ")))"
        let rowBinds = sourceRows.map { row in
            var binds = PostgresBindings()
            for (name, type) in columns {
                // SQLite names are camelCase; PostgreSQL folded them to lower case.
                let value = row.columnNames.first { $0.lowercased() == name }.map { row[$0] as DatabaseValue }
                Self.bind(value ?? .null, type: type, into: &binds)
            }
            return binds
        }
        try await transaction { db in
            for binds in rowBinds {
                try await db.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: self.logger)
            }
            let identity = try await db.rows(
                """
                SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
                  AND table_name = \(table.lowercased()) AND column_name = 'id' AND is_identity = 'YES'
                """, self.logger)
            if !identity.isEmpty {
                // New rows get ids after the copied ones.
                try await db.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT setval(pg_get_serial_sequence('\(table.lowercased())', 'id'),
                              GREATEST((SELECT MAX(id) FROM \(table)), 1))
                            """), logger: self.logger)
            }
        }
        let copied = try await rows(PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM \(table)"))[0].decode(Int64.self)
        guard copied == sourceRows.count else {
            throw ImportProblem(description: "\(table): \(sourceRows.count) rows in SQLite but \(copied) copied")
        }
        return sourceRows.count
    }

    /// One SQLite value as a text bind cast to the column's type (dates are UTC in SQLite).
    static func bind(_ value: DatabaseValue, type: String, into binds: inout PostgresBindings) {
        switch value.storage {
        case .null: binds.appendNull()
        case .int64(let n): binds.append(String(n))
        case .double(let d): binds.append(String(d))
        case .string(let s): binds.append(type.hasPrefix("timestamp") ? s + "+00" : s)
        case .blob(let data): binds.append(String(decoding: data, as: UTF8.self))
        }
    }
}
