import Foundation

/// Whose meal plan and shopping list: a family's (every member shares it), or one person's
/// when they are in no family.
public struct Household: Sendable, Hashable {
    public let familyID: Int64?
    public let accountID: Int64?

    public static func family(_ id: Int64) -> Household { Household(familyID: id, accountID: nil) }
    public static func person(_ id: Int64) -> Household { Household(familyID: nil, accountID: id) }

    /// The key both engines file the rows under ("f12", "a5").
    public var key: String { familyID.map { "f\($0)" } ?? "a\(accountID ?? 0)" }
}

/// A recipe put on a day of the week's plan (0 is Monday).
public struct PlannedMeal: Sendable, Equatable {
    public var day: Int
    public var recipeID: Int64
    public var title: String
    public init(day: Int, recipeID: Int64, title: String) {
        (self.day, self.recipeID, self.title) = (day, recipeID, title)
    }
}

/// A line of the shopping list: built from the plan (`planKey` says which food and unit it
/// merges) or added by hand (no key); ticked once someone has it. `number` is its place in its
/// own list's numbering (1, 2, 3…), kept while the list changes and not reused while it has lines.
public struct ShopItem: Sendable, Equatable {
    public var number: Int64
    public var text: String
    public var planKey: String?
    public var ticked: Bool
    /// Who ticked it (their name), when ticked.
    public var tickedBy: String?
    public init(number: Int64, text: String, planKey: String?, ticked: Bool, tickedBy: String? = nil) {
        (self.number, self.text, self.planKey, self.ticked, self.tickedBy) = (number, text, planKey, ticked, tickedBy)
    }
}

/// What `mergeHousehold` brought into the other household, and what did not fit and stayed.
public struct HouseholdMerge: Sendable, Equatable {
    /// Meals now on the other plan (copied, or planned there already).
    public var meals = 0
    /// Unticked lines added by hand, now on the other list.
    public var items = 0
    /// Meals whose day was full there: they stay on the plan they came from.
    public var mealsLeft: [PlannedMeal] = []
    /// Lines the other list had no room for: they stay on the list they came from.
    public var itemsLeft: [String] = []
    public init() {}
}

/// The meal plan and shopping list part of the store, the same on every engine.
public protocol MealPlanStore: Sendable {
    /// The week's plan, by day then in the order meals were planned.
    func mealPlan(_ household: Household) async throws -> [PlannedMeal]

    /// Puts a recipe on a day: false when the day already has `maxPerDay` meals (or has this one).
    func planMeal(_ household: Household, day: Int, recipeID: Int64, maxPerDay: Int) async throws -> Bool

    /// Empties a day; how many meals it had.
    func clearPlanDay(_ household: Household, day: Int) async throws -> Int

    /// The list, oldest line first.
    func shopItems(_ household: Household) async throws -> [ShopItem]

    /// Makes the lines built from the plan these (planKey, text): a key already listed keeps
    /// its line and its tick, a key no longer planned goes; lines added by hand stay.
    func setPlannedShopItems(_ household: Household, _ items: [(key: String, text: String)], now: Date) async throws

    /// Adds a line by hand: false when the list has `max` lines already.
    func addShopItem(_ household: Household, text: String, max: Int, now: Date) async throws -> Bool

    /// Ticks (by `by`, a name) or unticks a line of this household's list: false when it has no such line.
    func tickShopItem(_ household: Household, number: Int64, ticked: Bool, by: String) async throws -> Bool

    /// Takes the ticked lines added by hand off the list; how many went.
    func clearTickedShopItems(_ household: Household) async throws -> Int

    /// Moves one household's plan and list to another that has neither (a person founding a
    /// family brings their own): false, and nothing moves, when `to` has a plan or a list already.
    func moveHousehold(_ from: Household, to: Household) async throws -> Bool

    /// Brings one household's plan and unticked hand-added lines into another that has its own, in
    /// one transaction: what fits (`maxPerDay` meals a day, `maxItems` lines) moves and is gone from
    /// `from`, as are `from`'s ticked lines and those built from its plan; what does not fit stays.
    func mergeHousehold(_ from: Household, to: Household, maxPerDay: Int, maxItems: Int) async throws
        -> HouseholdMerge
}
