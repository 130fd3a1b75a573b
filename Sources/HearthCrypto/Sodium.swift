import CSodium

/// libsodium, initialised once. Every function here is thread-safe.
public enum Sodium {
    private static let ready: Bool = sodium_init() >= 0

    public static func ensureReady() {
        precondition(ready, "libsodium failed to initialise")
    }

    /// Cryptographically secure random bytes.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        ensureReady()
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// A uniformly random integer in 0..<upperBound.
    public static func randomUniform(_ upperBound: UInt32) -> UInt32 {
        ensureReady()
        return randombytes_uniform(upperBound)
    }

    /// BLAKE2b-256 of the text, as lower-case hex. Used to store high-entropy secrets
    /// (resume tokens, recovery codes) so the database never holds them in the clear.
    public static func hashSecret(_ text: String) -> String {
        hex(digest(Array(text.utf8)))
    }

    /// BLAKE2b-256 of the text keyed with `key` (16 to 64 bytes), as lower-case hex.
    public static func keyedHash(_ text: String, key: [UInt8]) -> String {
        ensureReady()
        precondition((16...64).contains(key.count), "BLAKE2b keys are 16 to 64 bytes")
        let input = Array(text.utf8)
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_generichash(&out, 32, input, UInt64(input.count), key, key.count)
        return hex(out)
    }

    /// BLAKE2b of the bytes keyed with `key` (16 to 64 bytes), `length` (16 to 64) bytes long.
    public static func keyedDigest(_ input: [UInt8], key: [UInt8], length: Int = 32) -> [UInt8] {
        ensureReady()
        precondition((16...64).contains(key.count), "BLAKE2b keys are 16 to 64 bytes")
        precondition((16...64).contains(length), "BLAKE2b digests are 16 to 64 bytes")
        var out = [UInt8](repeating: 0, count: length)
        _ = crypto_generichash(&out, length, input, UInt64(input.count), key, key.count)
        return out
    }

    /// BLAKE2b-256 of the bytes, as lower-case hex (content addresses).
    public static func contentHash(_ bytes: [UInt8]) -> String { hex(digest(bytes)) }

    /// BLAKE2b-256 of the bytes.
    static func digest(_ input: [UInt8]) -> [UInt8] {
        ensureReady()
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_generichash(&out, 32, input, UInt64(input.count), nil, 0)
        return out
    }

    /// Compares two byte strings in constant time (for equal lengths; a different
    /// length returns at once, so use `constantTimeEqual` when the length is secret too).
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return sodium_memcmp(a, b, a.count) == 0
    }

    /// Compares a secret with what was offered, in constant time whatever their lengths:
    /// both are hashed (BLAKE2b-256) and the digests compared with `sodium_memcmp`, so
    /// neither the first differing byte nor the secret's length shows in the time taken.
    public static func constantTimeEqual(_ secret: String, _ offered: String) -> Bool {
        constantTimeEquals(digest(Array(secret.utf8)), digest(Array(offered.utf8)))
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
