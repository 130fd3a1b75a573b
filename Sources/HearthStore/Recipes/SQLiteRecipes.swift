import Foundation
import GRDB

extension SQLiteStore {
    static let recipeSelect =
        "SELECT recipe.*, account.name AS author FROM recipe JOIN account ON account.id = recipe.accountId"

    static func recipeRow(_ row: Row) throws -> RecipeRow {
        RecipeRow(recipe: try Stored<RecipeRecord>(row: row), author: row["author"])
    }

    // MARK: drafts

    public func recipeDraft(accountID: Int64) async throws -> RecipeDraft? {
        try await pool.read { db in try RecipeDraft.fetchOne(db, key: accountID) }
    }

    public func saveRecipeDraft(_ draft: RecipeDraft) async throws {
        try await pool.write { db in try draft.save(db) }
    }

    public func deleteRecipeDraft(accountID: Int64) async throws -> Bool {
        try await pool.write { db in try RecipeDraft.deleteOne(db, key: accountID) }
    }

    /// Publishes a recipe (and forgets the draft it came from, if any).
    public func addRecipe(_ recipe: RecipeRecord, fromDraft: Bool, feedText: String) async throws -> Stored<
        RecipeRecord
    > {
        try await pool.write { db in
            let record = try recipe.insertStored(db)
            if fromDraft { _ = try RecipeDraft.deleteOne(db, key: recipe.accountId) }
            try Self.addActivity(
                db, accountID: recipe.accountId, kind: "recipe", subjectID: record.id,
                text: FeedText.filled(feedText, id: record.id))
            return record
        }
    }

    public func recipe(id: Int64) async throws -> RecipeRow? {
        try await pool.read { db in try Self.recipe(db, id: id) }
    }

    static func recipe(_ db: Database, id: Int64) throws -> RecipeRow? {
        try Row.fetchOne(db.cachedStatement(sql: Self.recipeSelect + " WHERE recipe.id = ?"), arguments: [id])
            .map(Self.recipeRow)
    }

    /// Replaces a recipe's fields if `accountID` wrote it.
    public func updateRecipe(_ recipe: Stored<RecipeRecord>, by accountID: Int64) async throws -> Bool {
        try await pool.write { db in
            guard recipe.accountId == accountID else { return false }
            var updated = recipe
            updated.updatedAt = Date()
            try updated.update(db)
            return true
        }
    }

