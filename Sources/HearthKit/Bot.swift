import HearthAccounts
import HearthProtocol
import HearthStore

/// The built-in bot `hearth`: a command table and a dispatcher.
/// It answers with values, never bytes, so IRC, plain mode and tests share it.
public final class Bot: Sendable {
    public static let nick = AccountService.botNick
    public let services: BotServices
    public let commands: [String: BotCommand]
    public let apps: [BotApp]
    /// Groups in the order `!help` lists them.
    public let groupOrder: [String]

    public init(services: BotServices, apps: [BotApp]) {
        self.services = services
        self.apps = apps
        var table: [String: BotCommand] = [:]
        var groups: [String] = []
        for command in apps.flatMap(\.commands) {
            precondition(table[command.name] == nil, "duplicate command \(command.name)")
            table[command.name] = command
            if !groups.contains(command.group) { groups.append(command.group) }
        }
        commands = table
        groupOrder = groups
        services.loginHooks.withLock { $0 = apps.compactMap(\.onLogin) }
        services.deletionHooks.withLock { $0 = apps.compactMap(\.onAccountDeleted) }
    }

    /// The channels the apps guard, as they stand in the store.
    public func guardedChannels() async throws -> [GuardedChannel] {
        var all: [GuardedChannel] = []
        for app in apps { if let load = app.guardedChannels { all += try await load(services) } }
        return all
    }

    /// How often the server asks the apps what time passing makes them do (`BotApp.onTick`).
    public static let tickInterval: Duration = .seconds(60)

    /// What time passing makes the apps do now; an app that fails is logged and skipped.
    public func tick() async -> [SessionEffect] {
        var all: [SessionEffect] = []
        for app in apps {
            guard let tick = app.onTick else { continue }
            do { all += try await tick(services) } catch {
                services.logger.warning("\(app.name): tick failed: \(error)")
            }
        }
        return all
    }

    /// The app reservation a folded channel name falls under, if any.
    public func reservation(for foldedName: String) -> ReservedChannels? {
        apps.lazy.compactMap(\.reservedChannels).first { foldedName.hasPrefix($0.prefix) }
    }

    /// True when the line is, or looks like a mistyped, command that carries a secret
    /// (it must not reach a channel): `!logn alice pw` is as secret as `!login alice pw`.
    public func isSecret(_ text: String) -> Bool {
        guard let input = CommandLineInput.parse(text, requireBang: true) else { return false }
        if let command = commands[input.name] { return command.carriesSecret(input.words) }
        return Suggest.closest(to: input.name, in: Array(commands.keys)).contains {
            commands[$0]?.carriesSecret(input.words) == true
        }
    }

    /// Runs one command line. `requireBang` is true in channels, false in private.
    /// Returns nil when the text is not a command at all.
    public func handle(
        _ text: String, caller: Caller, presence: any PresenceDirectory, requireBang: Bool
    ) async -> BotResponse? {
        let started = ContinuousClock.now
        var ran: String?
        defer { services.noteCommandRun(ran, took: .now - started) }
        // A line said privately that continues what an app is doing (a recipe being written).
        if !requireBang, caller.account != nil, !text.drop(while: { $0 == " " }).hasPrefix("!") {
            for continuation in apps.compactMap(\.continuation) {
                if let response = await continuation(self, caller, presence, text) { return response }
            }
        }
        guard let input = CommandLineInput.parse(text, requireBang: requireBang) else { return nil }
        return await dispatch(input, caller: caller, presence: presence, ran: &ran)
    }

    /// Runs one command from words already apart: a web form's fields, never written out as a
    /// line (a password in a line could reach a log; a password with a space would be two words).
    public func run(
        _ name: String, words: [String], caller: Caller, presence: any PresenceDirectory
    ) async -> BotResponse {
        let started = ContinuousClock.now
        var ran: String?
        defer { services.noteCommandRun(ran, took: .now - started) }
        let input = CommandLineInput(name: name, words: words, rest: words.joined(separator: " "))
        return await dispatch(input, caller: caller, presence: presence, ran: &ran)
    }

    func dispatch(
        _ input: CommandLineInput, caller: Caller, presence: any PresenceDirectory, ran: inout String?
    ) async -> BotResponse {
        guard let command = commands[input.name] else {
            ran = "unknown"
            return .failed(unknownCommandMessage(input.name), command: input.name, code: "UNKNOWN_COMMAND")
        }
        ran = command.name
        if !command.arity.contains(input.words.count) {
            let reason = input.words.count < command.arity.lowerBound ? "missing arguments" : "too many arguments"
            return .failed(command.usageError(reason).message, command: command.name, code: "INVALID_PARAMS")
        }
        var request = BotRequest(caller: caller, input: input, command: command, bot: self, presence: presence)
        do {
            if let account = caller.account {
                let settings = UserSettings(stored: try await services.store.settings(account.id))
                request.settings = settings
                // Replies in a channel are seen by others: only private ones are styled.
                if settings.color && caller.channel == nil { request.style = Style(kind: caller.isIRC ? .irc : .ansi) }
            }
            if command.requiresLogin { _ = try request.account() }
            return try await command.handler(request)
        } catch let error as any UserFacingError {
            let code = error.code ?? (error.message.hasPrefix("you need to log in") ? "ACCOUNT_REQUIRED" : "FAILED")
            return .failed("\(command.name): \(error.message)", command: command.name, code: code)
        } catch {
            services.logger.error("command \(command.name) failed: \(error)")
            return .failed(
                "\(command.name): something went wrong on our side; nothing was changed. Please try again.",
                command: command.name, code: "INTERNAL_ERROR")
        }
    }

    func unknownCommandMessage(_ name: String) -> String {
        let suggestions = Suggest.closest(to: name, in: Array(commands.keys))
        if suggestions.isEmpty {
            return "unknown command !\(name) — type !help for the list"
        }
        return "unknown command !\(name) — did you mean \(suggestions.map { "!\($0)" }.joined(separator: " or "))?"
    }
}
