import Foundation
import HearthCrypto
import HearthKit
import HearthProtocol
import Synchronization

/// One-time sign-in tickets for the web chat. The site's session is an HttpOnly cookie the chat's
/// script cannot read, so the page asks `POST /chat/ticket` for a ticket and sends it over SASL
/// PLAIN as the account's password. A ticket works once, for its account only, within `lifetime`;
/// it carries the session's resume-token hash, so the chat's login is that session's.
final class ChatTickets: Sendable {
    /// Seconds a ticket stays good: the page uses it at once, on a WebSocket opened right after.
    static let lifetime: TimeInterval = 60
    /// Most tickets waiting at once (all accounts); past it, expired ones are dropped, then none issued.
    static let maxOutstanding = 10_000
    static let prefix = "hct_"

    struct Entry: Sendable {
        let account: AccountRef
        let tokenHash: String
        let expires: Date
    }

    /// Keyed by the ticket's hash: the secret itself is kept nowhere.
    private let entries = Mutex<[String: Entry]>([:])

    static func looksLikeTicket(_ text: String) -> Bool {
        text.hasPrefix(prefix) && text.utf8.count == prefix.utf8.count + 32
    }

    /// A new ticket for the session's account, or nil while `maxOutstanding` are waiting.
    func issue(for account: AccountRef, tokenHash: String, now: Date = Date()) -> String? {
        let ticket = Self.prefix + Sodium.hex(Sodium.randomBytes(16))
        let entry = Entry(account: account, tokenHash: tokenHash, expires: now.addingTimeInterval(Self.lifetime))
        return entries.withLock { entries in
            if entries.count >= Self.maxOutstanding { entries = entries.filter { $0.value.expires > now } }
            guard entries.count < Self.maxOutstanding else { return nil }
            entries[Sodium.hashSecret(ticket)] = entry
            return ticket
        }
    }

    /// The ticket's entry if it is unexpired and for the account `name`; used up either way, so a
    /// ticket never gets a second try.
    func redeem(_ ticket: String, name: String, now: Date = Date()) -> Entry? {
        guard Self.looksLikeTicket(ticket) else { return nil }
        let entry = entries.withLock { $0.removeValue(forKey: Sodium.hashSecret(ticket)) }
        guard let entry, entry.expires > now, IRCNames.fold(entry.account.name) == IRCNames.fold(name) else {
            return nil
        }
        return entry
    }

    var waiting: Int { entries.withLock { $0.count } }
}
