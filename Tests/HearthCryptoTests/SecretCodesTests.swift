import HearthCrypto
import Testing

@Suite struct SecretCodesTests {
    @Test func codesUseTheReadableAlphabet() {
        let code = SecretCodes.code(groups: 3)
        #expect(code.count == 14)
        let allowed = Set(SecretCodes.alphabet)
        #expect(code.filter { $0 != "-" }.allSatisfy { allowed.contains($0) })
        #expect(
            !SecretCodes.alphabet.contains("O") && !SecretCodes.alphabet.contains("0")
                && !SecretCodes.alphabet.contains("I"))
        #expect(SecretCodes.normalize("k7qp m2xd-9fwt") == "K7QPM2XD9FWT")
    }

    @Test func tokensAreRandomAndRecognised() {
        let a = SecretCodes.resumeToken()
        let b = SecretCodes.resumeToken()
        #expect(a != b)
        #expect(SecretCodes.looksLikeResumeToken(a))
        #expect(!SecretCodes.looksLikeResumeToken("hrt_short"))
        #expect(Sodium.hashSecret(a) != a)
        #expect(Sodium.hashSecret(a).count == 64)
    }

    @Test func argon2idHashesVerify() throws {
        let cost = PasswordHash.Cost(opsLimit: 1, memLimit: 8192 * 8)
        let hash = try #require(PasswordHash.hash("pässwörd", cost: cost))
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(PasswordHash.verify("pässwörd", hash: hash))
        #expect(!PasswordHash.verify("password", hash: hash))
        #expect(!PasswordHash.verify("x", hash: "not-a-hash"))
    }
}
