import Foundation
import HearthStore
import Testing

/// The shopping list's own numbers: lines written before the migration get 1, 2, 3… per list in
/// the order they were added, and the next line goes on from there.
@Suite struct ShopListStoreTests {
    @Test(arguments: Engine.allCases)
    func existingLinesAreNumberedPerList(engine: Engine) async throws {
        let inserts = [("a1", "tea"), ("f2", "rice"), ("a1", "milk"), ("f2", "beans"), ("a1", "bread")].map {
            "INSERT INTO shopItem (owner, text, createdAt) VALUES ('\($0.0)', '\($0.1)', '2026-01-01 10:00:00Z')"
        }
        let account =
            "INSERT INTO account (id, name, nameKey, passwordHash, createdAt) VALUES (1, 'kai', 'kai', 'h', "
            + "'2022-01-01 00:00:00Z')"
        try await MigratedStore.with(
            engine, before: "v39-shop-item-numbers-and-tickers", "v40-shop-item-numbers-and-tickers",
            rows: [account] + inserts
        ) { store in
            let mine = try await store.shopItems(.person(1))
            #expect(mine.map(\.number) == [1, 2, 3] && mine.map(\.text) == ["tea", "milk", "bread"])
            #expect(try await store.shopItems(.family(2)).map(\.number) == [1, 2])
            #expect(try await store.addShopItem(.person(1), text: "salt", max: 100, now: Date()))
            #expect(try await store.shopItems(.person(1)).map(\.number) == [1, 2, 3, 4])
        }
    }
}
