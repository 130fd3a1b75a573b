import Foundation
import HearthCrypto
import HearthProtocol
import HearthStore

/// Account rules in one place, used by the bot commands, SASL and PASS alike.
public struct AccountService: Sendable {
    public let services: BotServices
    public init(services: BotServices) { self.services = services }

    public static let recoveryCodeCount = 8
    /// Nicks nobody may use: the bot, and the service names clients send passwords to.
    public static let reservedNicks: Set<String> = [
        Bot.nick, "nickserv", "chanserv", "memoserv", "operserv", "services",
    ]
    public static let maxEmailLength = 254
    public static let maxPhoneLength = 32

    /// Why a name cannot be an account name, or nil if it can.
    public static func nameProblem(_ name: String) -> String? {
        if !IRCNames.isValidNick(name) {
            return
                "\"\(name)\" can't be a name: use 1–\(IRCLimits.nickLength) letters, digits or - _ [ ] { } | ^, starting with a letter"
        }
        let key = IRCNames.fold(name)
        if GuestNames.isGuest(key) || reservedNicks.contains(key) || ["root", "admin"].contains(key) {
            return "the name \(name) is reserved; pick another"
        }
        return nil
    }

    public static func passwordProblem(_ password: String) -> String? {
        if password.count < PasswordHash.minPasswordLength {
            return "passwords need at least \(PasswordHash.minPasswordLength) characters"
        }
        if password.utf8.count > PasswordHash.maxPasswordBytes {
            return "passwords can be at most \(PasswordHash.maxPasswordBytes) bytes"
        }
        return nil
    }

    /// Checks a name and password against the store, with throttling. Throws a BotError
    /// that never says whether the name exists.
    public func checkPassword(name: String, password: String, address: String) async throws -> Account {
        let key = IRCNames.fold(name)
        let attempt = try await Self.start(services.throttle, accountKey: key, address: address)
        var verdict: Bool?  // nil: the check itself failed (no guess was judged)
        defer { services.throttle.finish(attempt, success: verdict) }
        let account = try await services.store.account(nameKey: key)
        // Verify against a real hash even for unknown names, so timing does not reveal them.
        let hash = account?.passwordHash ?? services.passwords.dummyHash
        let ok = try await services.passwords.verify(password, hash: hash)
        verdict = ok && account != nil
        guard ok, let account else {
            throw BotError("wrong name or password")
        }
        return account
    }

    /// The account a resume token belongs to.
    public func checkToken(_ token: String, address: String) async throws -> (Account, String) {
        let attempt = try await Self.start(services.throttle, accountKey: nil, address: address)
        var verdict: Bool?
        defer { services.throttle.finish(attempt, success: verdict) }
        let hash = Sodium.hashSecret(token)
        let account = SecretCodes.looksLikeResumeToken(token) ? try await services.store.account(tokenHash: hash) : nil
        verdict = account != nil
        guard let account else {
            throw BotError("that resume token is unknown or expired; log in with !login NAME PASSWORD")
        }
        return (account, hash)
    }

    /// Starts a throttled attempt or throws the "try again in Ns" error.
    static func start(_ throttle: LoginThrottle, accountKey: String?, address: String) async throws
        -> LoginThrottle.Attempt
    {
        do {
            return try await throttle.start(accountKey: accountKey, address: address)
        } catch {
            throw BotError("too many failed attempts; try again in \(error.seconds)s")
        }
    }

    /// What a login does to the connection: log in, and load whom the account blocks.
    public func loginEffects(_ account: AccountRef, tokenHash: String?) async throws -> [SessionEffect] {
        let blocked = try await services.store.blockedIDs(by: account.id)
        let settings = UserSettings(stored: try await services.store.settings(account.id))
        var effects: [SessionEffect] = [
            .login(account, tokenHash: tokenHash), .blocks(accountID: account.id, blocked: blocked),
            .botFlag(accountID: account.id, isBot: settings["bot"] == "on"),
        ]
        for hook in services.loginHooks.withLock({ $0 }) { effects += try await hook(services, account) }
        return effects
    }

    /// A new resume token for the account; only its hash is stored.
    public func issueToken(accountID: Int64) async throws -> (token: String, hash: String) {
        let token = SecretCodes.resumeToken()
        let hash = Sodium.hashSecret(token)
        try await services.store.addResumeToken(
            accountID: accountID, tokenHash: hash, expiresAt: Date().addingTimeInterval(services.tokenLifetime))
        return (token, hash)
    }

    /// Creates an account; returns it with its one-time recovery codes.
    public func register(name: String, password: String, email: String?, phone: String?) async throws -> (
        Account, [String]
    ) {
        if let problem = Self.nameProblem(name) { throw BotError(problem) }
        if let problem = Self.passwordProblem(password) { throw BotError(problem) }
        let codes = (0..<Self.recoveryCodeCount).map { _ in SecretCodes.code(groups: 3) }
        let hash = try await services.passwords.hash(password)
        do {
            let account = try await services.store.createAccount(
                name: name, nameKey: IRCNames.fold(name), passwordHash: hash, email: email, phone: phone,
                recoveryHashes: codes.map { services.codes.hash(SecretCodes.normalize($0)) })
            return (account, codes)
        } catch StoreError.nameTaken {
            throw BotError("the name \(name) is taken; pick another")
        }
    }

}
