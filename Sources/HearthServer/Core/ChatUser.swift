import Foundation
import HearthKit
import HearthProtocol

/// What other users see of a connection, and what chat rules decide on: its nick, account,
/// channels, caps, modes. Kept on its `Client` but reachable only as `state[client]` through a
/// `ChatState` (Client.swift), so reading `nick` without the chat lock does not compile. A copy
/// taken out of the lock is a snapshot.
struct ChatUser {
    var nick = "*" { didSet { updatePrefix() } }
    var nickKey = ""
    var user = "user" { didSet { updatePrefix() } }
    var realname = ""
    var host: String { didSet { updatePrefix() } }
    /// `nick!user@host`, kept up to date: it is the source of every message this user sends.
    private(set) var prefix = ""
    var account: AccountRef?
    var tokenHash: String?
    /// SHA-256 of the TLS client certificate (hex), when it came with one (SASL EXTERNAL, `!cert add`).
    var certificateFingerprint: String?
    var away: String?
    /// Operators, invisible and registered users are counted as these change (`ChatState.counts`).
    var isOper = false
    var invisible = false
    var registered = false
    /// User mode +w: receives WALLOPS.
    var wallops = false
    /// Decided by the connection (IRC, or plain text for `nc`); others' messages reach it so.
    var mode = ClientMode.undecided
    /// Folded names of joined channels, in join order.
    var channels: [String] = []
    /// Plain mode: where chat text goes.
    var currentChannel: String?
    /// Folded nicks this user MONITORs.
    var monitoring: Set<String> = []
    var lastMessageAt = Date()
    /// Metadata keys (draft/metadata-2): an account's profile fields, or a guest's own.
    var metadata: [String: String] = [:]
    /// Metadata keys this connection subscribed to (METADATA SUB).
    var metadataSubs: Set<String> = []
    /// A guest's read markers (MARKREAD), folded target → time; an account's are in the store.
    var readMarkers: [String: Date] = [:]
    /// Enabled capabilities.
    var caps: Set<String> = [] {
        didSet {
            tagMask = TagMask.forCaps(caps)
            echoes = caps.contains("echo-message")
        }
    }
    /// Which tags this user receives, derived from `caps`.
    private(set) var tagMask: TagMask = []
    /// echo-message, derived from `caps` (read per message: no set lookup).
    private(set) var echoes = false
    /// `!set bot on`: marked +B, tagged `bot`, shown with 335 in WHOIS.
    var isBot = false
    /// An app is collecting this user's lines (`SessionEffect.captureLines`): plain-mode lines
    /// that are not commands go to the bot.
    var linesToBot = false
    /// When the bot last took one of those lines (or started collecting): after
    /// `Core.captureIdleTimeout` without one, lines are chat again.
    var linesToBotTouched = Date.distantPast

    init(host: String, mode: ClientMode = .undecided, caps: Set<String> = []) {
        self.host = host
        self.mode = mode
        self.caps = caps
        tagMask = TagMask.forCaps(caps)
        echoes = caps.contains("echo-message")
        updatePrefix()
    }

    /// Sets one of the user's own modes; whether it changed.
    mutating func setMode(_ flag: UserModeChange.Flag, _ on: Bool) -> Bool {
        switch flag {
        case .invisible:
            defer { invisible = on }
            return invisible != on
        case .wallops:
            defer { wallops = on }
            return wallops != on
        case .bot:
            defer { isBot = on }
            return isBot != on
        case .oper:
            // Operator status is gained with OPER only; it can be dropped here.
            guard !on && isOper else { return false }
            isOper = false
            return true
        }
    }

    /// The user modes as MODE shows them (`+Biow`).
    var modeString: String {
        "+" + (isBot ? "B" : "") + (invisible ? "i" : "") + (isOper ? "o" : "") + (wallops ? "w" : "")
    }

    private mutating func updatePrefix() { prefix = "\(nick)!\(user)@\(host)" }
    var isPlain: Bool { mode == .plain }
}

/// Registered users, invisible users and operators, kept as `ChatUser`s change (through
/// `state[client]`), so LUSERS costs nothing per connection.
struct UserCounts {
    var users = 0
    var invisible = 0
    var opers = 0

    /// `(registered, invisible, isOper)` before and after a change. Invisible users and operators
    /// count only while registered, so clearing `registered` on removal drops them too, and a
    /// +i or OPER that lands on a connection already removed (a KILL raced it) counts nothing.
    mutating func adjust(from old: (Bool, Bool, Bool), to new: (Bool, Bool, Bool)) {
        if old.0 != new.0 { users += new.0 ? 1 : -1 }
        let (wasInvisible, isInvisible) = (old.0 && old.1, new.0 && new.1)
        if wasInvisible != isInvisible { invisible += isInvisible ? 1 : -1 }
        let (wasOper, isOper) = (old.0 && old.2, new.0 && new.2)
        if wasOper != isOper { opers += isOper ? 1 : -1 }
    }
}

extension ChatState {
    /// Who `client` is to a channel's masks: the full prefix (with the cloak, and with the
    /// real address when it is hidden) and the account.
    func identity(_ client: Client) -> ChannelLists.Identity {
        .init(
            prefix: self[client].prefix, account: self[client].account?.name,
            address: self[client].host == client.address ? nil : client.address)
    }

    /// What the bot is told about who runs a command.
    func caller(_ client: Client, channel: String? = nil) -> Caller {
        let user = self[client]
        return Caller(
            sessionID: client.id, nick: user.nick, account: user.account, tokenHash: user.tokenHash,
            address: client.address, isIRC: user.mode != .plain, channel: channel,
            certificateFingerprint: user.certificateFingerprint, isOper: user.isOper)
    }
}
