import Foundation
import HearthKit
import HearthProtocol

/// What one node tells the others, typed: each kind carries exactly what it needs. On the bus
/// it is a `NetworkEnvelope`; a malformed one, or one of a kind or version this
/// node does not know, is a `NetworkDecodingError`, never dropped in silence.
enum NetworkMessage: Sendable, Equatable {
    /// The sender started or lost the bus: everyone announces their users again.
    case hello(server: String)
    /// The sender finished answering the `hello` of node `to`.
    case announced(to: String, server: String)
    /// A user appeared (new, or announced again after a login or logout).
    case user(NetworkUser, NetworkProfile)
    case nick(NetworkUser, nick: String)
    case quit(NetworkUser, reason: String)
    /// An operator of another node killed this user: its own node ends the session (and sends
    /// the QUIT, with `reason`, to everyone).
    case kill(NetworkUser, reason: String)
    /// With operator status or not, and the channel's history key (its incarnation); nil from a
    /// node that predates it: the receiver starts a history of its own.
    case join(NetworkUser, channel: String, op: Bool, history: String?)
    /// A PART or KICK as sent (a KICK may be of a user of another node).
    case part(NetworkUser, channel: String, line: IRCMessage)
    /// A message (tags included) to a channel or nick; the bot's are from session 0.
    case message(NetworkUser, target: String, line: IRCMessage)
    /// An EDIT (draft/message-edit) the user's node accepted and kept in `history` (a channel's,
    /// or a conversation's, which names who else sees it): `line` as a client with the capability
    /// reads it, its target as the author named it. Each node shows it to its own clients.
    case edit(NetworkUser, history: String, line: IRCMessage)
    /// A REDACT the user's node carried out (the row is gone from the shared history): `line` as
    /// clients with draft/message-redaction read it; `history` as for `edit`.
    case redact(NetworkUser, history: String, line: IRCMessage)
    /// A command the user's node accepted (MODE, TOPIC, INVITE, AWAY or CHGHOST, as applied).
    case command(NetworkUser, line: IRCMessage)
    /// A bot answer's effect that other nodes apply too.
    case effect(NetworkUser, SessionEffect)
    /// A channel's topic and modes, announced with the users.
    case channel(NetworkChannel)
    /// A change of a channel's state by a user (session 0: the server), numbered by the
    /// database (`version`): the whole state after it, which every node applies in that order.
    case channelState(NetworkUser, NetworkChannel)
    /// Node `node` was lost or stopped: its users quit with `reason`.
    case nodeGone(node: String, reason: String)

    /// Its `kind` on the wire; all a log says of an event (never what was said in it).
    var kind: String {
        switch self {
        case .hello: "hello"
        case .announced: "announced"
        case .user: "user"
        case .nick: "nick"
        case .quit: "quit"
        case .kill: "kill"
        case .join: "join"
        case .part: "part"
        case .message: "message"
        case .edit: "edit"
        case .redact: "redact"
        case .command: "command"
        case .effect: "effect"
        case .channel: "channel"
        case .channelState: "channelState"
        case .nodeGone: "nodeGone"
        }
    }
}

/// A user of some node: its node's name and its connection there.
struct NetworkUser: Sendable, Hashable {
    var node: String
    var session: Int
}

/// Who a user is, as WHOIS shows it.
struct NetworkProfile: Sendable, Equatable {
    var nick: String
    var user: String
    var host: String
    /// The user's node's server name.
    var server: String
    var realname: String
    var account: AccountRef?
}

/// A channel as its members' node announces it.
struct NetworkChannel: Sendable, Equatable {
    var name: String
    var topic: String
    var topicSetBy: String
    var modes: ChannelModes
    /// Nil from a node that predates them: the lists known here stay.
    var lists: [ListEntry]?
    /// Seconds since 1970; nil from a node that predates it.
    var topicSetAt: Double? = nil
    /// Member ("NODE SESSION") → its prefix letters ("o", "v", "ov", "" for none), for the
    /// members the network's changes named; others keep what their join gave them.
    var prefixes: [String: String]? = nil
    /// Its place in the network's order (`NetworkChannelStore`); nil: not ordered yet.
    var version: Int64? = nil

    /// One entry of list mode `mode` (b, e or I), as `MODE #channel b` shows it. The mode stays
    /// a string: a node skips a list it does not know rather than the whole channel.
    struct ListEntry: Codable, Sendable, Equatable {
        var mode: String
        var mask: String
        var setBy: String
        /// Seconds since 1970.
        var at: Double
    }
}

enum NetworkDecodingError: Error, Equatable {
    /// Not JSON, or a field missing or of the wrong type for its kind. The reason names kinds,
    /// fields and parse errors, never their values: it is logged (docs/SECURITY.md).
    case malformed(String)
    /// From a node newer than this one, in a format this one cannot read.
    case unsupportedVersion(Int)
    case unknownKind(String)

