import Foundation
import HearthCrypto

public struct Account: Codable, Sendable, Equatable {
    public var name: String
    public var nameKey: String
    public var passwordHash: String
    public var email: String?
    public var phone: String?
    public var createdAt: Date
    public var bio: String = ""
    public var avatarImageId: String? = nil
}

public enum StoreError: Error, Equatable, Sendable {
    case nameTaken
    case notFound
}

/// The accounts part of the store, the same on every engine.
/// What deleting an account did beyond its own rows.
public struct AccountDeletion: Sendable, Equatable {
    /// Rendered memes nothing shows any more: their rows are gone, the caller deletes the files.
    public var renders: [String]
    /// Every family the account was in, as it stands now.
    public var families: [FamilyDeparture]

    public init(renders: [String] = [], families: [FamilyDeparture] = []) {
        (self.renders, self.families) = (renders, families)
    }
}

public protocol AccountStore: Sendable {
    /// Creates an account with its recovery-code hashes in one transaction.
    func createAccount(
        name: String, nameKey: String, passwordHash: String, email: String?, phone: String?, recoveryHashes: [String],
        now: Date
    ) async throws -> Stored<Account>

    func account(nameKey: String) async throws -> Stored<Account>?

    /// The name keys accounts hold, known in memory while only this process writes accounts
    /// (nil: ask `account(nameKey:)`).
    var reservedNames: ReservedNameKeys? { get }

    func account(id: Int64) async throws -> Stored<Account>?

    /// Replaces the password hash and the SCRAM-SHA-256 credentials in one transaction; nil
    /// removes them, so keys derived from an old password never outlive it.
    func setPassword(accountID: Int64, hash: String, scram: ScramCredentials?) async throws

    /// The account's SCRAM-SHA-256 credentials, if a password was set or used since they exist.
    func scramCredentials(accountID: Int64) async throws -> ScramCredentials?

    func setScramCredentials(accountID: Int64, _ credentials: ScramCredentials) async throws

    /// Renames; the old name leads to the account (`account(formerNameKey:)`) until someone
    /// takes it, and taking a name ends what it led to before.
    func rename(accountID: Int64, to name: String, nameKey: String) async throws

    /// The account that was called `nameKey` before a rename, while nobody has taken the name since.
    func account(formerNameKey: String) async throws -> Stored<Account>?

    /// Deletes the account and everything only it owned (docs/DATA.md lists what goes and
    /// what stays); its families stay with the others in them.
    func deleteAccount(id: Int64) async throws -> AccountDeletion

    func addResumeToken(accountID: Int64, tokenHash: String, expiresAt: Date, now: Date) async throws

    /// The account a live (unexpired) token belongs to.
    func account(tokenHash: String, now: Date) async throws -> Stored<Account>?

    func revokeToken(tokenHash: String) async throws

    func revokeAllTokens(accountID: Int64) async throws

    /// Marks an unused recovery code as used and returns the account, atomically:
    /// a code works once even when two connections race. `codeHashes` are the forms the
    /// code may be stored under (keyed, or plain from before keying).
    func consumeRecoveryCode(nameKey: String, codeHashes: [String], now: Date) async throws -> Stored<Account>?

    func unusedRecoveryCodes(accountID: Int64) async throws -> Int
}

extension AccountStore {
    public func createAccount(
        name: String, nameKey: String, passwordHash: String, email: String?, phone: String?, recoveryHashes: [String]
    ) async throws -> Stored<Account> {
        try await createAccount(
            name: name, nameKey: nameKey, passwordHash: passwordHash, email: email, phone: phone,
            recoveryHashes: recoveryHashes, now: Date())
    }

    /// A new password hash without SCRAM credentials (they come back at the next password login).
    public func setPassword(accountID: Int64, hash: String) async throws {
        try await setPassword(accountID: accountID, hash: hash, scram: nil)
    }

    public func addResumeToken(accountID: Int64, tokenHash: String, expiresAt: Date) async throws {
        try await addResumeToken(accountID: accountID, tokenHash: tokenHash, expiresAt: expiresAt, now: Date())
    }

    public func account(tokenHash: String) async throws -> Stored<Account>? {
        try await account(tokenHash: tokenHash, now: Date())
    }

    public func consumeRecoveryCode(nameKey: String, codeHashes: [String]) async throws -> Stored<Account>? {
        try await consumeRecoveryCode(nameKey: nameKey, codeHashes: codeHashes, now: Date())
    }
}

/// SCRAM credentials as both engines keep them: keys and salt in base64 text.
extension ScramCredentials {
    var storedColumns: (salt: String, iterations: Int64, storedKey: String, serverKey: String) {
        (
            Data(salt).base64EncodedString(), Int64(iterations), Data(storedKey).base64EncodedString(),
            Data(serverKey).base64EncodedString()
        )
    }

    init(stored: (salt: String, iterations: Int64, storedKey: String, serverKey: String)) {
        func bytes(_ text: String) -> [UInt8] { Data(base64Encoded: text).map(Array.init) ?? [] }
        self.init(
            salt: bytes(stored.salt), iterations: Int(stored.iterations), storedKey: bytes(stored.storedKey),
            serverKey: bytes(stored.serverKey))
    }
}
