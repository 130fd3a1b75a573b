import Foundation
import HearthCrypto
import HearthProtocol
import HearthStore

/// Account rules in one place, used by the bot commands, SASL and PASS alike: names,
/// passwords (hashed off the event loops), login throttling, resume tokens and codes.
public final class AccountService: Sendable {
    public let store: Store
    public let passwords: PasswordWorker
    public let throttle: LoginThrottle
    /// Hashes short codes (recovery, invites) with the server secret.
    public let codes: CodeHasher
    /// Accounts registered per address and hour.
    public let registrations: AddressQuota
    public let tokenLifetime: TimeInterval
    /// Characters a new password needs at least (`--min-password-length`).
    public let minPasswordLength: Int
    /// New accounts must give an email address (`--registration-email-required`), by `!register`
    /// and `REGISTER` alike.
    public let emailRequired: Bool

    /// Resume tokens live 30 days.
    public static let defaultTokenLifetime: TimeInterval = 30 * 24 * 3600
    /// Accounts one address (an IPv6 /64) may register per hour.
    public static let registrationsPerAddressPerHour = 5
    /// The built-in bot's nick, which no account may take.
    public static let botNick = "hearth"

    public init(
        store: Store, passwords: PasswordWorker, throttle: LoginThrottle = LoginThrottle(),
        codes: CodeHasher = .ephemeral(),
        registrations: AddressQuota = AddressQuota(limit: AccountService.registrationsPerAddressPerHour, window: 3600),
        tokenLifetime: TimeInterval = AccountService.defaultTokenLifetime,
        minPasswordLength: Int = PasswordHash.minPasswordLength, emailRequired: Bool = false
    ) {
        self.minPasswordLength = minPasswordLength
        self.emailRequired = emailRequired
        self.store = store
        self.passwords = passwords
        self.throttle = throttle
        self.codes = codes
        self.registrations = registrations
        self.tokenLifetime = tokenLifetime
    }

    public static let recoveryCodeCount = 8
    /// What an operator's invite code (`hearth invite`) is hashed as: never a family's.
    public static func registrationInviteKey(_ code: String) -> String { "register/" + SecretCodes.normalize(code) }
    /// Registrations one operator's invite allows at most (`hearth invite --uses`).
    public static let maxRegistrationInviteUses = 1000
    /// Nicks nobody may use: the bot, and the service names clients send passwords to.
    public static let reservedNicks: Set<String> = [
        botNick, "nickserv", "chanserv", "memoserv", "operserv", "services",
    ]
    public static let maxEmailLength = 254
    public static let maxPhoneLength = 32

    /// Why a name cannot be an account name, or nil if it can.
    public static func nameProblem(_ name: String) -> String? { nameError(name)?.message }

    /// `nameProblem` with its standard-replies code: a malformed name is `BAD_ACCOUNT_NAME`, a
    /// reserved one `ACCOUNT_EXISTS` (the server holds it).
    public static func nameError(_ name: String) -> AccountError? {
        if !IRCNames.isValidNick(name) {
            return AccountError(
                "\"\(name)\" can't be a name: use 1–\(IRCLimits.nickLength) letters, digits or - _ [ ] { } | "
                    + "^, starting with a letter", code: "BAD_ACCOUNT_NAME")
        }
        let key = IRCNames.fold(name)
        if GuestNames.isGuest(key) || reservedNicks.contains(key) || ["root", "admin"].contains(key) {
            return AccountError("the name \(name) is reserved; pick another", code: "ACCOUNT_EXISTS")
        }
        return nil
    }

    /// Why `email` cannot be an account's email address, or nil if it can.
    public static func emailProblem(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= maxEmailLength, parts.count == 2, !parts[0].isEmpty, parts[1].contains(".") else {
            return "\"\(email)\" doesn't look like an email address"
        }
        return nil
    }

