import GRDB

// How the store's value types map to SQLite rows (GRDB records); the model knows no engine.

/// A stored value is its row: the `id` column and the value's own columns, in the value's table.
extension Stored: TableRecord where Value: TableRecord {
    public static var databaseTableName: String { Value.databaseTableName }
}

extension Stored: FetchableRecord where Value: FetchableRecord {
    public init(row: Row) throws { self.init(id: row["id"], try Value(row: row)) }
}

extension PersistableRecord where Self: Sendable {
    /// Inserts the value (it has no id column, so SQLite assigns one) and returns it stored.
    func insertStored(_ db: Database) throws -> Stored<Self> {
        try insert(db)
        return Stored(id: db.lastInsertedRowID, self)
    }
}

extension Account: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "account"
}

extension FamilyRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "family"
}

extension FamilyPost: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "familyPost"
}

extension FortuneRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "fortune"
}

extension ImageRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "image"
}

extension TemplateRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "template"
}

extension MemeRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "meme"
}

extension RecipeRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "recipe"
}

extension RecipeDraft: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "recipeDraft"
}

extension RegisteredChannel: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "registeredChannel"
}

extension FamilyRole: DatabaseValueConvertible {}
extension FamilyRelation: DatabaseValueConvertible {}
extension FamilyLinkKind: DatabaseValueConvertible {}

extension Stored where Value: PersistableRecord {
    /// Writes the value's columns over its row.
    func update(_ db: Database) throws {
        let columns = Array(try value.databaseDictionary)
        let assignments = columns.map { "\($0.key.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE \(Value.databaseTableName.quotedDatabaseIdentifier) SET \(assignments) WHERE id = ?",
            arguments: StatementArguments(columns.map(\.value) + [id.databaseValue]))
    }
}
