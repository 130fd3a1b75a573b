import HearthTesting
import Testing

@testable import HearthKit

/// Deleting an account logs its connections out even when an app's part of the deletion
/// fails: the store has already deleted it, so a failure must not drop the logout.
@Suite struct AccountDeletionHookTests {
    struct AppFailed: Error {}

    @Test func aFailingAppStillLogsTheDeletedAccountOut() async throws {
        try await withBot { bot in
            let ann = try await bot.user("ann")
            let id = try #require(ann.account?.id)
            bot.bot.services.deletionHooks.withLock { hooks in
                hooks.insert({ _, _, _ in throw AppFailed() }, at: 0)
            }
            let response = await ann.say("!account delete s3cret-pass")
            #expect(response.lines.joined().contains("are deleted. Goodbye!"), "\(response.lines)")
            let loggedOut = response.effects.contains {
                if case .logoutEverywhere(let who, _) = $0 { return who == id }
                return false
            }
            let gone = response.effects.contains {
                if case .accountGone(let who) = $0 { return who == id }
                return false
            }
            #expect(loggedOut && gone)
        }
    }
}
