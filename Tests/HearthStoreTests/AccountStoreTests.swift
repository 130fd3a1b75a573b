import Foundation
import HearthStore
import Testing

/// The accounts area, the same on every engine.
@Suite struct AccountStoreTests {
    static func make(_ store: any AccountStore, _ name: String, codes: [String] = []) async throws -> Stored<Account> {
        try await store.createAccount(
            name: name, nameKey: name.lowercased(), passwordHash: "hash-\(name)", email: nil, phone: nil,
            recoveryHashes: codes)
    }

    @Test(arguments: Engine.allCases)
    func accountsAreFoundRenamedAndDeleted(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await Self.make(store, "Ann")
            #expect(ann.id > 0 && ann.name == "Ann" && ann.bio == "")
            // Engines keep times to the millisecond (SQLite) or microsecond: compare what was said.
            let found = try await store.account(nameKey: "ann")
            #expect(found?.id == ann.id && found?.name == "Ann" && found?.passwordHash == "hash-Ann")
            #expect(try await store.account(id: ann.id)?.nameKey == "ann")
            #expect(try await store.account(nameKey: "nobody") == nil)
            await #expect(throws: StoreError.nameTaken) { _ = try await Self.make(store, "ANN".lowercased()) }

            let bob = try await Self.make(store, "Bob")
            await #expect(throws: StoreError.nameTaken) {
                try await store.rename(accountID: bob.id, to: "Ann", nameKey: "ann")
            }
            try await store.rename(accountID: bob.id, to: "Robert", nameKey: "robert")
            #expect(try await store.account(nameKey: "robert")?.id == bob.id)
            await #expect(throws: StoreError.notFound) {
                try await store.rename(accountID: 999_999, to: "Ghost", nameKey: "ghost")
            }
            try await store.setPassword(accountID: bob.id, hash: "new-hash")
            #expect(try await store.account(id: bob.id)?.passwordHash == "new-hash")

            #expect(try await store.deleteAccount(id: bob.id) == AccountDeletion())
            #expect(try await store.account(id: bob.id) == nil)
            #expect(try await store.account(id: ann.id) != nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func resumeTokensLiveUntilTheyExpireOrAreRevoked(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await Self.make(store, "ann")
            let now = Date()
            try await store.addResumeToken(accountID: ann.id, tokenHash: "t1", expiresAt: now + 60)
            try await store.addResumeToken(accountID: ann.id, tokenHash: "t2", expiresAt: now + 60)
            #expect(try await store.account(tokenHash: "t1")?.id == ann.id)
            #expect(try await store.account(tokenHash: "t1", now: now + 61) == nil)
            #expect(try await store.account(tokenHash: "unknown") == nil)
            try await store.revokeToken(tokenHash: "t1")
            #expect(try await store.account(tokenHash: "t1") == nil)
            #expect(try await store.account(tokenHash: "t2")?.id == ann.id)
            try await store.revokeAllTokens(accountID: ann.id)
            #expect(try await store.account(tokenHash: "t2") == nil)
        }
    }

    /// A recovery code works once, also when many connections race for it at once.
    @Test(arguments: Engine.allCases)
    func aRecoveryCodeWorksOnceUnderARace(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await Self.make(store, "ann", codes: ["c1", "c2"])
            #expect(try await store.unusedRecoveryCodes(accountID: ann.id) == 2)
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await store.consumeRecoveryCode(nameKey: "ann", codeHashes: ["c1"]) != nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            #expect(try await store.unusedRecoveryCodes(accountID: ann.id) == 1)
            #expect(try await store.consumeRecoveryCode(nameKey: "ann", codeHashes: ["c1"]) == nil)
            #expect(try await store.consumeRecoveryCode(nameKey: "ann", codeHashes: ["x", "c2"])?.id == ann.id)
            #expect(try await store.consumeRecoveryCode(nameKey: "nobody", codeHashes: ["c2"]) == nil)
        }
    }
}