    /// The `reason` label of the refused events' counter.
    var metricLabel: String {
        switch self {
        case .malformed: "malformed"
        case .unsupportedVersion: "unsupported_version"
        case .unknownKind: "unknown_kind"
        }
    }
}

/// A message and the node that sent it (which ignores its own). Nodes write it in a compact
/// binary form (`NetworkBinary`, version 2) and read that and the JSON object of version 1
/// (what nodes before it wrote: a network upgrading node by node holds both). Version 1 keeps
/// the field names of the untyped events before it, with `v` added: JSON without `v` is version 1.
struct NetworkEnvelope: Sendable, Equatable {
    /// The format this node writes and the newest it reads; raised only for a change an older
    /// node would misread (a field added at the end of a kind needs none).
    static let version = 2
    /// The JSON form, still read.
    static let jsonVersion = 1

    var from: String
    var message: NetworkMessage

    /// The binary form, as this node publishes it.
    func encoded() throws -> [UInt8] { try NetworkBinary.encode(self) }

    /// The JSON form of version 1, as nodes before the binary one wrote it.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(try Wire(self)), as: UTF8.self)
    }

    /// Either form, told apart by the first byte: a binary version, or JSON's `{`.
    static func decode(_ bytes: [UInt8]) throws(NetworkDecodingError) -> NetworkEnvelope {
        guard let first = bytes.first else { throw .malformed("not an event") }
        if NetworkBinary.versions.contains(first) { return try NetworkBinary.decode(bytes) }
        return try decodeJSON(Data(bytes))
    }

    static func decode(_ text: String) throws(NetworkDecodingError) -> NetworkEnvelope {
        try decode(Array(text.utf8))
    }

    private static func decodeJSON(_ data: Data) throws(NetworkDecodingError) -> NetworkEnvelope {
        let version: Int
        do {
            version = try JSONDecoder().decode(Head.self, from: data).v ?? 1
        } catch {
            throw .malformed("not an event")
        }
        guard version == Self.jsonVersion else { throw .unsupportedVersion(version) }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: data)
        } catch {
            throw .malformed(Self.reason(error))
        }
        return try wire.envelope()
    }

    private struct Head: Decodable { var v: Int? }

    /// Where the JSON went wrong, by field path only (a decoding error's text may quote values).
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not an event" }
        let (what, path): (String, [any CodingKey]) =
            switch error {
            case .typeMismatch(_, let context): ("wrong type", context.codingPath)
            case .valueNotFound(_, let context): ("missing value", context.codingPath)
            case .keyNotFound(let key, let context): ("missing", context.codingPath + [key])
            case .dataCorrupted(let context): ("not valid", context.codingPath)
            @unknown default: ("not valid", [])
            }
        return "\(what): \(path.map(\.stringValue).joined(separator: "."))"
    }
}

/// The wire form: every kind's fields, optional, under their version 1 names. `node` and
/// `session` are always written (older nodes require them), the sender's own where unused.
private struct Wire: Codable {
    var v: Int? = NetworkEnvelope.jsonVersion
    var kind: String
    var from: String
    var node: String
    var session: Int
    var nick, user, host, server, realname, account: String?
    var accountID: Int64?
    var target: String?
    var op: Bool?
    var history, line, text: String?
    var lists: [NetworkChannel.ListEntry]?
    var at: Double?
    var prefixes: [String: String]?
    var version: Int64?

    private init(_ message: NetworkMessage, _ from: String, _ who: NetworkUser? = nil) {
        (kind, self.from, node, session) = (message.kind, from, who?.node ?? from, who?.session ?? 0)
    }

    init(_ envelope: NetworkEnvelope) throws {
        let from = envelope.from
        switch envelope.message {
        case .hello(let server):
            self.init(envelope.message, from)
            self.server = server
        case .announced(let to, let server):
            self.init(envelope.message, from)
            (target, self.server) = (to, server)
        case .user(let who, let profile):
            self.init(envelope.message, from, who)
            (nick, user, host, server) = (profile.nick, profile.user, profile.host, profile.server)
            (realname, account, accountID) = (profile.realname, profile.account?.name, profile.account?.id)
        case .nick(let who, let nick):
            self.init(envelope.message, from, who)
            self.nick = nick
        case .quit(let who, let reason), .kill(let who, let reason):
            self.init(envelope.message, from, who)
            text = reason
        case .join(let who, let channel, let op, let history):
            self.init(envelope.message, from, who)
            (target, self.op, self.history) = (channel, op, history)
        case .part(let who, let channel, let message):
            self.init(envelope.message, from, who)
            (target, line) = (channel, message.serialized())
        case .message(let who, let to, let message):
            self.init(envelope.message, from, who)
            (target, line) = (to, message.serialized())
        case .edit(let who, let history, let message), .redact(let who, let history, let message):
            self.init(envelope.message, from, who)
            (self.history, line) = (history, message.serialized())
        case .command(let who, let message):
            self.init(envelope.message, from, who)
            line = message.serialized()
        case .effect(let who, let effect):
            self.init(envelope.message, from, who)
            line = String(decoding: try JSONEncoder().encode(effect), as: UTF8.self)
        case .channel(let channel):
            self.init(envelope.message, from)
            self.channel(channel)
        case .channelState(let who, let channel):
            self.init(envelope.message, from, who)
            self.channel(channel)
        case .nodeGone(let node, let reason):
            self.init(envelope.message, from, NetworkUser(node: node, session: 0))
            text = reason
        }
    }

