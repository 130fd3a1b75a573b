import Foundation
import HearthStore

/// A push notification an app asks for (`SessionEffect.push`): the server sends it to the
/// account's devices that want its kind, when none of them is connected.
public struct PushNote: Sendable, Equatable, Codable {
    public var accountID: Int64
    public var kind: PushKind
    /// The notification's text (its title is the server's name).
    public var text: String
    /// A path on the site the notification opens (e.g. `/fortunes`).
    public var link: String
    /// When to send it (nil: now). One later note per account is kept, the newest.
    public var at: Date?

    public init(accountID: Int64, kind: PushKind, text: String, link: String, at: Date? = nil) {
        (self.accountID, self.kind, self.text, self.link, self.at) = (accountID, kind, text, link, at)
    }
}