    /// Deletes a recipe written by `accountID`, with its votes, saves, comments and feed line.
    public func deleteRecipe(id: Int64, by accountID: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM recipe WHERE id = ? AND accountId = ?", arguments: [id, accountID])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM comment WHERE kind = 'recipe' AND targetId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM activity WHERE kind = 'recipe' AND subjectId = ?", arguments: [id])
            return true
        }
    }

    // MARK: votes and saves

    /// Sets the account's vote (+1, -1, or 0 to take it back); counts are recomputed in the
    /// same transaction. Nil when there is no such recipe.
    public func vote(recipeID: Int64, accountID: Int64, value: Int) async throws -> (ups: Int, downs: Int)? {
        try await pool.write { db in
            try Self.requireAccount(db, accountID)
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM recipe WHERE id = ?", arguments: [recipeID]) != nil else {
                return nil
            }
            if value == 0 {
                try db.execute(
                    sql: "DELETE FROM recipeVote WHERE recipeId = ? AND accountId = ?",
                    arguments: [recipeID, accountID])
            } else {
                try db.execute(
                    sql:
                        "INSERT INTO recipeVote (recipeId, accountId, value) VALUES (?, ?, ?) ON "
                        + "CONFLICT(recipeId, accountId) DO UPDATE SET value = excluded.value",
                    arguments: [recipeID, accountID, value])
            }
            try db.execute(
                sql: """
                    UPDATE recipe SET ups = (SELECT COUNT(*) FROM recipeVote WHERE recipeId = :id AND value > 0),
                      downs = (SELECT COUNT(*) FROM recipeVote WHERE recipeId = :id AND value < 0) WHERE id = :id
                    """, arguments: ["id": recipeID])
            let row = try Row.fetchOne(db, sql: "SELECT ups, downs FROM recipe WHERE id = ?", arguments: [recipeID])!
            return (row[0], row[1])
        }
    }

    public func saveRecipe(_ recipeID: Int64, for accountID: Int64, saved: Bool) async throws -> Bool? {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM recipe WHERE id = ?", arguments: [recipeID]) != nil else {
                return nil
            }
            if saved {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO recipeSave (accountId, recipeId, createdAt) VALUES (?, ?, ?)",
                    arguments: [accountID, recipeID, Date()])
            } else {
                try db.execute(
                    sql: "DELETE FROM recipeSave WHERE accountId = ? AND recipeId = ?",
                    arguments: [accountID, recipeID])
            }
            return db.changesCount == 1
        }
    }

    public func recipeMarks(_ recipeID: Int64, by accountID: Int64) async throws -> RecipeMarks {
        try await pool.read { db in
            let vote = try Int.fetchOne(
                db, sql: "SELECT value FROM recipeVote WHERE recipeId = ? AND accountId = ?",
                arguments: [recipeID, accountID])
            let saved = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM recipeSave WHERE recipeId = ? AND accountId = ?",
                arguments: [recipeID, accountID])
            return RecipeMarks(vote: vote ?? 0, saved: saved != nil)
        }
    }

    // MARK: lists

    /// Recipes newest first or by score, optionally by one author or only the caller's saves.
    public func recipes(order: RecipeOrder, author: Int64? = nil, savedBy: Int64? = nil, page: Int) async throws -> (
        recipes: [RecipeRow], total: Int
    ) {
        try await pool.read { db in
            var filter = "WHERE 1 = 1"
            var arguments: [String: (any DatabaseValueConvertible)?] = [:]
            if let author {
                filter += " AND recipe.accountId = :author"
                arguments["author"] = author
            }
            if let savedBy {
                filter += " AND recipe.id IN (SELECT recipeId FROM recipeSave WHERE accountId = :saver)"
                arguments["saver"] = savedBy
            }
            let total =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM recipe \(filter)", arguments: StatementArguments(arguments)) ?? 0
            let orderBy = order == .new ? "recipe.id DESC" : "(recipe.ups - recipe.downs) DESC, recipe.id DESC"
            arguments["limit"] = StoreLimits.recipePageSize
            arguments["offset"] = (page - 1) * StoreLimits.recipePageSize
            let rows = try Row.fetchAll(
                db, sql: Self.recipeSelect + " \(filter) ORDER BY \(orderBy) LIMIT :limit OFFSET :offset",
                arguments: StatementArguments(arguments))
            return (try rows.map(Self.recipeRow), total)
        }
    }

    /// Recent recipes (for hot and for-you ranking done by the caller).
    public func recentRecipes(limit: Int = StoreLimits.hotCandidates) async throws -> [RecipeRow] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: Self.recipeSelect + " ORDER BY recipe.id DESC LIMIT ?"), arguments: [limit]
            ).map(Self.recipeRow)
        }
    }

    /// Full-text search with FTS5; bm25 ranks the title highest, then tags, ingredients, steps.
    /// Tags filter on whole words.
    public func searchRecipes(_ search: RecipeSearch, page: Int) async throws -> (recipes: [RecipeRow], total: Int) {
        let match = search.fts5Match
        let tags = search.tags
        return try await pool.read { db in
            // Tags alone: every recipe with them, newest first.
            var filter = match.isEmpty ? "1 = 1" : "recipeSearch MATCH :match"
            var arguments: [String: (any DatabaseValueConvertible)?] = match.isEmpty ? [:] : ["match": match]
            for (index, tag) in tags.enumerated() {
                filter += " AND (' ' || recipe.tags || ' ') LIKE :tag\(index)"
                arguments["tag\(index)"] = "% \(tag) %"
            }
            let join = match.isEmpty ? "" : "JOIN recipeSearch ON recipeSearch.rowid = recipe.id"
            let from = "FROM recipe \(join) JOIN account ON account.id = recipe.accountId WHERE \(filter)"
            let total =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) \(from)", arguments: StatementArguments(arguments)) ?? 0
            arguments["limit"] = StoreLimits.recipePageSize
            arguments["offset"] = (page - 1) * StoreLimits.recipePageSize
            // bm25: lower is better; the title weighs most, then tags, ingredients, steps.
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT recipe.*, account.name AS author \(from) ORDER BY "
                    + "\(match.isEmpty ? "" : "bm25(recipeSearch, 10.0, 5.0, 3.0, 1.0), ")recipe.id DESC "
                    + "LIMIT :limit OFFSET :offset",
                arguments: StatementArguments(arguments))
            return (try rows.map(Self.recipeRow), total)
        }
    }
}
