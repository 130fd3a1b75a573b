import Foundation
import HearthKit
import HearthStore

/// The family's week of meals (`!plan`), the shopping list built from it (`!shop`), and what
/// can be cooked from what is on hand (`!cook with …`). A person in no family has their own.
enum MealPlanCommands {
    /// Meals one day of the plan may hold.
    static let maxMealsPerDay = 3
    /// Lines a shopping list may hold (built and added by hand together).
    static let maxShopItems = 100
    /// The longest line added by hand.
    static let maxShopItemLength = 100
    /// Foods `!cook with` takes at once.
    static let maxOnHand = 30
    /// The share of a recipe's ingredients that must be on hand for `!cook with` to list it.
    static let cookShare = 2.0 / 3.0
    /// Recipes `!cook with` lists.
    static let maxCookResults = 10

    static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    static let dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// "sat", "Saturday", "SAT." → 5.
    static func day(_ request: BotRequest, _ word: String) throws -> Int {
        let prefix = word.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".")).prefix(3)
        guard let day = days.firstIndex(of: String(prefix)) else {
            throw request.usageError("\(word) is not a day: mon, tue, wed, thu, fri, sat or sun")
        }
        return day
    }

    /// Whose plan: the caller's current family (`FamilyCommands.current`), else their own.
    static func household(_ request: BotRequest) async throws -> (Household, String) {
        let me = try request.account()
        if try await request.services.store.families(of: me.id).isEmpty { return (.person(me.id), "your") }
        let (_, family) = try await FamilyCommands.current(request)
        return (.family(family.id), Words.possessive(family.name))
    }

    /// The same for the web, where no channel is said in: the chosen family, else the newest.
    static func household(_ store: any Store, accountID: Int64) async throws -> (Household, String) {
        let families = try await store.families(of: accountID)
        guard let newest = families.first else { return (.person(accountID), "Your") }
        let choice = try await store.settings(accountID)[FamilyCommands.choiceKey].flatMap { Int64($0) }
        let family = families.first { $0.id == choice } ?? newest
        return (.family(family.id), Words.possessive(family.name))
    }

    static let plan = BotCommand(
        "plan", group: RecipeCommands.group, usage: "[DAY RECIPE]  ·  clear DAY",
        summary: "your family's meals for the week (a person in no family has their own)",
        example: "!plan sat 12", arity: 0...2, requiresLogin: true
    ) { request in
        let (household, whose) = try await household(request)
        let store = request.services.store
        let words = request.words
        if words.count == 2, words[0].lowercased() == "clear" {
            let day = try day(request, words[1])
            let removed = try await store.clearPlanDay(household, day: day)
            _ = try await rebuildList(
                request.services, household, system: RecipeServings.system(request.settings))
            return BotResponse([
                removed == 0 ? "\(dayNames[day]) had nothing planned." : "\(dayNames[day]) is clear again."
            ])
        }
        if words.count == 2 {
            let day = try day(request, words[0])
            let id = try RecipeCommands.id(request, words[1])
            let row = try await RecipeCommands.visible(request, id)
            guard try await store.planMeal(household, day: day, recipeID: id, maxPerDay: maxMealsPerDay) else {
                throw BotError(
                    "\(dayNames[day]) already has that recipe or \(maxMealsPerDay) meals — !plan clear "
                        + "\(days[day]) empties it")
            }
            let left = try await rebuildList(
                request.services, household, system: RecipeServings.system(request.settings))
            return BotResponse(
                [
                    "\(dayNames[day]): #\(id) \(row.recipe.title) is on \(whose) plan — !shop for the list."
                        + request.pageLink("/shop")
                ] + leftOut(left))
        }
        guard words.isEmpty else { throw request.usageError() }
        let meals = try await store.mealPlan(household)
        if meals.isEmpty { return BotResponse(["Nothing planned yet — !plan sat 12 puts recipe 12 on Saturday."]) }
        var lines = ["\(request.style.bold(whose.prefix(1).uppercased() + whose.dropFirst() + " week")):"]
        for day in days.indices {
            let planned = meals.filter { $0.day == day }.map { "#\($0.recipeID) \($0.title)" }
            if !planned.isEmpty { lines.append("\(dayNames[day]): " + planned.joined(separator: " · ")) }
        }
        return BotResponse(lines)
    }

    /// The lines built from the plan: every planned recipe's ingredients, merged by food and
    /// unit (volumes with volumes, weights with weights), in `system` or the recipes' own units.
    static func plannedItems(_ store: any Store, _ household: Household, system: IngredientUnit.System?)
        async throws -> [(key: String, text: String)]
    {
        var order: [String] = []
        var merged: [String: (total: Double?, unit: IngredientUnit?, food: String, system: IngredientUnit.System)] = [:]
        for meal in try await store.mealPlan(household) {
            guard let recipe = try await store.recipe(id: meal.recipeID)?.recipe else { continue }
            for line in recipe.ingredients.split(separator: "\n") {
                let item = Ingredient(String(line))
                guard !item.key.isEmpty else { continue }
                let measure = item.unit?.measure
                let key = "\(item.key)|\(measure.map { "\($0)" } ?? "")|\(measure == .count ? item.unit!.singular : "")"
                let amount = item.low.map { $0 * (measure == .count ? 1 : item.unit?.base ?? 1) }
                if var known = merged[key] {
                    known.total = known.total.map { total in amount.map { total + $0 } ?? total } ?? amount
                    merged[key] = known
                } else {
                    order.append(key)
                    let base: IngredientUnit? =
                        switch measure {
                        case .volume: .ml
                        case .weight: .gram
                        default: item.unit
                        }
                    merged[key] = (amount, base, item.food, system ?? item.unit?.system ?? .metric)
                }
            }
        }
        return order.map { key in
            let item = merged[key]!
            guard let total = item.total else { return (key, item.food) }
            let (amount, unit) = Ingredient.amount(total, item.unit, in: item.system)
            let food = Ingredient.food(item.food, for: amount, unit: unit)
            return (key, amount + (unit.map { " " + $0.written(as: amount) } ?? "") + " " + food)
        }
    }

    /// Rebuilds the planned lines within `maxShopItems` beside those added by hand; how many
    /// planned lines did not fit.
    static func rebuildList(_ services: BotServices, _ household: Household, system: IngredientUnit.System?)
        async throws -> Int
    {
        let items = try await plannedItems(services.store, household, system: system)
        let byHand = try await services.store.shopItems(household).filter { $0.planKey == nil }.count
        let room = max(0, maxShopItems - byHand)
        try await services.store.setPlannedShopItems(household, Array(items.prefix(room)), now: services.clock.now())
        return max(0, items.count - room)
    }

    /// A person joining or founding a family brings their own plan and list to it (the family's is
    /// theirs from now on, so their own would be out of reach): a family with neither takes them
    /// whole, numbers and ticks kept; one with its own gets their meals and unticked hand-added lines
    /// within its limits. What does not fit stays on their own, said so (theirs again once in no
    /// family; the next family joined gets it). What is said of it, or nothing when they had neither.
    static func bringOwnList(_ services: BotServices, accountID: Int64, to familyID: Int64) async throws -> [String] {
        let store = services.store
        let (me, family) = (Household.person(accountID), Household.family(familyID))
        let meals = try await store.mealPlan(me)
        let lines = try await store.shopItems(me).count
        guard !meals.isEmpty || lines > 0 else { return [] }
        if try await store.moveHousehold(me, to: family) {
            return [
                "Your own plan (\(Words.counted(meals.count, "meal"))) and shopping list "
                    + "(\(Words.counted(lines, "item"))) are the family's now: !plan and !shop show them."
            ]
        }
        let merge = try await store.mergeHousehold(me, to: family, maxPerDay: maxMealsPerDay, maxItems: maxShopItems)
        let left = try await rebuildList(services, family, system: nil)
        var said = [
            "The family has its own plan and list: \(Words.counted(merge.meals, "meal")) of yours and "
                + "\(Words.counted(merge.items, "item")) you added (not ticked) are on them now: "
                + "!plan and !shop show them."
        ]
        if !merge.mealsLeft.isEmpty {
            let meals = merge.mealsLeft.map { "\(dayNames[$0.day]) #\($0.recipeID) \($0.title)" }
            said.append(
                "Not brought, the day has \(maxMealsPerDay) meals already: \(shortList(meals)) — "
                    + "kept on your own plan, yours again when you are in no family.")
        }
        if !merge.itemsLeft.isEmpty {
            said.append(
                "Not brought, the family's list holds \(maxShopItems) items: \(shortList(merge.itemsLeft)) — "
                    + "kept on your own list, yours again when you are in no family.")
        }
        return said + leftOut(left)
    }

    /// "a · b · c", or the first few and how many more.
    static func shortList(_ words: [String], shown: Int = 5) -> String {
        words.prefix(shown).joined(separator: " · ") + (words.count > shown ? " and \(words.count - shown) more" : "")
    }

    /// The line that says planned food did not fit on the list, or none.
    static func leftOut(_ count: Int) -> [String] {
        guard count > 0 else { return [] }
        return [
            "\(Words.counted(count, "planned item")) left out: the list holds \(maxShopItems) "
                + "(!shop clear takes ticked ones off)"
        ]
    }

    static let shop = BotCommand(
        "shop", group: RecipeCommands.group, usage: "[add ITEM  ·  tick N|NAME  ·  untick N|NAME  ·  clear]",
        summary: "the shopping list built from the plan; anyone in the family ticks items off",
        example: "!shop tick 3", arity: 0...Int.max, requiresLogin: true
    ) { request in
        let (household, whose) = try await household(request)
        let store = request.services.store
        let word = request.words.first?.lowercased()
        switch word {
        case "add":
            let text = request.input.text(after: 1).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { throw request.usageError("add what? e.g. !shop add coffee") }
            guard text.count <= maxShopItemLength else {
                throw BotError("an item may have \(maxShopItemLength) characters; that one has \(text.count)")
            }
            guard
                try await store.addShopItem(household, text: text, max: maxShopItems, now: request.services.clock.now())
            else { throw BotError("the list has \(maxShopItems) items already — !shop clear takes ticked ones off") }
            return BotResponse(["Added to \(whose) list: \(text)."])
        case "tick", "untick":
            let ticking = word == "tick"
            let what = request.input.text(after: 1).trimmingCharacters(in: .whitespaces)
            // A number must be an item's (1 or more); anything else names one by its words.
            guard !what.isEmpty, what.contains(where: { !$0.isNumber && $0 != "-" }) || (Int64(what) ?? 0) > 0 else {
                throw request.usageError("\(word!) which? e.g. !shop \(word!) 3")
            }
            // Built again in the reader's units first, so the line said back reads as their list does.
            _ = try await rebuildList(
                request.services, household, system: RecipeServings.system(request.settings))
            let item = try item(named: what, in: try await store.shopItems(household), whose: whose)
            let me = try request.account()
            if item.ticked == ticking {
                let by = item.tickedBy.map { " by \($0 == me.name ? "you" : $0)" } ?? ""
                return BotResponse([ticking ? "Already ticked\(by): \(item.text)" : "Not ticked: \(item.text)"])
            }
            _ = try await store.tickShopItem(
                household, number: item.number, ticked: ticking, by: me.name)
            return BotResponse([ticking ? "✓ \(item.text)" : "Back on the list: \(item.text)"])
        case "clear":
            let removed = try await store.clearTickedShopItems(household)
            return BotResponse(["Took \(Words.counted(removed, "ticked item")) off the list."])
        case nil:
            let omitted = try await rebuildList(
                request.services, household, system: RecipeServings.system(request.settings))
            let items = try await store.shopItems(household)
            if items.isEmpty {
                return BotResponse(["The list is empty — !plan sat 12 plans a meal, !shop add ITEM adds a thing."])
            }
            let left = items.filter { !$0.ticked }.count
            return BotResponse(
                ["\(request.style.bold(whose.prefix(1).uppercased() + whose.dropFirst() + " list")) (\(left) to get):"]
                    + items.map { "\($0.number). \($0.ticked ? "✓" : "☐") \($0.text)" }
                    + leftOut(omitted)
                    + [request.style.dim("!shop tick N · !shop add ITEM") + request.pageLink("/shop")])
        default:
            throw request.usageError()
        }
    }

    /// The line `what` names: its number (the list's own, kept while the list changes, so two
    /// people ticking at once tick what they saw) or words found in one line only.
    static func item(named what: String, in items: [ShopItem], whose: String) throws -> ShopItem {
        if let n = Int64(what) {
            guard let item = items.first(where: { $0.number == n }) else {
                throw BotError("there is no item \(n) on \(whose) list — !shop shows each item's number")
            }
            return item
        }
        let words = what.lowercased().split(separator: " ")
        let found = items.filter { item in
            let text = item.text.lowercased()
            return words.allSatisfy { text.contains($0) }
        }
        switch found.count {
        case 1: return found[0]
        case 0: throw BotError("nothing on \(whose) list says \(what) — !shop shows the list")
        default:
            let some = found.prefix(5).map { "\($0.number). \($0.text)" }.joined(separator: " · ")
            throw BotError("\(what) is on \(found.count) lines — say which by number: \(some)")
        }
    }

    /// Foods nobody counts as missing.
    static let pantry: Set<String> = ["salt", "pepper", "water", "black pepper"]

    /// Whether `food` (an ingredient's key) is one of `onHand` (keys): all of an on-hand food's
    /// words are among the ingredient's ("egg" is "large egg"; "olive oil" is not "oil"'s only match).
    static func have(_ food: String, _ onHand: [Set<Substring>]) -> Bool {
        let words = Set(food.split(separator: " "))
        return pantry.contains(food) || onHand.contains { !$0.isEmpty && $0.isSubset(of: words) }
    }

    static let cook = BotCommand(
        "cook", group: RecipeCommands.group, usage: "with FOOD, FOOD, …",
        summary: "recipes you can mostly make with what you have", example: "!cook with eggs, flour, milk",
        arity: 2...Int.max
    ) { request in
        guard request.words[0].lowercased() == "with" else { throw request.usageError() }
        let foods = request.input.text(after: 1).split { $0 == "," || $0 == ";" }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !foods.isEmpty else { throw request.usageError("with what? e.g. !cook with eggs, flour") }
        guard foods.count <= maxOnHand else { throw BotError("give up to \(maxOnHand) foods; that was \(foods.count)") }
        let onHand = foods.map { Set(Ingredient("1 " + $0).key.split(separator: " ")) }
        let rows = try await RecipeCommands.trending(
            request.services.store, viewer: request.caller.account?.id, now: request.services.clock.now())
        var found: [(row: RecipeRow, have: Int, missing: [String])] = []
        for row in rows {
            let items = row.recipe.ingredients.split(separator: "\n").map { Ingredient(String($0)) }
                .filter { !$0.key.isEmpty }
            guard !items.isEmpty else { continue }
            let missing = items.filter { !have($0.key, onHand) }
            let share = Double(items.count - missing.count) / Double(items.count)
            if share >= cookShare { found.append((row, items.count - missing.count, missing.map(\.food))) }
        }
        found.sort { ($0.missing.count, -$0.have) < ($1.missing.count, -$1.have) }
        if found.isEmpty { return BotResponse(["Nothing I know is mostly made of that — try more foods."]) }
        return BotResponse(
            ["\(request.style.bold("You can make")):"]
                + found.prefix(maxCookResults).map { item in
                    let r = item.row.recipe
                    let missing =
                        item.missing.isEmpty
                        ? "you have everything"
                        : "missing "
                            + item.missing.joined(
                                separator: ", ")
                    return "#\(r.id) \(r.title) by \(item.row.author) — \(missing)"
                })
    }

    static let all: [BotCommand] = [plan, shop, cook]
}
