import HearthStore

/// One app of the bot: its commands, its line on `!profile`, and its part of the account
/// deletion cascade. Adding an app means adding one value to `Bot`'s list.
public struct BotApp: Sendable {
    public var name: String
    public var commands: [BotCommand]
    /// A line for `!profile` (e.g. "memes: 12 · likes: 40"), or nil to show nothing.
    public var profileLine: (@Sendable (ProfileContext) async throws -> String?)?
    public var cleanup: AccountCleanup?
    /// Effects of every login (e.g. "today's cookie is waiting").
    public var onLogin: LoginHook?
    /// A line said privately that is not a command but continues what the app is doing with
    /// the caller (a recipe being written); nil when it does not.
    public var continuation: (@Sendable (Bot, Caller, String) async -> BotResponse?)?
    /// The channels the app guards (loaded when the server starts) and the names it keeps.
    public var guardedChannels: (@Sendable (BotServices) async throws -> [GuardedChannel])?
    public var reservedChannels: ReservedChannels?

    public init(
        name: String, commands: [BotCommand],
        profileLine: (@Sendable (ProfileContext) async throws -> String?)? = nil, cleanup: AccountCleanup? = nil,
        onLogin: LoginHook? = nil, continuation: (@Sendable (Bot, Caller, String) async -> BotResponse?)? = nil,
        guardedChannels: (@Sendable (BotServices) async throws -> [GuardedChannel])? = nil,
        reservedChannels: ReservedChannels? = nil
    ) {
        self.continuation = continuation
        self.guardedChannels = guardedChannels
        self.reservedChannels = reservedChannels
        self.onLogin = onLogin
        self.name = name
        self.commands = commands
        self.profileLine = profileLine
        self.cleanup = cleanup
    }

    public static let builtIn: [BotApp] = [
        BotApp(name: "accounts", commands: AccountCommands.all),
        BotApp(name: "social", commands: SocialCommands.all),
        BotApp(name: "channels", commands: ChannelCommands.all + HistoryCommands.all),
        BotApp(
            name: "memes", commands: PictureCommands.all + MemeCommands.all + CommentCommands.all,
            profileLine: { try await MemeCommands.profileLine($0, media: $0.media) },
            cleanup: { db, id in try Store.forgetReactions(db, accountID: id) }),
        BotApp(
            name: "fortunes", commands: FortuneCommands.all, profileLine: { try await FortuneCommands.profileLine($0) },
            onLogin: { try await FortuneCommands.onLogin($0, $1) }),
        BotApp(
            name: "recipes", commands: RecipeCommands.all, profileLine: { try await RecipeCommands.profileLine($0) },
            onLogin: { try await RecipeCommands.onLogin($0, $1) },
            continuation: { await RecipeCommands.continueDraft(bot: $0, caller: $1, line: $2) }),
        BotApp(
            name: "family", commands: FamilyCommands.all + LocationCommands.all + FamilyFeedCommands.all,
            onLogin: { try await FamilyCommands.onLogin($0, $1) },
            guardedChannels: { try await FamilyCommands.guardedChannels($0) },
            reservedChannels: FamilyCommands.reservedChannels),
        BotApp(name: "help", commands: HelpCommands.all),
    ]
}
