import Foundation
import HearthAccounts
import HearthApps
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthStore
import Synchronization

/// The bot alone, in process: the apps on a temporary store, no server and no TCP, for app
/// rules. (End-to-end stories keep their TCP transcripts.) Use it through `withBot { }`.
public final class BotHarness: Sendable {
    public let bot: Bot
    public let store: SQLiteStore
    public let dataDirectory: String
    private let nextSession = Atomic<Int>(1)

    /// Nobody is online: the bot sees no sessions and no live channels.
    struct NobodyOnline: PresenceDirectory {
        func sessionUsing(nickKey: String) -> Int? { nil }
        func channel(nameKey: String, sessionID: Int) -> LiveChannel? { nil }
        func searchScope(sessionID: Int) async -> HistoryScope? { nil }
    }

    init(apps: AppsConfig, clock: HearthClock) throws {
        dataDirectory = TestServer.tempDirectory()
        store = try SQLiteStore(dataDirectory: dataDirectory)
        let media = try MediaLibrary(
            directory: URL(fileURLWithPath: dataDirectory).appendingPathComponent("media"),
            publicURL: "http://hearth.test", threads: 1)
        let appList = BuiltInApps.builtIn(apps)
        let services = BotServices(
            store: store,
            accounts: AccountService(store: store, passwords: PasswordWorker(threads: 1, cost: TestServer.fastCost)),
            media: media, clock: clock, appServices: appList.flatMap(\.services))
        bot = Bot(services: services, apps: appList)
    }

    func shutdown() async {
        try? await bot.services.passwords.shutdown()
        try? await bot.services.media?.shutdown()
    }

    /// Someone talking to the bot from a session of their own (a plain-mode client).
    public func person(_ nick: String, address: String = "192.0.2.1") -> Person {
        let id = nextSession.add(1, ordering: .relaxed).oldValue
        return Person(bot: bot, caller: Caller(sessionID: id, nick: nick, address: address, isIRC: false))
    }

    /// A person with a fresh account NAME (password `s3cret-pass`), logged in.
    public func user(_ name: String) async throws -> Person {
        let person = self.person(name)
        let answer = await person.say("!register \(name) s3cret-pass")
        guard person.account != nil else { throw TimeoutError(description: "could not register \(name): \(answer)") }
        return person
    }
}

/// One session's view of the bot: what it says and what it gets back. Login and logout
/// effects are applied to its caller, as the server would.
public final class Person: Sendable {
    let bot: Bot
    private let state: Mutex<Caller>

    init(bot: Bot, caller: Caller) {
        self.bot = bot
        state = Mutex(caller)
    }

    public var account: AccountRef? { state.withLock { $0.account } }

    /// Says TEXT privately to the bot, or in CHANNEL (where commands need their `!`).
    @discardableResult
    public func say(_ text: String, in channel: String? = nil) async -> BotResponse {
        var caller = state.withLock { $0 }
        caller.channel = channel
        let response =
            await bot.handle(text, caller: caller, presence: BotHarness.NobodyOnline(), requireBang: channel != nil)
            ?? BotResponse(["(not a command)"])
        state.withLock { caller in
            for effect in response.effects {
                switch effect {
                case .login(let account, let tokenHash):
                    caller.account = account
                    caller.tokenHash = tokenHash
                case .logout: caller.account = nil
                default: break
                }
            }
        }
        return response
    }

    /// Everything the answer shows its caller, public and private lines together.
    public func ask(_ text: String, in channel: String? = nil) async -> String {
        let response = await say(text, in: channel)
        return (response.lines + response.privateLines).joined(separator: "\n")
    }
}

/// Runs `body` with a fresh in-process bot and always shuts it down after.
public func withBot<T>(
    apps: AppsConfig = AppsConfig(), clock: HearthClock = .system, _ body: (BotHarness) async throws -> T
) async throws -> T {
    let harness = try BotHarness(apps: apps, clock: clock)
    do {
        let result = try await body(harness)
        await harness.shutdown()
        return result
    } catch {
        await harness.shutdown()
        throw error
    }
}
