public struct BotRequest: Sendable {
    public var caller: Caller
    public var input: CommandLineInput
    public var command: BotCommand
    public var bot: Bot
    public var services: BotServices { bot.services }
    /// Who is online, as the server that asks sees it.
    public var presence: any PresenceDirectory
    /// The caller's settings (nil when not logged in) and the reply style they ask for.
    public var settings: UserSettings?
    public var style = Style.plain

    public init(caller: Caller, input: CommandLineInput, command: BotCommand, bot: Bot, presence: any PresenceDirectory)
    {
        self.caller = caller
        self.input = input
        self.command = command
        self.bot = bot
        self.presence = presence
    }

    public var words: [String] { input.words }

    /// The logged-in account, or an error telling how to log in.
    public func account() throws -> AccountRef {
        guard let account = caller.account else {
            throw BotError("you need to log in first: !login NAME PASSWORD (or !register NAME PASSWORD)")
        }
        return account
    }

    public func usageError(_ reason: String? = nil) -> BotError { command.usageError(reason) }

    /// " · page: URL" of a web page (`/m/12`), to end a reply; nothing without an HTTP side.
    public func pageLink(_ path: String) -> String {
        services.pageURL(path).map { " · page: \($0)" } ?? ""
    }
}
