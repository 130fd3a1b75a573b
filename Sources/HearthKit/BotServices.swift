import Foundation
import HearthAccounts
import HearthCrypto
import HearthMediaLibrary
import HearthStore
import Logging
import Synchronization

public typealias LoginHook = @Sendable (BotServices, AccountRef) async throws -> [SessionEffect]
/// An app's part of deleting an account, once the store deleted it (a family's new founder is told).
public typealias AccountDeletionHook =
    @Sendable (BotServices, AccountRef, AccountDeletion) async throws -> [SessionEffect]

/// What command handlers may use: the store, the account rules, pictures, and whatever
/// services the apps brought (see `BotApp.services`). Who is online comes with each request.
public final class BotServices: Sendable {
    public let store: Store
    public let accounts: AccountService
    public let logger: Logger
    /// Pictures: uploads, memes, grids (nil when the server runs without them).
    public let media: MediaLibrary?
    public let clock: HearthClock
    /// Services apps brought, by type.
    private let appServices: [ObjectIdentifier: any Sendable]
    /// What apps add to every login (see `BotApp.onLogin`); set by `Bot`.
    let loginHooks = Mutex<[LoginHook]>([])
    /// What apps do when an account is deleted (see `BotApp.onAccountDeleted`); set by `Bot`.
    let deletionHooks = Mutex<[AccountDeletionHook]>([])
    /// Counts commands run: a rendered page kept for visitors is good only while it is unchanged.
    private let commandsRun = Atomic<Int>(0)

    /// Told of every command that ran, by name, and how long it took (the server's metrics).
    public let commandObserver = Hook<(String, Duration)>()

    /// Called after every command, once what it wrote is written.
    public func noteCommandRun(_ name: String? = nil, took: Duration = .zero) {
        commandsRun.add(1, ordering: .releasing)
        if let name { commandObserver((name, took)) }
    }
    /// How many commands have run (see `noteCommandRun`).
    public var commandCount: Int { commandsRun.load(ordering: .acquiring) }

    public init(
        store: Store, accounts: AccountService,
        logger: Logger = Logger(label: "hearth.bot"), media: MediaLibrary? = nil, clock: HearthClock = .system,
        appServices: [any Sendable] = []
    ) {
        self.store = store
        self.accounts = accounts
        self.logger = logger
        self.media = media
        self.clock = clock
        var byType: [ObjectIdentifier: any Sendable] = [:]
        for service in appServices { byType[ObjectIdentifier(type(of: service))] = service }
        self.appServices = byType
    }

    /// The service of this type an app brought, if any.
    public func service<T: Sendable>(_ type: T.Type) -> T? {
        appServices[ObjectIdentifier(type)] as? T
    }

    /// The web address of a page (`/m/12` → `http://host:8080/m/12`), for links in replies;
    /// nil when the server has no HTTP side.
    public func pageURL(_ path: String) -> String? { media.map { $0.publicURL + path } }

    public var passwords: PasswordWorker { accounts.passwords }
    public var throttle: LoginThrottle { accounts.throttle }
    public var codes: CodeHasher { accounts.codes }

    /// What a login does to the connection: log in, load whom the account blocks, and what
    /// each app adds (e.g. "today's cookie is waiting").
    public func loginEffects(_ account: AccountRef, tokenHash: String?) async throws -> [SessionEffect] {
        try await refuseBannedAccount(account)
        let blocked = try await store.blockedIDs(by: account.id)
        let settings = UserSettings(stored: try await store.settings(account.id))
        var effects: [SessionEffect] = [
            .login(account, tokenHash: tokenHash), .blocks(accountID: account.id, blocked: blocked),
            .botFlag(accountID: account.id, isBot: settings["bot"] == "on"),
            .alwaysOn(accountID: account.id, choice: AlwaysOnRules.choice(settings[AlwaysOnRules.settingKey])),
        ]
        effects.append(.profile(accountID: account.id, fields: try await profileValues(account.id)))
        for hook in loginHooks.withLock({ $0 }) { effects += try await hook(self, account) }
        return effects
    }

    /// An account's profile as metadata keys: its fields, its bio, and its picture's address as
    /// `avatar` unless it set one.
    public func profileValues(_ accountID: Int64) async throws -> [String: String] {
        var fields = try await store.profileFields(accountID)
        guard let account = try await store.account(id: accountID) else { return fields }
        if !account.bio.isEmpty, ProfileFields.valueProblem(account.bio) == nil { fields["bio"] = account.bio }
        if fields["avatar"] == nil, let picture = account.avatarImageId, let media,
            let image = try await store.image(id: picture)
        {
            fields["avatar"] = media.url(image)
        }
        return fields
    }

    /// What the apps do once the store deleted an account (its connections are logged out first).
    /// An app's failure is logged, not thrown: the account is already deleted, and its logout
    /// and the other apps' parts must still happen.
    public func deletionEffects(_ account: AccountRef, _ deletion: AccountDeletion) async -> [SessionEffect] {
        var effects: [SessionEffect] = []
        for hook in deletionHooks.withLock({ $0 }) {
            do { effects += try await hook(self, account, deletion) } catch {
                logger.error("an app's part of deleting account \(account.id) failed: \(error)")
            }
        }
        return effects
    }
}
