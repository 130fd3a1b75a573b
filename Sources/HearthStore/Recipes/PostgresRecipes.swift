import Foundation
import PostgresNIO

/// Recipes, drafts, votes and saves on PostgreSQL, with full-text search on the generated
/// `search` tsvector (GIN index, `ts_rank` with the title weighing most). A vote locks its
/// recipe's row, so the counts moved in the same statement stay exact.
extension PostgresStore: RecipeStore {
    static let recipeColumns =
        "id, accountId, title, ingredients, steps, photoImageId, tags, source, ups, downs, comments, createdAt, "
        + "updatedAt, servings"
    static let recipeSelect = """
        SELECT \(qualified(recipeColumns, "recipe")), account.name
        FROM recipe JOIN account ON account.id = recipe.accountId
        """
    static let draftColumns =
        "accountId, stage, title, ingredients, steps, photoImageId, tags, updatedAt, source, servings"

    static func recipeRecord(_ row: PostgresRow) throws -> Stored<RecipeRecord> {
        let (
            id, accountId, title, ingredients, steps, photo, tags, source, ups, downs, comments, createdAt, updatedAt,
            servings
        ) =
            try row.decode(
                (
                    Int64, Int64, String, String, String, String?, String, String?, Int64, Int64, Int64, Date, Date,
                    Int64?
                ).self)
        var recipe = RecipeRecord(
            accountId: accountId, title: title, ingredients: ingredients, steps: steps, photoImageId: photo, tags: tags,
            source: source, now: createdAt)
        (recipe.ups, recipe.downs, recipe.comments, recipe.updatedAt) = (Int(ups), Int(downs), Int(comments), updatedAt)
        recipe.servings = servings.map(Int.init)
        return Stored(id: id, recipe)
    }

    static func recipeRow(_ row: PostgresRow) throws -> RecipeRow {
        RecipeRow(recipe: try recipeRecord(row), author: try row.makeRandomAccess()[14].decode(String.self))
    }

    public func recipeDraft(accountID: Int64) async throws -> RecipeDraft? {
        try await rows("SELECT \(unescaped: Self.draftColumns) FROM recipeDraft WHERE accountId = \(accountID)")
            .first.map { row in
                let (accountId, stage, title, ingredients, steps, photo, tags, updatedAt, source, servings) =
                    try row.decode((Int64, String, String, String, String, String?, String, Date, String?, Int64?).self)
                var draft = RecipeDraft(accountId: accountId, now: updatedAt)
                draft.stage = RecipeDraft.Stage(rawValue: stage) ?? .title
                (draft.title, draft.ingredients, draft.steps, draft.photoImageId, draft.tags) =
                    (title, ingredients, steps, photo, tags)
                (draft.source, draft.servings) = (source, servings.map(Int.init))
                return draft
            }
    }

    public func saveRecipeDraft(_ draft: RecipeDraft) async throws {
        try await run(
            """
            INSERT INTO recipeDraft (\(unescaped: Self.draftColumns))
            VALUES (\(draft.accountId), \(draft.stage.rawValue), \(draft.title), \(draft.ingredients), \(draft.steps),
              \(draft.photoImageId), \(draft.tags), \(draft.updatedAt), \(draft.source),
              \(draft.servings.map(Int64.init)))
            ON CONFLICT (accountId) DO UPDATE SET stage = excluded.stage, title = excluded.title,
              ingredients = excluded.ingredients, steps = excluded.steps, photoImageId = excluded.photoImageId,
              tags = excluded.tags, updatedAt = excluded.updatedAt, source = excluded.source,
              servings = excluded.servings
            """)
    }

    public func deleteRecipeDraft(accountID: Int64) async throws -> Bool {
        !(try await rows("DELETE FROM recipeDraft WHERE accountId = \(accountID) RETURNING 1")).isEmpty
    }

    public func addRecipe(_ recipe: RecipeRecord, fromDraft: Bool, feedText: String) async throws -> Stored<
        RecipeRecord
    > {
        try await transaction { db in
            let record = try Self.recipeRecord(
                try await db.rows(
                    """
                    INSERT INTO recipe (accountId, title, ingredients, steps, photoImageId, tags, source, ups, downs,
                      comments, createdAt, updatedAt, servings)
                    VALUES (\(recipe.accountId), \(recipe.title), \(recipe.ingredients), \(recipe.steps),
                      \(recipe.photoImageId), \(recipe.tags), \(recipe.source), 0, 0, 0, \(recipe.createdAt),
                      \(recipe.updatedAt), \(recipe.servings.map(Int64.init)))
                    RETURNING \(unescaped: Self.recipeColumns)
                    """, self.logger)[0])
            if fromDraft {
                try await db.query("DELETE FROM recipeDraft WHERE accountId = \(recipe.accountId)", logger: self.logger)
            }
            try await Self.addActivity(
                db, accountID: recipe.accountId, kind: "recipe", subjectID: record.id,
                text: FeedText.filled(feedText, id: record.id), now: Date(), self.logger)
            return record
        }
    }

