/// A failure of an account rule, with a message for the user. Nothing was changed.
public struct AccountError: Error, Sendable, Equatable {
    public var message: String
    /// An IRCv3 standard-replies code (`ACCOUNT_EXISTS`, `WEAK_PASSWORD`) for `REGISTER`'s answer.
    public var code: String?
    public init(_ message: String, code: String? = nil) { (self.message, self.code) = (message, code) }
}
