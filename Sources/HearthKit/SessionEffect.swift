import Foundation
import HearthStore

/// What a command asks the server to do to connections once it has answered.
public enum SessionEffect: Sendable, Equatable, Codable {
    /// This connection is now logged in (its nick becomes the account name).
    case login(AccountRef, tokenHash: String?)
    /// This connection is logged out.
    case logout
    /// Every connection of the account is logged out (tokens already revoked), except the
    /// connection `keep` if given (it stays logged in, e.g. after `!passwd`).
    case logoutEverywhere(accountID: Int64, keep: Int? = nil)
    /// The account has a new name: its connections change nick.
    case renamed(accountID: Int64, newName: String)
    /// A notice from the bot to every connection of an account.
    case notify(accountID: Int64, text: String)
    /// The accounts this account blocks: the server refuses their private messages to it.
    case blocks(accountID: Int64, blocked: Set<Int64>)
    /// `!set bot on|off`: the account's connections are marked as a bot (+B) or not.
    case botFlag(accountID: Int64, isBot: Bool)
    /// A channel was registered, or its owner changed.
    case channelOwned(RegisteredChannel)
    /// A channel's registration was dropped.
    case channelDropped(nameKey: String)
    /// A registered channel's access list changed: the account gets op or voice on join (nil: nothing).
    case channelAccess(nameKey: String, accountID: Int64, level: ChannelAccess.Level?)
    /// A notice to the account's connections at a given time (replacing an earlier one).
    case remind(accountID: Int64, at: Date, text: String)
    /// An app is collecting the account's lines (e.g. a recipe being written): its plain-mode
    /// lines that are not commands go to the bot until this is turned off.
    case captureLines(accountID: Int64, on: Bool)
    /// Who may be in a guarded channel changed (members no longer on its list are taken out).
    case guardedChannel(GuardedChannel)
    /// The account's connections join these channels.
    case joinChannels(accountID: Int64, names: [String])
    /// A line from the bot to a live channel (e.g. `!share`).
    case channelMessage(nameKey: String, text: String)
    /// A push notification to the account's subscribed devices (when it is not connected).
    case push(PushNote)
    /// The account's profile fields (draft/metadata-2 keys), read at login.
    case profile(accountID: Int64, fields: [String: String])
    /// The account is deleted: what the server keeps about it goes too.
    case accountGone(accountID: Int64)
    /// `!set always-on` or a login: the account's own choice (nil: the operator's default).
    case alwaysOn(accountID: Int64, choice: Bool?)
}