    public func recipe(id: Int64) async throws -> RecipeRow? {
        try await rows("\(unescaped: Self.recipeSelect) WHERE recipe.id = \(id)").first.map(Self.recipeRow)
    }

    public func updateRecipe(_ recipe: Stored<RecipeRecord>, by accountID: Int64) async throws -> Bool {
        guard recipe.accountId == accountID else { return false }
        return
            !(try await rows(
                """
                UPDATE recipe SET title = \(recipe.title), ingredients = \(recipe.ingredients), steps = \(recipe.steps),
                  photoImageId = \(recipe.photoImageId), tags = \(recipe.tags), source = \(recipe.source),
                  servings = \(recipe.servings.map(Int64.init)), updatedAt = \(Date())
                WHERE id = \(recipe.id) AND accountId = \(accountID) RETURNING 1
                """)).isEmpty
    }

    public func deleteRecipe(id: Int64, by accountID: Int64) async throws -> Bool {
        try await transaction { db in
            let deleted = try await db.rows(
                "DELETE FROM recipe WHERE id = \(id) AND accountId = \(accountID) RETURNING 1", self.logger)
            guard !deleted.isEmpty else { return false }
            try await db.query("DELETE FROM comment WHERE kind = 'recipe' AND targetId = \(id)", logger: self.logger)
            try await db.query("DELETE FROM activity WHERE kind = 'recipe' AND subjectId = \(id)", logger: self.logger)
            return true
        }
    }

    /// One statement, as meme likes: the recipe's row is locked only while it runs, not across the
    /// four round trips of a transaction that took it first (twenty people voting on one recipe at
    /// once queued behind it on a loaded database). The counts move by what changed: the vote's
    /// old value is read under the vote row's lock, so a change of mind moves both. Of two votes
    /// by one account whose first ever vote on the recipe comes at the same moment, one is kept.
    /// The locks come in the order every mark takes them (`MarkStatement`).
    public func vote(recipeID: Int64, accountID: Int64, value: Int) async throws -> (ups: Int, downs: Int)? {
        var binds = Self.markBinds(account: accountID, target: recipeID)
        let changes: String
        if value == 0 {
            changes = """
                delta AS (
                  DELETE FROM recipeVote WHERE recipeId = $2 AND accountId = $1 AND EXISTS (SELECT 1 FROM target)
                  RETURNING value, -1 AS n)
                """
        } else {
            binds.append(Int64(value))
            changes = """
                old AS (
                  SELECT value FROM recipeVote
                  WHERE recipeId = $2 AND accountId = $1 AND EXISTS (SELECT 1 FROM target) FOR UPDATE),
                updated AS (
                  UPDATE recipeVote SET value = $3
                  WHERE recipeId = $2 AND accountId = $1 AND EXISTS (SELECT 1 FROM old)
                  RETURNING value),
                added AS (
                  INSERT INTO recipeVote (recipeId, accountId, value)
                  SELECT id, $1, $3 FROM target WHERE NOT EXISTS (SELECT 1 FROM old)
                  ON CONFLICT DO NOTHING RETURNING value),
                delta AS (
                  SELECT value, 1 AS n FROM updated UNION ALL SELECT value, 1 FROM added
                  UNION ALL SELECT value, -1 FROM old WHERE EXISTS (SELECT 1 FROM updated))
                """
        }
        let row = try await mark(
            MarkStatement(
                table: "recipe", changes: changes,
                counts: """
                    ups = ups + (SELECT COALESCE(SUM(n), 0) FROM delta WHERE value > 0),
                    downs = downs + (SELECT COALESCE(SUM(n), 0) FROM delta WHERE value < 0)
                    """,
                answer: "(SELECT ups FROM counted), (SELECT downs FROM counted)"), binds)
        guard let ups = try row[1].decode(Int64?.self), let downs = try row[2].decode(Int64?.self) else { return nil }
        return (Int(ups), Int(downs))
    }

