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
