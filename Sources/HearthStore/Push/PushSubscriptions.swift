import Foundation

/// What a push notification is about; each device's subscription says which it wants.
public enum PushKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// A private message while none of the account's devices is connected.
    case dm
    /// The account's name said in a channel it is in, while away.
    case mention
    /// A new day's fortune cookie can be opened.
    case cookie
    /// A post to one of the account's families.
    case family

    /// A set as stored (`dm,mention`), in the table's order.
    public static func text(_ kinds: Set<PushKind>) -> String {
        allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ",")
    }

    public static func set(_ text: String) -> Set<PushKind> {
        Set(text.split(separator: ",").compactMap { PushKind(rawValue: String($0)) })
    }
}

/// One device's Web Push subscription (RFC 8030): where its push service takes messages for
/// it, and the keys they are encrypted to (RFC 8291).
public struct PushSubscription: Sendable, Equatable {
    /// Who subscribed the site (`web`: JSON notifications) and who an IRC client
    /// (`irc`: `draft/webpush`, the message is an IRC line).
    public enum Source: String, Sendable { case web, irc }

    public var accountId: Int64
    /// The push service's URL for this device (unique: one device, one account).
    public var endpoint: String
    /// The device's P-256 public key and auth secret, base64url as the browser gives them.
    public var p256dh: String
    public var auth: String
    public var source: Source
    public var kinds: Set<PushKind>
    public var createdAt: Date
    /// A device that neither renews nor gets a push through by then is forgotten.
    public var expiresAt: Date

    public init(
        accountId: Int64, endpoint: String, p256dh: String, auth: String, source: Source, kinds: Set<PushKind>,
        createdAt: Date, expiresAt: Date
    ) {
        (self.accountId, self.endpoint, self.p256dh, self.auth) = (accountId, endpoint, p256dh, auth)
        (self.source, self.kinds, self.createdAt, self.expiresAt) = (source, kinds, createdAt, expiresAt)
    }
}

/// The limits of subscriptions, decided once for both engines.
public enum PushRules {
    /// Devices one account may subscribe at once (a new one past this is refused).
    public static let maxPerAccount = 10
    /// Days a subscription lasts unless renewed (the site renews it when it is opened, an IRC
    /// client by registering again, as draft/webpush asks).
    public static let lifetimeDays = 30
    /// Characters of an endpoint URL (push services' are about 200).
    public static let maxEndpointLength = 1024

    public static func expiry(from now: Date) -> Date { now.addingTimeInterval(Double(lifetimeDays) * 86_400) }

    /// Whether a subscription may be saved: one already held by this account is renewed; a new
    /// one needs room under the limit.
    public static func mayAdd(alreadyTheirs: Bool, held: Int) -> Bool { alreadyTheirs || held < maxPerAccount }
}

public protocol PushSubscriptionStore: Sendable {
    /// Saves or renews a device's subscription (an endpoint another account held becomes this
    /// one's: the device signed in as someone else). False when the account holds
    /// `PushRules.maxPerAccount` others already. Expired subscriptions go first.
    func savePushSubscription(_ subscription: PushSubscription, now: Date) async throws -> Bool

    /// The account's subscriptions that have not expired.
    func pushSubscriptions(accountID: Int64, now: Date) async throws -> [PushSubscription]

    /// Forgets an endpoint (its push service said 404 or 410); with `accountID`, only if it is
    /// that account's. True when one was removed.
    @discardableResult
    func removePushSubscription(endpoint: String, accountID: Int64?) async throws -> Bool
}
