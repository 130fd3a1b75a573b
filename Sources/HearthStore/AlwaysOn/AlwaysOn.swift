import Foundation

/// An always-on account kept present while none of its devices is connected: who it is to
/// others (nick, user, host, real name), the channels it stays in and since when it is away.
/// The server writes it when the account's last device leaves and restores it at start.
public struct AlwaysOnPresence: Sendable, Equatable {
    public var accountID: Int64
    public var nick: String
    public var user: String
    public var host: String
    public var realname: String
    /// Channel names as shown, in join order.
    public var channels: [String]
    /// When the last device left.
    public var since: Date

    public init(
        accountID: Int64, nick: String, user: String, host: String, realname: String, channels: [String],
        since: Date
    ) {
        (self.accountID, self.nick, self.user, self.host) = (accountID, nick, user, host)
        (self.realname, self.channels, self.since) = (realname, channels, since)
    }
}

/// A kept presence as read back, with the account's name and its own `always-on` choice (nil:
/// the operator's default).
public struct StoredPresence: Sendable, Equatable {
    public var presence: AlwaysOnPresence
    public var accountName: String
    public var choice: Bool?
}

/// The always-on part of the store, the same on every engine. Where each device of an account
/// got to is a read marker (`AlwaysOnRules.deviceTarget`), kept by `HistoryStore`.
public protocol AlwaysOnStore: Sendable {
    /// Every kept presence, by account id.
    func alwaysOnPresences() async throws -> [StoredPresence]
    /// Keeps (or replaces) an account's presence.
    func keepAlwaysOnPresence(_ presence: AlwaysOnPresence) async throws
    /// Forgets an account's presence (always-on turned off).
    func dropAlwaysOnPresence(accountID: Int64) async throws
}

/// The rules of always-on accounts that are not SQL, written once.
public enum AlwaysOnRules {
    /// The user setting (`!set always-on on|off|default`) and the value meaning the operator's choice.
    public static let settingKey = "always-on"
    public static let defaultValue = "default"
    /// Characters of a device's name (`alice@phone` in the SASL login).
    public static let maxDeviceNameLength = 32

    /// The read-marker target holding how far a device got ("device:phone"; the default device
    /// is "device:"). No channel or nick can be spelt so.
    public static func deviceTarget(_ device: String) -> String { "device:" + device }

    /// A stored choice: on, off, or nil for the operator's default.
    public static func choice(_ value: String?) -> Bool? {
        switch value {
        case "on": true
        case "off": false
        default: nil
        }
    }

    /// A login name and the device it names: `alice@phone` is alice's phone; `alice` her
    /// default device (""). Nil when the device's name is not 1 to `maxDeviceNameLength`
    /// letters, digits, `-` or `_`.
    public static func splitLogin(_ name: String) -> (account: String, device: String)? {
        guard let at = name.lastIndex(of: "@") else { return (name, "") }
        let device = name[name.index(after: at)...].lowercased()
        guard (1...maxDeviceNameLength).contains(device.count),
            device.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        return (String(name[..<at]), device)
    }

    /// Channels as one stored column (names hold no space).
    static func joined(_ channels: [String]) -> String { channels.joined(separator: " ") }
    static func split(_ column: String) -> [String] { column.split(separator: " ").map(String.init) }
}
