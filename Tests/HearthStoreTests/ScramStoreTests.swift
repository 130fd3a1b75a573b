import Foundation
import HearthCrypto
import HearthStore
import Testing

/// SCRAM-SHA-256 credentials (migration v13 on SQLite, v8 on PostgreSQL), the same on every engine.
@Suite struct ScramStoreTests {
    static func credentials(_ fill: UInt8, iterations: Int = 4096) -> ScramCredentials {
        ScramCredentials(
            salt: [UInt8](repeating: fill, count: 16), iterations: iterations,
            storedKey: [UInt8](repeating: fill &+ 1, count: 32), serverKey: [UInt8](repeating: fill &+ 2, count: 32))
    }

    @Test(arguments: Engine.allCases)
    func credentialsAreKeptReplacedWithThePasswordAndDeletedWithTheAccount(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann")
            let bob = try await AccountStoreTests.make(store, "bob")
            #expect(try await store.scramCredentials(accountID: ann.id) == nil)
            try await store.setScramCredentials(accountID: ann.id, Self.credentials(1))
            try await store.setScramCredentials(accountID: bob.id, Self.credentials(9))
            #expect(try await store.scramCredentials(accountID: ann.id) == Self.credentials(1))
            // Set again (more rounds): replaced, not added.
            try await store.setScramCredentials(accountID: ann.id, Self.credentials(2, iterations: 100_000))
            #expect(try await store.scramCredentials(accountID: ann.id) == Self.credentials(2, iterations: 100_000))

            // A new password with keys replaces both; without keys, the old keys go.
            try await store.setPassword(accountID: ann.id, hash: "h2", scram: Self.credentials(3))
            #expect(try await store.scramCredentials(accountID: ann.id) == Self.credentials(3))
            #expect(try await store.account(id: ann.id)?.passwordHash == "h2")
            try await store.setPassword(accountID: ann.id, hash: "h3")
            #expect(try await store.scramCredentials(accountID: ann.id) == nil)
            #expect(try await store.account(id: ann.id)?.passwordHash == "h3")

            #expect(try await store.scramCredentials(accountID: bob.id) == Self.credentials(9))
            try await store.deleteAccount(id: bob.id)
            #expect(try await store.scramCredentials(accountID: bob.id) == nil)
        }
    }
}
