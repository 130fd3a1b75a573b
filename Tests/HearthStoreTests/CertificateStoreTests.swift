import Foundation
import HearthStore
import Testing

/// Client certificates for SASL EXTERNAL: one account per fingerprint, a limit per account,
/// listed, removed, and gone with the account.
@Suite struct CertificateStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func print(_ n: Int) -> String { String(format: "%064x", n) }

    @Test(arguments: Engine.allCases)
    func aFingerprintLogsInToOneAccount(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            let bob = try await AccountStoreTests.make(store, "bob").id
            #expect(try await store.addCertificate(accountID: ann, fingerprint: Self.print(1), now: Self.now) == .added)
            #expect(
                try await store.addCertificate(accountID: ann, fingerprint: Self.print(1), now: Self.now)
                    == .alreadyYours)
            #expect(try await store.addCertificate(accountID: bob, fingerprint: Self.print(1), now: Self.now) == .taken)
            #expect(try await store.account(certificateFingerprint: Self.print(1))?.id == ann)
            #expect(try await store.account(certificateFingerprint: Self.print(2)) == nil)
            #expect(try await store.certificates(accountID: ann) == [Self.print(1)])
            #expect(!(try await store.removeCertificate(accountID: bob, fingerprint: Self.print(1))), "not bob's")
            #expect(try await store.removeCertificate(accountID: ann, fingerprint: Self.print(1)))
            #expect(try await store.account(certificateFingerprint: Self.print(1)) == nil)
            #expect(try await store.addCertificate(accountID: bob, fingerprint: Self.print(1), now: Self.now) == .added)
            _ = try await store.deleteAccount(id: bob)
            #expect(try await store.account(certificateFingerprint: Self.print(1)) == nil, "gone with the account")
        }
    }

    @Test(arguments: Engine.allCases)
    func anAccountHoldsTheLimitAndNotOneMore(engine: Engine) async throws {
        try await engine.withStore { store in
            let ann = try await AccountStoreTests.make(store, "ann").id
            for n in 0..<CertificateRules.maxPerAccount {
                #expect(
                    try await store.addCertificate(accountID: ann, fingerprint: Self.print(n), now: Self.now) == .added)
            }
            #expect(
                try await store.addCertificate(accountID: ann, fingerprint: Self.print(99), now: Self.now) == .tooMany)
            #expect(try await store.certificates(accountID: ann).count == CertificateRules.maxPerAccount)
        }
    }

    @Test func fingerprintsAreReadAsClientsShowThem() {
        let hex = String(repeating: "ab", count: 32)
        let colons = (0..<32).map { _ in "AB" }.joined(separator: ":")
        #expect(CertificateRules.normalized(colons) == hex)
        #expect(CertificateRules.normalized(hex.uppercased()) == hex)
        #expect(CertificateRules.normalized(String(hex.dropLast())) == nil, "63 digits")
        #expect(CertificateRules.normalized(String(hex.dropLast()) + "g") == nil)
    }
}
