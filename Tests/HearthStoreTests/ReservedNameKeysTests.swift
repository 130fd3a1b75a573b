import Foundation
import HearthStore
import HearthTesting
import Testing

/// The name keys registration reads instead of asking the store (issue 42). They may hold a key
/// no account holds (then the store is asked), never miss one an account holds.
@Suite struct ReservedNameKeysTests {
    /// Every key an account holds is known as held.
    static func agree(_ store: SQLiteStore, _ keys: ReservedNameKeys, _ names: [String]) async throws {
        for key in names where try await store.account(nameKey: key) != nil {
            #expect(!keys.surelyFree(key), "\(key)")
        }
    }

    @Test func keysFollowAccountsMadeRenamedAndDeleted() async throws {
        let store = try SQLiteStore(dataDirectory: TestServer.tempDirectory())
        let keys = try #require(store.reservedNames)
        #expect(keys.surelyFree("ann"))
        let ann = try await AccountStoreTests.make(store, "Ann")
        #expect(!keys.surelyFree("ann"))
        try await store.rename(accountID: ann.id, to: "Anna", nameKey: "anna")
        #expect(keys.surelyFree("ann") && !keys.surelyFree("anna"))
        // A refused create or rename changes no account: both names stay held.
        let bob = try await AccountStoreTests.make(store, "Bob")
        await #expect(throws: StoreError.nameTaken) { _ = try await AccountStoreTests.make(store, "anna") }
        await #expect(throws: StoreError.nameTaken) {
            try await store.rename(accountID: bob.id, to: "Anna", nameKey: "anna")
        }
        #expect(!keys.surelyFree("anna") && !keys.surelyFree("bob"))
        try await store.deleteAccount(id: ann.id)
        #expect(keys.surelyFree("anna") && !keys.surelyFree("bob"))
        try await Self.agree(store, keys, ["ann", "anna", "bob"])

        // A store opened on these accounts knows them from the start.
        let again = try SQLiteStore(dataDirectory: (store.path as NSString).deletingLastPathComponent)
        #expect(try #require(again.reservedNames).surelyFree("anna") && !again.reservedNames!.surelyFree("bob"))
    }

    /// `hearth user add` beside the running server writes from another process.
    @Test func anotherProcessesAccountsAreSeenAtTheNextLook() async throws {
        let directory = TestServer.tempDirectory()
        let server = try SQLiteStore(dataDirectory: directory)
        let keys = try #require(server.reservedNames)
        let shell = try SQLiteStore(dataDirectory: directory)
        let kim = try await AccountStoreTests.make(shell, "Kim")
        try await server.checkForeignWrites()
        #expect(!keys.surelyFree("kim"))
        try await shell.rename(accountID: kim.id, to: "Kit", nameKey: "kit")
        try await server.checkForeignWrites()
        #expect(keys.surelyFree("kim") && !keys.surelyFree("kit"))
        try await shell.deleteAccount(id: kim.id)
        try await server.checkForeignWrites()
        #expect(keys.surelyFree("kit"))
    }

    @Test func postgresAsksEveryTime() async throws {
        try await Engine.postgres.withStore { store in #expect(store.reservedNames == nil) }
    }
}
