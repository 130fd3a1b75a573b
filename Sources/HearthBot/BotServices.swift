import Foundation
import HearthCrypto
import HearthStore
import Logging
import NIOPosix
import Synchronization

public typealias LoginHook = @Sendable (BotServices, AccountRef) async throws -> [SessionEffect]

/// What command handlers may use: the store, password hashing off the event loops,
/// login throttling and a view of who is online.
public final class BotServices: Sendable {
    public let store: Store
    public let passwords: PasswordWorker
    public let throttle: LoginThrottle
    public let presence: any PresenceDirectory
    public let logger: Logger
    public let tokenLifetime: TimeInterval
    /// Pictures: uploads, memes, grids (nil when the server runs without them).
    public let media: MediaLibrary?
    /// The sayings fortune cookies are made of.
    public let fortunes: FortuneCatalogue?
    public let clock: HearthClock
    /// Edamam recipe search, when the operator configured keys.
    public let edamam: EdamamClient?
    /// Hashes short codes (recovery, invites) with the server secret.
    public let codes: CodeHasher
    /// Accounts registered per address and hour.
    public let registrations: AddressQuota
    /// What apps add to every login (see `BotApp.onLogin`); set by `Bot`.
    let loginHooks = Mutex<[LoginHook]>([])

    /// Resume tokens live 30 days.
    public static let defaultTokenLifetime: TimeInterval = 30 * 24 * 3600
    /// Accounts one address (an IPv6 /64) may register per hour.
    public static let registrationsPerAddressPerHour = 5

    public init(
        store: Store, passwords: PasswordWorker, throttle: LoginThrottle = LoginThrottle(),
        presence: any PresenceDirectory, logger: Logger = Logger(label: "hearth.bot"),
        tokenLifetime: TimeInterval = BotServices.defaultTokenLifetime, media: MediaLibrary? = nil,
        apps: AppsConfig = AppsConfig(), clock: HearthClock = .system,
        codes: CodeHasher = .ephemeral(),
        registrations: AddressQuota = AddressQuota(limit: BotServices.registrationsPerAddressPerHour, window: 3600)
    ) {
        self.codes = codes
        self.registrations = registrations
        self.edamam = apps.edamam.map { EdamamClient(config: $0) }
        self.media = media
        self.fortunes = FortuneCatalogue.load(
            directory: apps.fortunesDirectory, offensive: apps.fortunesOffensive, builtin: apps.builtinFortunes)
        self.clock = clock
        self.store = store
        self.passwords = passwords
        self.throttle = throttle
        self.presence = presence
        self.logger = logger
        self.tokenLifetime = tokenLifetime
    }
}

/// Argon2id hashing and verifying on a small dedicated thread pool, so at most
/// `threads` hashes (64 MiB each) run at once and no event loop ever waits.
public final class PasswordWorker: Sendable {
    public let pool: NIOThreadPool
    public let cost: PasswordHash.Cost
    /// A hash of a random password at the same cost, verified against for unknown names
    /// so that the time taken does not reveal which names exist.
    public let dummyHash: String

    public init(threads: Int = 2, cost: PasswordHash.Cost = .interactive) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        self.cost = cost
        dummyHash = PasswordHash.hash(Sodium.hex(Sodium.randomBytes(16)), cost: cost)!
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        let result = try await pool.runIfActive { PasswordHash.hash(password, cost: cost) }
        guard let result else { throw BotError("could not hash the password (out of memory?); try again") }
        return result
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await pool.runIfActive { PasswordHash.verify(password, hash: hash) }
    }

    public func shutdown() async throws {
        try await pool.shutdownGracefully()
    }
}
