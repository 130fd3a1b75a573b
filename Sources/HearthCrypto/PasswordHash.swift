import CSodium

/// Argon2id password hashing (`crypto_pwhash_str`). Each call costs ~100 ms and 64 MiB:
/// callers must run it on a bounded thread pool, never on an event loop.
public enum PasswordHash {
    /// Longest password accepted, in UTF-8 bytes.
    public static let maxPasswordBytes = 1024
    public static let minPasswordLength = 8

    /// What storing one password costs: Argon2id's limits, and the PBKDF2 rounds of the
    /// SCRAM-SHA-256 credentials kept next to it (tests lower both).
    public struct Cost: Sendable {
        public var opsLimit: UInt64
        public var memLimit: Int
        public var scramIterations: Int
        public static let interactive = Cost(
            opsLimit: UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), memLimit: Int(crypto_pwhash_MEMLIMIT_INTERACTIVE))
        public init(opsLimit: UInt64, memLimit: Int, scramIterations: Int = Scram.iterations) {
            self.opsLimit = opsLimit
            self.memLimit = memLimit
            self.scramIterations = scramIterations
        }
    }

    public static func hash(_ password: String, cost: Cost = .interactive) -> String? {
        Sodium.ensureReady()
        let bytes = Array(password.utf8)
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let rc = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(bytes.count, 1)) { ptr in
                crypto_pwhash_str(&out, ptr, UInt64(bytes.count), cost.opsLimit, cost.memLimit)
            }
        }
        guard rc == 0 else { return nil }
        let bytes8 = out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes8, as: UTF8.self)
    }

    public static func verify(_ password: String, hash: String) -> Bool {
        Sodium.ensureReady()
        let bytes = Array(password.utf8) + [0]
        guard hash.hasPrefix("$argon2") else { return false }
        return hash.withCString { h in
            bytes.withUnsafeBufferPointer { buf in
                buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { ptr in
                    crypto_pwhash_str_verify(h, ptr, UInt64(bytes.count - 1)) == 0
                }
            }
        }
    }
}
