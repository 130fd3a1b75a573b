/// A failure with a message for the user. Nothing was changed.
/// (Its own file, free of imports, so the grammar fuzzer can compile it alone.)
public struct BotError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
