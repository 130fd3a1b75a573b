/// A failure of an account rule, with a message for the user. Nothing was changed.
public struct AccountError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
