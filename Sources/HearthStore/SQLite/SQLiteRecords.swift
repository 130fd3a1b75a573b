import GRDB

// How the store's value types map to SQLite rows (GRDB records); the model knows no engine.

extension Account: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "account"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension FamilyRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "family"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension FamilyPost: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "familyPost"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension FortuneRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "fortune"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension ImageRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "image"
}

extension TemplateRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "template"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension MemeRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "meme"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension RecipeRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "recipe"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
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