    /// Why `password` cannot be a new password here, or nil if it can.
    public func passwordProblem(_ password: String) -> String? {
        Self.passwordProblem(password, minimum: minPasswordLength)
    }

    public static func passwordProblem(_ password: String, minimum: Int) -> String? {
        if password.count < minimum {
            return minimum == 1 ? "a password cannot be empty" : "passwords need at least \(minimum) characters"
        }
        if password.utf8.count > PasswordHash.maxPasswordBytes {
            return "passwords can be at most \(PasswordHash.maxPasswordBytes) bytes"
        }
        return nil
    }

    /// Checks a name and password against the store, with throttling. Throws an AccountError
    /// that never says whether the name exists.
    public func checkPassword(name: String, password: String, address: String) async throws -> Stored<Account> {
        let key = IRCNames.fold(name)
        let attempt = try await Self.start(throttle, accountKey: key, address: address)
        var verdict: Bool?  // nil: the check itself failed (no guess was judged)
        defer { throttle.finish(attempt, success: verdict) }
        let account = try await store.account(nameKey: key)
        // Verify against a real hash even for unknown names, so timing does not reveal them.
        let hash = account?.passwordHash ?? passwords.dummyHash
        let ok = try await passwords.verify(password, hash: hash)
        verdict = ok && account != nil
        guard ok, let account else {
            throw AccountError("wrong name or password")
        }
        // Accounts from before SCRAM (or with fewer rounds than now) gain its keys here.
        if let scram = try? await store.scramCredentials(accountID: account.id),
            scram.iterations >= passwords.cost.scramIterations
        {
            return account
        }
        if let scram = try? await passwords.scramCredentials(password) {
            try? await store.setScramCredentials(accountID: account.id, scram)
        }
        return account
    }

    /// Sets a new password: its Argon2id hash and SCRAM-SHA-256 keys, together.
    public func setPassword(accountID: Int64, password: String) async throws {
        async let hash = passwords.hash(password)
        let scram = try await passwords.scramCredentials(password)
        try await store.setPassword(accountID: accountID, hash: try await hash, scram: scram)
    }

    /// What a SCRAM exchange needs after the client's first message: the account's salt,
    /// rounds and keys. A name without credentials (unknown, or not logged in with its
    /// password since SCRAM came) gets a salt derived from the name with the server secret
    /// and keys nobody knows, so both look like an account until the proof fails.
    public struct ScramChallenge: Sendable {
        public let accountID: Int64?
        public let credentials: ScramCredentials
        /// The folded account name the proof is throttled under (not the SCRAM user name,
        /// which may name a device: `alice@phone`).
        let nameKey: String
    }

    public func scramChallenge(name: String) async throws -> ScramChallenge {
        let key = IRCNames.fold(name)
        if let account = try await store.account(nameKey: key),
            let credentials = try await store.scramCredentials(accountID: account.id)
        {
            return ScramChallenge(accountID: account.id, credentials: credentials, nameKey: key)
        }
        let salt = Array(Scram.sha256(Array(codes.hash("scram-salt \(key)").utf8)).prefix(Scram.saltBytes))
        return ScramChallenge(
            accountID: nil,
            credentials: ScramCredentials(
                salt: salt, iterations: passwords.cost.scramIterations, storedKey: Sodium.randomBytes(32),
                serverKey: Sodium.randomBytes(32)),
            nameKey: key)
    }

    /// Checks the client's proof, throttled like a password; returns the account and the
    /// server's final message. Throws an AccountError that never says whether the name exists.
    public func scramFinish(
        _ exchange: Scram.ServerExchange, challenge: ScramChallenge, clientFinal: String, address: String
    ) async throws -> (Stored<Account>, serverFinal: String) {
        let attempt = try await Self.start(throttle, accountKey: challenge.nameKey, address: address)
        var verdict: Bool?
        defer { throttle.finish(attempt, success: verdict) }
        let credentials = challenge.credentials
        let serverFinal = try? exchange.verify(
            clientFinal: clientFinal, storedKey: credentials.storedKey, serverKey: credentials.serverKey)
        var account: Stored<Account>?
        if let id = challenge.accountID, serverFinal != nil { account = try await store.account(id: id) }
        verdict = serverFinal != nil && account != nil
        guard let serverFinal, let account else { throw AccountError("wrong name or password") }
        return (account, serverFinal)
    }

