import Foundation

/// A ban of the whole server, set by an IRC operator (UBAN, KLINE, DLINE): an account, an
/// address or network (IPv4 or IPv6 CIDR), or a `nick!user@host` mask, with a reason and
/// maybe an end. Every node of a network reads the same rows.
public struct ServerBan: Sendable, Equatable, Codable {
    /// What `target` names.
    public enum Kind: String, Sendable, Codable {
        case account, address, mask
    }

    /// The target as normalized (an account or mask folded, an address in its CIDR form).
    public var target: String
    public var kind: Kind
    public var reason: String
    /// The operator's nick, for UBAN INFO and LIST.
    public var setBy: String
    public var createdAt: Date
    /// Nil: until removed.
    public var expiresAt: Date?

    public init(
        target: String, kind: Kind, reason: String, setBy: String, createdAt: Date, expiresAt: Date? = nil
    ) {
        self.target = target
        self.kind = kind
        self.reason = reason
        self.setBy = setBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Whether this is a ban of the account whose folded name is `nameKey`.
    public func bans(accountKey nameKey: String) -> Bool { kind == .account && target == nameKey }

    /// Still in force at `now`.
    public func isActive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }
}

/// The server bans part of the store, the same on every engine.
public protocol ServerBanStore: Sendable {
    /// The bans in force at `now`, oldest first (expired ones are deleted on the way).
    func serverBans(now: Date) async throws -> [ServerBan]

    /// Adds a ban, or replaces the one on the same target.
    func addServerBan(_ ban: ServerBan) async throws

    /// Removes the ban on `target`; false when there was none.
    func removeServerBan(target: String) async throws -> Bool
}
