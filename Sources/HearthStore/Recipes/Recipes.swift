import Foundation

public struct RecipeRecord: Codable, Sendable, Equatable {
    public var accountId: Int64
    public var title: String
    /// One ingredient per line, one step per line.
    public var ingredients: String
    public var steps: String
    public var photoImageId: String?
    /// Lower-case words (cuisines and diets), space-separated.
    public var tags: String
    public var source: String?
    /// How many it feeds (nil: not said); the amounts are for this many.
    public var servings: Int?
    public var ups = 0
    public var downs = 0
    public var comments = 0
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        accountId: Int64, title: String, ingredients: String, steps: String, photoImageId: String?, tags: String,
        source: String? = nil,
        now: Date = Date(), servings: Int? = nil
    ) {
        (self.accountId, self.title, self.ingredients, self.steps, self.photoImageId, self.tags, self.source) =
            (accountId, title, ingredients, steps, photoImageId, tags, source)
        self.servings = servings
        (createdAt, updatedAt) = (now, now)
    }

    public var score: Int { ups - downs }
}

/// A recipe being written, saved line by line (a disconnect or restart loses nothing).
public struct RecipeDraft: Codable, Sendable, Equatable {
    public enum Stage: String, Codable, Sendable { case title, ingredients, steps, photo, tags, ready }
    public var accountId: Int64
    public var stage: Stage
    public var title: String
    public var ingredients: String
    public var steps: String
    public var photoImageId: String?
    public var tags: String
    public var updatedAt: Date
    /// The page an imported draft came from (nil: written here).
    public var source: String?
    /// How many it feeds, when the writer said ("serves 4" among the ingredients).
    public var servings: Int?

    public init(accountId: Int64, now: Date = Date()) {
        (self.accountId, stage, title, ingredients, steps, photoImageId, tags, updatedAt) = (
            accountId, .title, "", "", "", nil, "", now
        )
    }

    public var ingredientLines: [String] { ingredients.split(separator: "\n").map(String.init) }
    public var stepLines: [String] { steps.split(separator: "\n").map(String.init) }
}

public struct RecipeRow: Sendable, Equatable {
    public var recipe: Stored<RecipeRecord>
    public var author: String
}

public enum RecipeOrder: Sendable { case new, top }

/// One person's vote on a recipe and whether they keep it in their saved list.
public struct RecipeMarks: Sendable, Equatable {
    public var vote: Int
    public var saved: Bool
    public init(vote: Int, saved: Bool) { (self.vote, self.saved) = (vote, saved) }
}

/// What to look for in recipes, already checked: the words (a `TextSearch`) and tags.
public struct RecipeSearch: Sendable, Equatable {
    public typealias Part = TextSearch.Part

    public var parts: [Part]
    /// Tags every result has (`cuisine:thai` → "thai").
    public var tags: [String]

    public init(parts: [Part], tags: [String]) {
        self.parts = parts
        self.tags = tags
    }

    public var words: TextSearch { TextSearch(parts: parts) }
    public var fts5Match: String { words.fts5Match }
    public var tsquery: String { words.tsquery }
}

/// The recipes part of the store, the same on every engine.
public protocol RecipeStore: Sendable {
    func recipeDraft(accountID: Int64) async throws -> RecipeDraft?

    func saveRecipeDraft(_ draft: RecipeDraft) async throws

    func deleteRecipeDraft(accountID: Int64) async throws -> Bool

    /// Publishes a recipe (and forgets the draft it came from, if any).
    func addRecipe(_ recipe: RecipeRecord, fromDraft: Bool, feedText: String) async throws -> Stored<RecipeRecord>

    func recipe(id: Int64) async throws -> RecipeRow?

    /// Replaces a recipe's fields if `accountID` wrote it.
    func updateRecipe(_ recipe: Stored<RecipeRecord>, by accountID: Int64) async throws -> Bool

    /// Deletes a recipe written by `accountID`, with its votes, saves, comments and feed line.
    func deleteRecipe(id: Int64, by accountID: Int64) async throws -> Bool

    /// Sets the account's vote (+1, -1, or 0 to take it back); the counts change with it,
    /// atomically. Nil when there is no such recipe; `StoreError.notFound` when the account is gone.
    func vote(recipeID: Int64, accountID: Int64, value: Int) async throws -> (ups: Int, downs: Int)?

    func saveRecipe(_ recipeID: Int64, for accountID: Int64, saved: Bool) async throws -> Bool?

    /// What `accountID` did to a recipe: their vote (+1, -1, 0 for none) and whether they saved it.
    func recipeMarks(_ recipeID: Int64, by accountID: Int64) async throws -> RecipeMarks

    /// Recipes newest first or by score, optionally by one author or only the caller's saves.
    func recipes(order: RecipeOrder, author: Int64?, savedBy: Int64?, page: Int) async throws -> (
        recipes: [RecipeRow], total: Int
    )

    /// Recent recipes (for hot and for-you ranking done by the caller).
    func recentRecipes(limit: Int) async throws -> [RecipeRow]

    /// Full-text search: best matches first (title weighs most, then tags, ingredients,
    /// steps), then newest; tags alone list every recipe with them, newest first.
    func searchRecipes(_ search: RecipeSearch, page: Int) async throws -> (recipes: [RecipeRow], total: Int)
}

extension RecipeStore {
    public func recipes(order: RecipeOrder, page: Int) async throws -> (recipes: [RecipeRow], total: Int) {
        try await recipes(order: order, author: nil, savedBy: nil, page: page)
    }

    public func recipes(order: RecipeOrder, author: Int64?, page: Int) async throws -> (
        recipes: [RecipeRow], total: Int
    ) {
        try await recipes(order: order, author: author, savedBy: nil, page: page)
    }

    public func recipes(order: RecipeOrder, savedBy: Int64?, page: Int) async throws -> (
        recipes: [RecipeRow], total: Int
    ) {
        try await recipes(order: order, author: nil, savedBy: savedBy, page: page)
    }

    public func recentRecipes() async throws -> [RecipeRow] {
        try await recentRecipes(limit: StoreLimits.hotCandidates)
    }
}
