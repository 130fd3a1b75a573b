import HearthAccounts
import HearthMediaLibrary

/// An error whose message is for the user: the command failed and nothing was changed.
public protocol UserFacingError: Error {
    var message: String { get }
    /// A standard-replies code for protocol commands (`REGISTER`), when the failure has one.
    var code: String? { get }
}

extension UserFacingError {
    public var code: String? { nil }
}

extension BotError: UserFacingError {}
extension AccountError: UserFacingError {}
extension MediaError: UserFacingError {}
