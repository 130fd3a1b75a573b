import HearthCrypto
import Testing

/// The constant-time comparisons used for secrets (its name ends in SecretsTests so it runs
/// with the server's SecretsTests).
@Suite struct CryptoSecretsTests {
    @Test func constantTimeEqualComparesWholeSecretsOfAnyLength() {
        #expect(Sodium.constantTimeEqual("t0p-secret", "t0p-secret"))
        #expect(Sodium.constantTimeEqual("", ""))
        #expect(Sodium.constantTimeEqual("pässwörd", "pässwörd"))
        #expect(!Sodium.constantTimeEqual("t0p-secret", "t0p-secreT"))
        #expect(!Sodium.constantTimeEqual("t0p-secret", "t0p-secret "))
        #expect(!Sodium.constantTimeEqual("t0p-secret", "t0p"))
        #expect(!Sodium.constantTimeEqual("t0p-secret", ""))
        #expect(!Sodium.constantTimeEqual("", "x"))
        // Unicode: the same text in another normalisation is other bytes, so not equal.
        #expect(!Sodium.constantTimeEqual("caf\u{E9}", "cafe\u{301}"))
        // NUL bytes count (no C-string truncation).
        #expect(!Sodium.constantTimeEqual("ab\u{0}c", "ab\u{0}d"))
        let long = String(repeating: "x", count: 10_000)
        #expect(Sodium.constantTimeEqual(long, long))
        #expect(!Sodium.constantTimeEqual(long, long + "x"))
    }

    @Test func constantTimeEqualsOnBytes() {
        #expect(Sodium.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!Sodium.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!Sodium.constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(Sodium.constantTimeEquals([], []))
    }
}
