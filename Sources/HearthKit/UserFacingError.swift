import HearthAccounts
import HearthMediaLibrary

/// An error whose message is for the user: the command failed and nothing was changed.
public protocol UserFacingError: Error {
    var message: String { get }
}

extension BotError: UserFacingError {}
extension AccountError: UserFacingError {}
extension MediaError: UserFacingError {}
