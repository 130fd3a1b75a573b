import Foundation
import HearthProtocol
import HearthStore

extension BotServices {
    /// A login as an account an operator banned from the server (UBAN) is refused, whichever
    /// way it comes: SASL, PASS, `!login`.
    public func refuseBannedAccount(_ account: AccountRef) async throws {
        let key = IRCNames.fold(account.name)
        if let ban = try await store.serverBans(now: clock.now()).first(where: { $0.bans(accountKey: key) }) {
            throw BotError("\(account.name) is banned from this server: \(ban.reason)")
        }
    }
}
