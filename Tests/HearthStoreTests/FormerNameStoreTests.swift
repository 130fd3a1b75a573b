import Foundation
import HearthStore
import Testing

/// A renamed account's old names lead to it until someone takes them.
@Suite struct FormerNameStoreTests {
    @Test(arguments: Engine.allCases)
    func oldNamesLeadToTheAccountUntilTaken(engine: Engine) async throws {
        try await engine.withStore { store in
            let dan = try await AccountStoreTests.make(store, "dan")
            #expect(try await store.account(formerNameKey: "dan") == nil)
            try await store.rename(accountID: dan.id, to: "danny", nameKey: "danny")
            #expect(try await store.account(formerNameKey: "dan")?.name == "danny")
            // A change of case is not a new name; a chain of renames keeps every old one.
            try await store.rename(accountID: dan.id, to: "Danny", nameKey: "danny")
            #expect(try await store.account(formerNameKey: "danny") == nil)
            try await store.rename(accountID: dan.id, to: "dan2", nameKey: "dan2")
            #expect(try await store.account(formerNameKey: "dan")?.id == dan.id)
            #expect(try await store.account(formerNameKey: "danny")?.name == "dan2")

            // Someone registering the old name ends it; renaming to one does too.
            let other = try await AccountStoreTests.make(store, "dan")
            #expect(try await store.account(formerNameKey: "dan") == nil)
            let eve = try await AccountStoreTests.make(store, "eve")
            try await store.rename(accountID: eve.id, to: "danny", nameKey: "danny")
            #expect(try await store.account(formerNameKey: "danny") == nil)
            #expect(try await store.account(formerNameKey: "eve")?.id == eve.id)
            // Taking your own old name back, and deletion, leave nothing behind.
            try await store.rename(accountID: eve.id, to: "eve", nameKey: "eve")
            #expect(try await store.account(formerNameKey: "eve") == nil)
            #expect(try await store.account(formerNameKey: "danny")?.id == eve.id)
            _ = try await store.deleteAccount(id: eve.id)
            #expect(try await store.account(formerNameKey: "danny") == nil)
            #expect(try await store.account(nameKey: "dan")?.id == other.id)
        }
    }
}
