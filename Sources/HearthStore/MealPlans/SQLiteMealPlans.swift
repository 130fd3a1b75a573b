import Foundation
import GRDB

/// The meal plan and shopping list on SQLite.
extension SQLiteStore: MealPlanStore {
    public func mealPlan(_ household: Household) async throws -> [PlannedMeal] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT mealPlan.day, mealPlan.recipeId, recipe.title FROM mealPlan
                    JOIN recipe ON recipe.id = mealPlan.recipeId WHERE mealPlan.owner = ?
                    ORDER BY mealPlan.day, mealPlan.rowid
                    """, arguments: [household.key]
            ).map { PlannedMeal(day: $0[0], recipeID: $0[1], title: $0[2]) }
        }
    }

    public func planMeal(_ household: Household, day: Int, recipeID: Int64, maxPerDay: Int) async throws -> Bool {
        try await pool.write { db in
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM mealPlan WHERE owner = ? AND day = ?",
                    arguments: [household.key, day])
                ?? 0
            guard count < maxPerDay else { return false }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO mealPlan (owner, familyId, accountId, day, recipeId) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [household.key, household.familyID, household.accountID, day, recipeID])
            return db.changesCount == 1
        }
    }

    public func clearPlanDay(_ household: Household, day: Int) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM mealPlan WHERE owner = ? AND day = ?", arguments: [household.key, day])
            return db.changesCount
        }
    }

    public func shopItems(_ household: Household) async throws -> [ShopItem] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT number, text, planKey, ticked, tickedBy FROM shopItem WHERE owner = ? ORDER BY number, id",
                arguments: [household.key]
            ).map { ShopItem(number: $0[0], text: $0[1], planKey: $0[2], ticked: $0[3], tickedBy: $0[4]) }
        }
    }

    public func setPlannedShopItems(_ household: Household, _ items: [(key: String, text: String)], now: Date)
        async throws
    {
        try await pool.write { db in
            let keys = Set(items.map(\.key))
            let listed = try Row.fetchAll(
                db, sql: "SELECT id, planKey FROM shopItem WHERE owner = ? AND planKey IS NOT NULL",
                arguments: [household.key])
            var have: Set<String> = []
            for row in listed {
                let key: String = row[1]
                if keys.contains(key) {
                    have.insert(key)
                } else {
                    try db.execute(sql: "DELETE FROM shopItem WHERE id = ?", arguments: [row[0] as Int64])
                }
            }
            var last = try lastShopNumber(db, household)
            for item in items {
                if have.contains(item.key) {
                    try db.execute(
                        sql: "UPDATE shopItem SET text = ? WHERE owner = ? AND planKey = ?",
                        arguments: [item.text, household.key, item.key])
                } else {
                    last += 1
                    try db.execute(
                        sql: """
                            INSERT INTO shopItem (owner, familyId, accountId, planKey, text, ticked, createdAt, number)
                            VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                            """,
                        arguments: [
                            household.key, household.familyID, household.accountID, item.key, item.text, now, last,
                        ])
                }
            }
            try setLastShopNumber(db, household, last)
        }
    }

    public func addShopItem(_ household: Household, text: String, max: Int, now: Date) async throws -> Bool {
        try await pool.write { db in
            let count =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shopItem WHERE owner = ?", arguments: [household.key])
                ?? 0
            guard count < max else { return false }
            let number = try lastShopNumber(db, household) + 1
            try db.execute(
                sql: """
                    INSERT INTO shopItem (owner, familyId, accountId, planKey, text, ticked, createdAt, number)
                    VALUES (?, ?, ?, NULL, ?, 0, ?, ?)
                    """, arguments: [household.key, household.familyID, household.accountID, text, now, number])
            try setLastShopNumber(db, household, number)
            return true
        }
    }

    public func tickShopItem(_ household: Household, number: Int64, ticked: Bool, by: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE shopItem SET ticked = ?, tickedBy = ? WHERE owner = ? AND number = ?",
                arguments: [ticked, ticked ? by : nil, household.key, number])
            return db.changesCount == 1
        }
    }

    public func clearTickedShopItems(_ household: Household) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM shopItem WHERE owner = ? AND ticked AND planKey IS NULL", arguments: [household.key])
            return db.changesCount
        }
    }

    public func moveHousehold(_ from: Household, to: Household) async throws -> Bool {
        try await pool.write { db in
            let taken =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM mealPlan WHERE owner = ?)
                          OR EXISTS (SELECT 1 FROM shopItem WHERE owner = ?)
                        """, arguments: [to.key, to.key]) ?? false
            guard !taken else { return false }
            let target: StatementArguments = [to.key, to.familyID, to.accountID, from.key]
            try db.execute(
                sql: "UPDATE mealPlan SET owner = ?, familyId = ?, accountId = ? WHERE owner = ?", arguments: target)
            try db.execute(
                sql: "UPDATE shopItem SET owner = ?, familyId = ?, accountId = ? WHERE owner = ?", arguments: target)
            try db.execute(sql: "DELETE FROM shopList WHERE owner = ?", arguments: [to.key])
            try db.execute(
                sql: "UPDATE shopList SET owner = ?, familyId = ?, accountId = ? WHERE owner = ?", arguments: target)
            return true
        }
    }

    public func mergeHousehold(_ from: Household, to: Household, maxPerDay: Int, maxItems: Int) async throws
        -> HouseholdMerge
    {
        try await pool.write { db in
            var merge = HouseholdMerge()
            let meals = try Row.fetchAll(
                db,
                sql: """
                    SELECT mealPlan.day, mealPlan.recipeId, recipe.title FROM mealPlan
                    JOIN recipe ON recipe.id = mealPlan.recipeId WHERE mealPlan.owner = ?
                    ORDER BY mealPlan.day, mealPlan.rowid
                    """, arguments: [from.key])
            for row in meals {
                let (day, recipeID): (Int64, Int64) = (row[0], row[1])
                let there = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*), COUNT(CASE WHEN recipeId = ? THEN 1 END) FROM mealPlan
                        WHERE owner = ? AND day = ?
                        """, arguments: [recipeID, to.key, day])
                let (onDay, same): (Int, Int) = (there?[0] ?? 0, there?[1] ?? 0)
                guard same > 0 || onDay < maxPerDay else {
                    merge.mealsLeft.append(PlannedMeal(day: Int(day), recipeID: recipeID, title: row[2]))
                    continue
                }
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO mealPlan (owner, familyId, accountId, day, recipeId)
                        VALUES (?, ?, ?, ?, ?)
                        """, arguments: [to.key, to.familyID, to.accountID, day, recipeID])
                try db.execute(
                    sql: "DELETE FROM mealPlan WHERE owner = ? AND day = ? AND recipeId = ?",
                    arguments: [from.key, day, recipeID])
                merge.meals += 1
            }
            // Ticked lines were bought; lines built from the plan are built again from the meals.
            try db.execute(
                sql: "DELETE FROM shopItem WHERE owner = ? AND (ticked OR planKey IS NOT NULL)", arguments: [from.key])
            let lines = try Row.fetchAll(
                db, sql: "SELECT id, text FROM shopItem WHERE owner = ? ORDER BY number, id", arguments: [from.key])
            var count =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shopItem WHERE owner = ?", arguments: [to.key]) ?? 0
            var last = try lastShopNumber(db, to)
            for row in lines {
                guard count < maxItems else {
                    merge.itemsLeft.append(row[1])
                    continue
                }
                (count, last) = (count + 1, last + 1)
                try db.execute(
                    sql: "UPDATE shopItem SET owner = ?, familyId = ?, accountId = ?, number = ? WHERE id = ?",
                    arguments: [to.key, to.familyID, to.accountID, last, row[0] as Int64])
                merge.items += 1
            }
            if merge.items > 0 { try setLastShopNumber(db, to, last) }
            return merge
        }
    }

    /// The list's last number given (0 when the list has no lines: a new list starts at 1 again).
    private func lastShopNumber(_ db: Database, _ household: Household) throws -> Int64 {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT lastNumber FROM shopList WHERE owner = ?
                  AND EXISTS (SELECT 1 FROM shopItem WHERE owner = ?)
                """, arguments: [household.key, household.key]) ?? 0
    }

    private func setLastShopNumber(_ db: Database, _ household: Household, _ number: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO shopList (owner, familyId, accountId, lastNumber) VALUES (?, ?, ?, ?)
                ON CONFLICT (owner) DO UPDATE SET lastNumber = excluded.lastNumber
                """, arguments: [household.key, household.familyID, household.accountID, number])
    }
}
