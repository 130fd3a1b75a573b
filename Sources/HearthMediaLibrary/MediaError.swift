/// A picture that cannot be made or read, with a message for the user. Nothing was changed.
public struct MediaError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
