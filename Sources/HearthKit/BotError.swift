/// A failure with a message for the user. Nothing was changed.
/// (Its own file, free of imports, so the grammar fuzzer can compile it alone.)
public struct BotError: Error, Sendable, Equatable {
    public var message: String
    /// An IRCv3 standard-replies code (`ACCOUNT_EXISTS`) when a protocol command answers with it.
    public var code: String?
    public init(_ message: String, code: String? = nil) { (self.message, self.code) = (message, code) }
}
