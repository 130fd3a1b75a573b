import Foundation
import PostgresNIO

/// The meal plan and shopping list on PostgreSQL. A plan's day is counted and added to in one
/// transaction under a lock on the household's key, so two members cannot overfill a day.
extension PostgresStore: MealPlanStore {
    public func mealPlan(_ household: Household) async throws -> [PlannedMeal] {
        try await rows(
            """
            SELECT mealPlan.day, mealPlan.recipeId, recipe.title FROM mealPlan
            JOIN recipe ON recipe.id = mealPlan.recipeId WHERE mealPlan.owner = \(household.key)
            ORDER BY mealPlan.day, mealPlan.seq
            """
        ).map { row in
            let (day, recipeID, title) = try row.decode((Int64, Int64, String).self)
            return PlannedMeal(day: Int(day), recipeID: recipeID, title: title)
        }
    }

    public func planMeal(_ household: Household, day: Int, recipeID: Int64, maxPerDay: Int) async throws -> Bool {
        try await transaction { db in
            try await db.query(
                "SELECT pg_advisory_xact_lock(hashtext(\("mealPlan/" + household.key)))", logger: self.logger)
            let count = try await db.rows(
                "SELECT COUNT(*) FROM mealPlan WHERE owner = \(household.key) AND day = \(Int64(day))", self.logger)[0]
                .decode(Int64.self)
            guard count < maxPerDay else { return false }
            return
                !(try await db.rows(
                    """
                    INSERT INTO mealPlan (owner, familyId, accountId, day, recipeId)
                    VALUES (\(household.key), \(household.familyID), \(household.accountID), \(Int64(day)), \(recipeID))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, self.logger)).isEmpty
        }
    }

    public func clearPlanDay(_ household: Household, day: Int) async throws -> Int {
        try await rows("DELETE FROM mealPlan WHERE owner = \(household.key) AND day = \(Int64(day)) RETURNING 1").count
    }

    public func shopItems(_ household: Household) async throws -> [ShopItem] {
        try await rows(
            """
            SELECT number, text, planKey, ticked, tickedBy FROM shopItem WHERE owner = \(household.key)
            ORDER BY number, id
            """
        ).map { row in
            let (number, text, key, ticked, by) = try row.decode((Int64, String, String?, Bool, String?).self)
            return ShopItem(number: number, text: text, planKey: key, ticked: ticked, tickedBy: by)
        }
    }

    public func setPlannedShopItems(_ household: Household, _ items: [(key: String, text: String)], now: Date)
        async throws
    {
        let keys = items.map(\.key)
        let texts = items.map(\.text)
        try await transaction { db in
            try await db.query(
                "SELECT pg_advisory_xact_lock(hashtext(\("shopItem/" + household.key)))", logger: self.logger)
            try await db.query(
                """
                DELETE FROM shopItem WHERE owner = \(household.key) AND planKey IS NOT NULL
                  AND NOT (planKey = ANY(\(keys)))
                """, logger: self.logger)
            try await db.query(
                """
                UPDATE shopItem SET text = item.text FROM unnest(\(keys)::text[], \(texts)::text[]) AS item(key, text)
                WHERE shopItem.owner = \(household.key) AND shopItem.planKey = item.key
                """, logger: self.logger)
            let last = try await self.lastShopNumber(db, household)
            let added = try await db.rows(
                """
                INSERT INTO shopItem (owner, familyId, accountId, planKey, text, ticked, createdAt, number)
                SELECT \(household.key), \(household.familyID), \(household.accountID), item.key, item.text, false,
                  \(now), \(last) + ROW_NUMBER() OVER (ORDER BY item.n)
                FROM unnest(\(keys)::text[], \(texts)::text[]) WITH ORDINALITY AS item(key, text, n)
                WHERE NOT EXISTS (SELECT 1 FROM shopItem WHERE owner = \(household.key) AND planKey = item.key)
                RETURNING 1
                """, self.logger
            ).count
            try await self.setLastShopNumber(db, household, last + Int64(added))
        }
    }

    public func addShopItem(_ household: Household, text: String, max: Int, now: Date) async throws -> Bool {
        try await transaction { db in
            try await db.query(
                "SELECT pg_advisory_xact_lock(hashtext(\("shopItem/" + household.key)))", logger: self.logger)
            let count = try await db.rows(
                "SELECT COUNT(*) FROM shopItem WHERE owner = \(household.key)", self.logger)[0].decode(Int64.self)
            guard count < max else { return false }
            let number = try await self.lastShopNumber(db, household) + 1
            try await db.query(
                """
                INSERT INTO shopItem (owner, familyId, accountId, planKey, text, ticked, createdAt, number)
                VALUES (\(household.key), \(household.familyID), \(household.accountID), NULL, \(text), false, \(now),
                  \(number))
                """, logger: self.logger)
            try await self.setLastShopNumber(db, household, number)
            return true
        }
    }

    public func tickShopItem(_ household: Household, number: Int64, ticked: Bool, by: String) async throws -> Bool {
        let by: String? = ticked ? by : nil
        return
            !(try await rows(
                """
                UPDATE shopItem SET ticked = \(ticked), tickedBy = \(by)
                WHERE owner = \(household.key) AND number = \(number) RETURNING 1
                """)).isEmpty
    }

    public func clearTickedShopItems(_ household: Household) async throws -> Int {
        try await rows(
            "DELETE FROM shopItem WHERE owner = \(household.key) AND ticked AND planKey IS NULL RETURNING 1"
        ).count
    }

    public func moveHousehold(_ from: Household, to: Household) async throws -> Bool {
        try await transaction { db in
            try await self.lockHouseholds(db, from, to)
            let taken = try await db.rows(
                """
                SELECT 1 FROM mealPlan WHERE owner = \(to.key)
                UNION ALL SELECT 1 FROM shopItem WHERE owner = \(to.key) LIMIT 1
                """, self.logger)
            guard taken.isEmpty else { return false }
            try await db.query(
                """
                UPDATE mealPlan SET owner = \(to.key), familyId = \(to.familyID), accountId = \(to.accountID)
                WHERE owner = \(from.key)
                """, logger: self.logger)
            try await db.query(
                """
                UPDATE shopItem SET owner = \(to.key), familyId = \(to.familyID), accountId = \(to.accountID)
                WHERE owner = \(from.key)
                """, logger: self.logger)
            try await db.query("DELETE FROM shopList WHERE owner = \(to.key)", logger: self.logger)
            try await db.query(
                """
                UPDATE shopList SET owner = \(to.key), familyId = \(to.familyID), accountId = \(to.accountID)
                WHERE owner = \(from.key)
                """, logger: self.logger)
            return true
        }
    }

    public func mergeHousehold(_ from: Household, to: Household, maxPerDay: Int, maxItems: Int) async throws
        -> HouseholdMerge
    {
        try await transaction { db in
            try await self.lockHouseholds(db, from, to)
            var merge = HouseholdMerge()
            let meals = try await db.rows(
                """
                SELECT mealPlan.day, mealPlan.recipeId, recipe.title FROM mealPlan
                JOIN recipe ON recipe.id = mealPlan.recipeId WHERE mealPlan.owner = \(from.key)
                ORDER BY mealPlan.day, mealPlan.seq
                """, self.logger)
            for row in meals {
                let (day, recipeID, title) = try row.decode((Int64, Int64, String).self)
                let (onDay, there) = try await db.rows(
                    """
                    SELECT COUNT(*), COUNT(*) FILTER (WHERE recipeId = \(recipeID)) FROM mealPlan
                    WHERE owner = \(to.key) AND day = \(day)
                    """, self.logger)[0].decode((Int64, Int64).self)
                guard there > 0 || onDay < maxPerDay else {
                    merge.mealsLeft.append(PlannedMeal(day: Int(day), recipeID: recipeID, title: title))
                    continue
                }
                try await db.query(
                    """
                    INSERT INTO mealPlan (owner, familyId, accountId, day, recipeId)
                    VALUES (\(to.key), \(to.familyID), \(to.accountID), \(day), \(recipeID)) ON CONFLICT DO NOTHING
                    """, logger: self.logger)
                try await db.query(
                    "DELETE FROM mealPlan WHERE owner = \(from.key) AND day = \(day) AND recipeId = \(recipeID)",
                    logger: self.logger)
                merge.meals += 1
            }
            // Ticked lines were bought; lines built from the plan are built again from the meals.
            try await db.query(
                "DELETE FROM shopItem WHERE owner = \(from.key) AND (ticked OR planKey IS NOT NULL)",
                logger: self.logger)
            let lines = try await db.rows(
                "SELECT id, text FROM shopItem WHERE owner = \(from.key) ORDER BY number, id", self.logger)
            var count = try await db.rows(
                "SELECT COUNT(*) FROM shopItem WHERE owner = \(to.key)", self.logger)[0].decode(Int64.self)
            var last = try await self.lastShopNumber(db, to)
            for row in lines {
                let (id, text) = try row.decode((Int64, String).self)
                guard count < maxItems else {
                    merge.itemsLeft.append(text)
                    continue
                }
                (count, last) = (count + 1, last + 1)
                try await db.query(
                    """
                    UPDATE shopItem SET owner = \(to.key), familyId = \(to.familyID), accountId = \(to.accountID),
                      number = \(last) WHERE id = \(id)
                    """, logger: self.logger)
                merge.items += 1
            }
            if merge.items > 0 { try await self.setLastShopNumber(db, to, last) }
            return merge
        }
    }

    /// Takes both households' plan and list locks, in one order for every caller (by name), so a
    /// move or merge waits for a member's `!plan` or `!shop add` and two of them cannot deadlock.
    private func lockHouseholds(_ db: PostgresConnection, _ from: Household, _ to: Household) async throws {
        let names = [from, to].flatMap { ["mealPlan/" + $0.key, "shopItem/" + $0.key] }.sorted()
        for name in names {
            try await db.query("SELECT pg_advisory_xact_lock(hashtext(\(name)))", logger: self.logger)
        }
    }

    /// The list's last number given (0 when the list has no lines: a new list starts at 1 again).
    /// Called under the list's lock.
    private func lastShopNumber(_ db: PostgresConnection, _ household: Household) async throws -> Int64 {
        try await db.rows(
            """
            SELECT COALESCE((SELECT lastNumber FROM shopList WHERE owner = \(household.key)
              AND EXISTS (SELECT 1 FROM shopItem WHERE owner = \(household.key))), 0)
            """, self.logger)[0].decode(Int64.self)
    }

    private func setLastShopNumber(_ db: PostgresConnection, _ household: Household, _ number: Int64) async throws {
        try await db.query(
            """
            INSERT INTO shopList (owner, familyId, accountId, lastNumber)
            VALUES (\(household.key), \(household.familyID), \(household.accountID), \(number))
            ON CONFLICT (owner) DO UPDATE SET lastNumber = EXCLUDED.lastNumber
            """, logger: self.logger)
    }
}
