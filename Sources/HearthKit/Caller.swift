import Foundation
import HearthStore

/// An account as a connection knows it.
public struct AccountRef: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// Who is asking, from where. The server fills it in; tests can too.
public struct Caller: Sendable {
    public var sessionID: Int
    public var nick: String
    public var account: AccountRef?
    /// Hash of the resume token this connection logged in with (so `!logout` revokes it).
    public var tokenHash: String?
    public var address: String
    public var isIRC: Bool
    /// The channel the command was said in; nil for a private command.
    public var channel: String?
    /// SHA-256 of the connection's TLS client certificate (hex), if it gave one.
    public var certificateFingerprint: String?
    /// The connection is a server operator's (IRC `OPER`): it moderates what users propose.
    public var isOper = false

    public init(
        sessionID: Int, nick: String, account: AccountRef? = nil, tokenHash: String? = nil, address: String,
        isIRC: Bool, channel: String? = nil, certificateFingerprint: String? = nil, isOper: Bool = false
    ) {
        self.isOper = isOper
        self.certificateFingerprint = certificateFingerprint
        self.sessionID = sessionID
        self.nick = nick
        self.account = account
        self.tokenHash = tokenHash
        self.address = address
        self.isIRC = isIRC
        self.channel = channel
    }
}