    public func recipeMarks(_ recipeID: Int64, by accountID: Int64) async throws -> RecipeMarks {
        let row = try await rows(
            """
            SELECT (SELECT value FROM recipeVote WHERE recipeId = \(recipeID) AND accountId = \(accountID)),
              EXISTS (SELECT 1 FROM recipeSave WHERE recipeId = \(recipeID) AND accountId = \(accountID))
            """)[0]
        let (vote, saved) = try row.decode((Int64?, Bool).self)
        return RecipeMarks(vote: Int(vote ?? 0), saved: saved)
    }

    public func saveRecipe(_ recipeID: Int64, for accountID: Int64, saved: Bool) async throws -> Bool? {
        try await transaction { db in
            guard !(try await db.rows("SELECT 1 FROM recipe WHERE id = \(recipeID)", self.logger)).isEmpty else {
                return nil
            }
            let changed: [PostgresRow]
            if saved {
                changed = try await db.rows(
                    """
                    INSERT INTO recipeSave (accountId, recipeId, createdAt)
                    VALUES (\(accountID), \(recipeID), \(Date()))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, self.logger)
            } else {
                changed = try await db.rows(
                    "DELETE FROM recipeSave WHERE accountId = \(accountID) AND recipeId = \(recipeID) RETURNING 1",
                    self.logger)
            }
            return !changed.isEmpty
        }
    }

    public func recipes(order: RecipeOrder, author: Int64?, savedBy: Int64?, page: Int) async throws -> (
        recipes: [RecipeRow], total: Int
    ) {
        let size = Int64(StoreLimits.recipePageSize)
        // Only the filters asked for, so the planner can use the author index.
        var binds = PostgresBindings()
        var filter = "TRUE"
        if let author {
            binds.append(author)
            filter += " AND recipe.accountId = $\(binds.count)"
        }
        if let savedBy {
            binds.append(savedBy)
            filter += " AND recipe.id IN (SELECT recipeId FROM recipeSave WHERE accountId = $\(binds.count))"
        }
        let total = try await rows(
            PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM recipe WHERE \(filter)", binds: binds))[0]
            .decode(Int64.self)
        let orderBy = order == .new ? "recipe.id DESC" : "(recipe.ups - recipe.downs) DESC, recipe.id DESC"
        binds.append(size)
        binds.append(Int64(page - 1) * size)
        let found = try await rows(
            PostgresQuery(
                unsafeSQL: """
                    \(Self.recipeSelect) WHERE \(filter) ORDER BY \(orderBy)
                    LIMIT $\(binds.count - 1) OFFSET $\(binds.count)
                    """, binds: binds)
        ).map(Self.recipeRow)
        return (found, Int(total))
    }

    public func recentRecipes(limit: Int) async throws -> [RecipeRow] {
        try await rows("\(unescaped: Self.recipeSelect) ORDER BY recipe.id DESC LIMIT \(Int64(limit))")
            .map(Self.recipeRow)
    }

    public func searchRecipes(_ search: RecipeSearch, page: Int) async throws -> (recipes: [RecipeRow], total: Int) {
        let size = Int64(StoreLimits.recipePageSize)
        var binds = PostgresBindings()
        binds.append(search.tsquery)
        binds.append(search.tags)
        // An empty query (tags alone) matches every recipe; tags match whole words. The words are
        // stemmed and their accents folded as the index's are.
        let filter = """
            FROM recipe JOIN account ON account.id = recipe.accountId,
              (SELECT CASE WHEN $1 = '' THEN NULL
                ELSE to_tsquery('english', \(PostgresMigrations.foldingAccents("$1"))) END AS q) AS search
            WHERE (search.q IS NULL OR recipe.search @@ search.q)
              AND (SELECT bool_and(position(' ' || t || ' ' IN ' ' || recipe.tags || ' ') > 0)
                   FROM unnest($2::text[]) AS t) IS NOT FALSE
            """
        let total = try await rows(PostgresQuery(unsafeSQL: "SELECT COUNT(*) \(filter)", binds: binds))[0]
            .decode(Int64.self)
        binds.append(size)
        binds.append(Int64(page - 1) * size)
        let found = try await rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT \(Self.qualified(Self.recipeColumns, "recipe")), account.name \(filter)
                    ORDER BY CASE WHEN search.q IS NULL THEN 0 ELSE ts_rank(recipe.search, search.q) END DESC,
                      recipe.id DESC
                    LIMIT $3 OFFSET $4
                    """, binds: binds)
        ).map(Self.recipeRow)
        return (found, Int(total))
    }
}
