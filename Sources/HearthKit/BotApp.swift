import HearthStore

/// One app of the bot: its commands, its line on `!profile`, what it adds to a login, the
/// channels it guards and the services it brings (the store deletes an account's rows of
/// every app itself, on every engine; `onAccountDeleted` tells people what changed).
/// Adding an app means adding one value to the list the executable gives `Bot` (`BuiltInApps.builtIn`).
/// An app's answer to a private line that is not a command (nil: not for this app).
public typealias LineContinuation = @Sendable (Bot, Caller, any PresenceDirectory, String) async -> BotResponse?
/// What time passing makes an app do (a birthday announced on its day), asked when the server
/// starts and every `Bot.tickInterval`; effects with no connection, like a web form's.
public typealias TickHook = @Sendable (BotServices) async throws -> [SessionEffect]

public struct BotApp: Sendable {
    public var name: String
    public var commands: [BotCommand]
    /// A line for `!profile` (e.g. "memes: 12 · likes: 40"), or nil to show nothing.
    public var profileLine: (@Sendable (ProfileContext) async throws -> String?)?
    /// Effects of every login (e.g. "today's cookie is waiting").
    public var onLogin: LoginHook?
    /// Effects once an account is deleted (e.g. a family channel's members, its new founder told).
    public var onAccountDeleted: AccountDeletionHook?
    /// Effects of time passing (see `TickHook`).
    public var onTick: TickHook?
    /// A line said privately that is not a command but continues what the app is doing with
    /// the caller (a recipe being written); nil when it does not.
    public var continuation: LineContinuation?
    /// The channels the app guards (loaded when the server starts) and the names it keeps.
    public var guardedChannels: (@Sendable (BotServices) async throws -> [GuardedChannel])?
    public var reservedChannels: ReservedChannels?
    /// Services of the app's own (a catalogue, an API client), found with `BotServices.service`.
    public var services: [any Sendable]
    /// The app's web pages and the forms they post (see `WebPage`).
    public var pages: [WebPage]
    public var actions: [WebAction]
    /// Pictures its pages draw on request (a preview), see `WebPicture`.
    public var pictures: [WebPicture]

    public init(
        name: String, commands: [BotCommand],
        profileLine: (@Sendable (ProfileContext) async throws -> String?)? = nil,
        onLogin: LoginHook? = nil, onAccountDeleted: AccountDeletionHook? = nil, onTick: TickHook? = nil,
        continuation: LineContinuation? = nil,
        guardedChannels: (@Sendable (BotServices) async throws -> [GuardedChannel])? = nil,
        reservedChannels: ReservedChannels? = nil, services: [any Sendable] = [], pages: [WebPage] = [],
        actions: [WebAction] = [], pictures: [WebPicture] = []
    ) {
        self.pictures = pictures
        self.services = services
        self.pages = pages
        self.actions = actions
        self.continuation = continuation
        self.guardedChannels = guardedChannels
        self.reservedChannels = reservedChannels
        self.onLogin = onLogin
        self.onAccountDeleted = onAccountDeleted
        self.onTick = onTick
        self.name = name
        self.commands = commands
        self.profileLine = profileLine
    }
}
