import GRDB

/// Versioned schema. Never edit a shipped migration: add a new one.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1-accounts") { db in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("nameKey", .text).notNull().unique()
                t.column("passwordHash", .text).notNull()
                t.column("email", .text)
                t.column("phone", .text)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "resumeToken") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("tokenHash", .text).notNull().unique()
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull()
            }
            try db.create(table: "recoveryCode") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("codeHash", .text).notNull()
                t.column("usedAt", .datetime)
                t.uniqueKey(["accountId", "codeHash"])
            }
        }
        return m
    }
}