    private mutating func channel(_ channel: NetworkChannel) {
        (target, text, user) = (channel.name, channel.topic, channel.topicSetBy)
        (line, lists) = (channel.modes.serialized(showKey: true).joined(separator: " "), channel.lists)
        (at, prefixes, version) = (channel.topicSetAt, channel.prefixes, channel.version)
    }

    func envelope() throws(NetworkDecodingError) -> NetworkEnvelope {
        NetworkEnvelope(from: from, message: try message())
    }

    private func message() throws(NetworkDecodingError) -> NetworkMessage {
        let who = NetworkUser(node: node, session: session)
        switch kind {
        case "hello": return .hello(server: try need(server, "server"))
        case "announced": return .announced(to: try need(target, "target"), server: try need(server, "server"))
        case "user": return .user(who, try profile())
        case "nick": return .nick(who, nick: try need(nick, "nick"))
        // Defaults for what the untyped events before version 1 left out.
        case "quit": return .quit(who, reason: text ?? "Quit")
        case "kill": return .kill(who, reason: try need(text, "text"))
        case "join": return .join(who, channel: try need(target, "target"), op: op ?? false, history: history)
        case "part": return .part(who, channel: try need(target, "target"), line: try ircLine())
        case "message": return .message(who, target: try need(target, "target"), line: try ircLine())
        case "edit": return .edit(who, history: try need(history, "history"), line: try ircLine())
        case "redact": return .redact(who, history: try need(history, "history"), line: try ircLine())
        case "command": return .command(who, line: try ircLine())
        case "effect":
            let json = Data(try need(line, "line").utf8)
            guard let effect = try? JSONDecoder().decode(SessionEffect.self, from: json) else {
                throw .malformed("effect: not an effect this node knows")
            }
            return .effect(who, effect)
        case "channel": return .channel(try channel())
        case "channelState":
            let channel = try channel()
            guard channel.version != nil else { throw .malformed("channelState without version") }
            return .channelState(who, channel)
        case "nodeGone": return .nodeGone(node: node, reason: text ?? "\(node) left the network")
        default: throw .unknownKind(kind)
        }
    }

    private func channel() throws(NetworkDecodingError) -> NetworkChannel {
        // Leniently: a flag this node does not know is skipped, the rest (and the lists) apply.
        let modes = (line ?? "").split(separator: " ").map(String.init)
        guard let parsed = ChannelModes(modes, ignoringUnknown: true) else {
            throw .malformed("\(kind): not channel modes")
        }
        return NetworkChannel(
            name: try need(target, "target"), topic: text ?? "", topicSetBy: user ?? "", modes: parsed, lists: lists,
            topicSetAt: at, prefixes: prefixes, version: version)
    }

    private func profile() throws(NetworkDecodingError) -> NetworkProfile {
        var account: AccountRef?
        switch (self.account, accountID) {
        case (let name?, let id?): account = AccountRef(id: id, name: name)
        case (nil, nil): account = nil
        default: throw .malformed("user: an account needs both its name and its id")
        }
        return NetworkProfile(
            nick: try need(nick, "nick"), user: try need(user, "user"), host: try need(host, "host"),
            server: try need(server, "server"), realname: try need(realname, "realname"), account: account)
    }

    private func ircLine() throws(NetworkDecodingError) -> IRCMessage {
        let text = try need(line, "line")
        do {
            // The sender's node added its tags (time, msgid, account) to the client's.
            return try IRCMessage.parse(text, maxTagBytes: IRCLimits.maxTagBytes)
        } catch {
            throw .malformed("\(kind): \(error.explanation)")
        }
    }

    private func need<T>(_ value: T?, _ field: String) throws(NetworkDecodingError) -> T {
        guard let value else { throw .malformed("\(kind) without \(field)") }
        return value
    }
}

extension NetworkUser {
    init(_ origin: RemoteOrigin) { self.init(node: origin.node, session: origin.session) }
}

extension RemoteOrigin {
    init(_ user: NetworkUser) { self.init(node: user.node, session: user.session) }
}
