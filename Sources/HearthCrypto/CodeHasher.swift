import Foundation

/// Stores short codes people type (recovery codes, family invite codes: 60 bits or less)
/// as BLAKE2b keyed with a server secret that lives outside the database. A copy of the
/// database alone then cannot test guesses at all, and no single hash tests every account's
/// codes at once. Argon2id per code would also work but costs ~100 ms per `!recover` or
/// `!tree join` attempt and opens a CPU-exhaustion path; the key costs nothing per check.
public struct CodeHasher: Sendable {
    /// Bytes of the server secret.
    public static let keyBytes = 32
    /// Prefix of a keyed hash in the database; rows without it are from before (plain BLAKE2b).
    public static let keyedPrefix = "k1:"
    /// Name of the secret's file in the data directory (0600).
    public static let fileName = "secret.key"

    private let key: [UInt8]

    public init(key: [UInt8]) {
        precondition(key.count == Self.keyBytes)
        self.key = key
    }

    /// A hasher with a random key, for tests and servers without a data directory.
    public static func ephemeral() -> CodeHasher { CodeHasher(key: Sodium.randomBytes(keyBytes)) }

    /// What is stored for a code (already normalised by the caller).
    public func hash(_ code: String) -> String { Self.keyedPrefix + Sodium.keyedHash(code, key: key) }

    /// The hashes a stored code may be under: keyed, or (rows made before keying) plain.
    /// Plain rows stay valid until used or expired: they cannot be re-hashed.
    public func candidates(_ code: String) -> [String] { [hash(code), Sodium.hashSecret(code)] }

    /// A key for another use of the server secret (`purpose` names it), so that no two uses
    /// share a key: what one use shows cannot be replayed against another.
    public func derivedKey(for purpose: String) -> [UInt8] {
        Sodium.keyedDigest(Array("hearth:\(purpose)".utf8), key: key, length: Self.keyBytes)
    }

    public struct KeyFileError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads the server secret from `directory/secret.key`, making it (0600) on first start,
    /// or — with `create` false, for a tool that makes codes a running server must accept —
    /// failing when there is none (a new secret there would make codes that never work).
    public static func load(directory: String, create: Bool = true) throws -> CodeHasher {
        let path = (directory as NSString).appendingPathComponent(fileName)
        guard create || FileManager.default.fileExists(atPath: path) else {
            throw KeyFileError(
                description: "no server secret at \(path): is --data-dir the server's data directory?")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            let key = Sodium.randomBytes(keyBytes)
            let written = key.withUnsafeBytes { write(fd, $0.baseAddress, keyBytes) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == keyBytes && synced else {
                unlink(path)
                throw KeyFileError(description: "could not write the server secret \(path)")
            }
            return CodeHasher(key: key)
        }
        guard errno == EEXIST else {
            throw KeyFileError(
                description: "could not create the server secret \(path): \(String(cString: strerror(errno)))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeyFileError(description: "cannot read the server secret \(path); it must be readable by this user")
        }
        guard data.count == keyBytes else {
            throw KeyFileError(
                description:
                    "the server secret \(path) is \(data.count) bytes, not \(keyBytes); restore it from a backup")
        }
        return CodeHasher(key: [UInt8](data))
    }
}
