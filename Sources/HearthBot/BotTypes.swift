import Foundation
import HearthStore

/// An account as a connection knows it.
public struct AccountRef: Sendable, Equatable {
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

    public init(
        sessionID: Int, nick: String, account: AccountRef? = nil, tokenHash: String? = nil, address: String,
        isIRC: Bool, channel: String? = nil
    ) {
        self.sessionID = sessionID
        self.nick = nick
        self.account = account
        self.tokenHash = tokenHash
        self.address = address
        self.isIRC = isIRC
        self.channel = channel
    }
}

/// What a command asks the server to do to connections once it has answered.
public enum SessionEffect: Sendable, Equatable {
    /// This connection is now logged in (its nick becomes the account name).
    case login(AccountRef, tokenHash: String?)
    /// This connection is logged out.
    case logout
    /// Every connection of the account is logged out (tokens already revoked), except the
    /// connection `keep` if given (it stays logged in, e.g. after `!passwd`).
    case logoutEverywhere(accountID: Int64, keep: Int? = nil)
    /// The account has a new name: its connections change nick.
    case renamed(accountID: Int64, newName: String)
    /// A notice from the bot to every connection of an account.
    case notify(accountID: Int64, text: String)
    /// The accounts this account blocks: the server refuses their private messages to it.
    case blocks(accountID: Int64, blocked: Set<Int64>)
    /// `!set bot on|off`: the account's connections are marked as a bot (+B) or not.
    case botFlag(accountID: Int64, isBot: Bool)
    /// A channel was registered, or its owner changed.
    case channelOwned(RegisteredChannel)
    /// A channel's registration was dropped.
    case channelDropped(nameKey: String)
    /// A notice to the account's connections at a given time (replacing an earlier one).
    case remind(accountID: Int64, at: Date, text: String)
    /// An app is collecting the account's lines (e.g. a recipe being written): its plain-mode
    /// lines that are not commands go to the bot until this is turned off.
    case captureLines(accountID: Int64, on: Bool)
    /// Who may be in a guarded channel changed (members no longer on its list are taken out).
    case guardedChannel(GuardedChannel)
    /// The account's connections join these channels.
    case joinChannels(accountID: Int64, names: [String])
    /// A line from the bot to a live channel (e.g. `!share`).
    case channelMessage(nameKey: String, text: String)
    /// The account is deleted: what the server keeps about it goes too.
    case accountGone(accountID: Int64)
}

/// A channel an app keeps for some accounts (a family's): only they may join it, whatever
/// its modes, operators included, and everyone else is never shown it.
public struct GuardedChannel: Sendable, Equatable {
    public var name: String
    public var members: Set<Int64>
    public var topic: String
    /// What the members belong to, for "No longer in …" when one is taken out.
    public var owner: String

    public init(name: String, members: Set<Int64>, topic: String, owner: String) {
        self.name = name
        self.members = members
        self.topic = topic
        self.owner = owner
    }
}

/// Channel names an app keeps for itself (folded prefix): nobody may make one, and joining
/// one you are not on the list of is refused with `refusal`.
public struct ReservedChannels: Sendable {
    public var prefix: String
    public var refusal: String

    public init(prefix: String, refusal: String) {
        self.prefix = prefix
        self.refusal = refusal
    }
}

/// A command's answer: lines for where it was asked, lines only the caller may see, effects.
public struct BotResponse: Sendable {
    public var lines: [String]
    /// Secrets (tokens, recovery codes) always go to the caller privately.
    public var privateLines: [String]
    public var effects: [SessionEffect]
    /// Set when the command failed: an IRCv3 standard-replies code (clients with the
    /// `standard-replies` cap get `FAIL <command> <code> :<line>`).
    public var failure: Failure?

    public struct Failure: Sendable, Equatable {
        public var command: String
        public var code: String
    }

    public init(_ lines: [String] = [], privateLines: [String] = [], effects: [SessionEffect] = []) {
        self.lines = lines
        self.privateLines = privateLines
        self.effects = effects
    }

    static func failed(_ line: String, command: String, code: String) -> BotResponse {
        var response = BotResponse([line])
        response.failure = Failure(command: command.uppercased(), code: code)
        return response
    }
}

/// What the bot may ask the server about who is online (implemented by the server).
public protocol PresenceDirectory: Sendable {
    /// The id of the connection using this (folded) nick, if any.
    func sessionUsing(nickKey: String) -> Int?
    /// A live channel as a connection sees it, if the channel exists.
    func channel(nameKey: String, sessionID: Int) -> LiveChannel?
}

/// What the bot may know about a live channel.
public struct LiveChannel: Sendable {
    public var name: String
    public var members: Int
    public var callerIsMember: Bool
    public var callerIsOp: Bool
    /// Why the caller may not send to the channel right now (+n, +m, a ban), or nil.
    public var callerSendRefusal: String?
    public var topic: String
    public var topicSetBy: String
    public var flags: String
    public var key: String?
    public var limit: Int?
    /// Where the channel's present incarnation keeps its history (see `HistoryAccess`).
    public var historyKey: String

    public init(
        name: String, members: Int, callerIsMember: Bool, callerIsOp: Bool, topic: String, topicSetBy: String, flags: String, key: String?,
        limit: Int?, callerSendRefusal: String? = nil, historyKey: String
    ) {
        self.historyKey = historyKey
        self.name = name
        self.members = members
        self.callerIsMember = callerIsMember
        self.callerIsOp = callerIsOp
        self.topic = topic
        self.topicSetBy = topicSetBy
        self.flags = flags
        self.key = key
        self.limit = limit
        self.callerSendRefusal = callerSendRefusal
    }
}