    /// The account a resume token belongs to.
    public func checkToken(_ token: String, address: String) async throws -> (Stored<Account>, String) {
        let attempt = try await Self.start(throttle, accountKey: nil, address: address)
        var verdict: Bool?
        defer { throttle.finish(attempt, success: verdict) }
        let hash = Sodium.hashSecret(token)
        let account = SecretCodes.looksLikeResumeToken(token) ? try await store.account(tokenHash: hash) : nil
        verdict = account != nil
        guard let account else {
            throw AccountError("that resume token is unknown or expired; log in with !login NAME PASSWORD")
        }
        // An owner who always uses a saved token is known here too (exempt from the ceiling).
        throttle.markKnown(accountKey: account.nameKey, address: address)
        return (account, hash)
    }

    /// A name with a password or a resume token (SASL PLAIN, the web's sign-in, HTTP Basic):
    /// the account, and the token's hash when it was a token.
    public func checkSecret(name: String, secret: String, address: String) async throws -> (
        Stored<Account>, tokenHash: String?
    ) {
        guard SecretCodes.looksLikeResumeToken(secret) else {
            return (try await checkPassword(name: name, password: secret, address: address), nil)
        }
        let (account, hash) = try await checkToken(secret, address: address)
        guard account.nameKey == IRCNames.fold(name) else { throw AccountError("token is for another account") }
        return (account, hash)
    }

    /// Starts a throttled attempt or throws the "try again in Ns" error.
    public static func start(_ throttle: LoginThrottle, accountKey: String?, address: String) async throws
        -> LoginThrottle.Attempt
    {
        do {
            return try await throttle.start(accountKey: accountKey, address: address)
        } catch {
            throw AccountError("too many failed attempts; try again in \(error.seconds)s")
        }
    }

    /// A new resume token for the account; only its hash is stored.
    public func issueToken(accountID: Int64) async throws -> (token: String, hash: String) {
        let token = SecretCodes.resumeToken()
        let hash = Sodium.hashSecret(token)
        try await store.addResumeToken(
            accountID: accountID, tokenHash: hash, expiresAt: Date().addingTimeInterval(tokenLifetime))
        return (token, hash)
    }

    /// Creates an account; returns it with its one-time recovery codes.
    public func register(name: String, password: String, email: String?, phone: String?) async throws -> (
        Stored<Account>, [String]
    ) {
        if let error = Self.nameError(name) { throw error }
        if let problem = passwordProblem(password) { throw AccountError(problem, code: "WEAK_PASSWORD") }
        if emailRequired, email == nil {
            throw AccountError("this server needs an email address for a new account", code: "INVALID_EMAIL")
        }
        if let problem = email.flatMap(Self.emailProblem) { throw AccountError(problem, code: "INVALID_EMAIL") }
        let recovery = (0..<Self.recoveryCodeCount).map { _ in SecretCodes.code(groups: 3) }
        async let scram = passwords.scramCredentials(password)
        let hash = try await passwords.hash(password)
        do {
            let account = try await store.createAccount(
                name: name, nameKey: IRCNames.fold(name), passwordHash: hash, email: email, phone: phone,
                recoveryHashes: recovery.map { codes.hash(SecretCodes.normalize($0)) })
            try await store.setScramCredentials(accountID: account.id, try await scram)
            return (account, recovery)
        } catch StoreError.nameTaken {
            throw AccountError("the name \(name) is taken; pick another", code: "ACCOUNT_EXISTS")
        }
    }
}
