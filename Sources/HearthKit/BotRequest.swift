public struct BotRequest: Sendable {
    public var caller: Caller
    public var input: CommandLineInput
    public var command: BotCommand
    public var bot: Bot
    public var services: BotServices { bot.services }
    /// The caller's settings (nil when not logged in) and the reply style they ask for.
    public var settings: UserSettings?
    public var style = Style.plain

    public init(caller: Caller, input: CommandLineInput, command: BotCommand, bot: Bot) {
        self.caller = caller
        self.input = input
        self.command = command
        self.bot = bot
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
}
