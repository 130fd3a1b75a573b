import Foundation

/// What one node tells the others, as JSON on the bus. Every event names the node that sent it
/// (`from`, which ignores it) and the user it is about: its node and connection (`session`).
struct NetworkEvent: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        /// A node started or lost the bus: everyone announces their users again.
        case hello
        /// A node finished answering the `hello` of node `target`.
        case announced
        /// A user on `node` (new, or announced again): its nick, user, host, real name, account.
        case user
        /// A user changed nick.
        case nick
        /// A user left (`text`: the reason).
        case quit
        /// A user joined channel `target` (`op`: with operator status, `history`: its history key).
        case join
        /// A user left channel `target` (`line`: the PART as sent).
        case part
        /// A message (`line`, tags included) to channel or nick `target`.
        case message
        /// A command the user's node accepted (`line`: MODE, TOPIC, INVITE, AWAY or CHGHOST, as applied),
        /// for every node to apply to its view.
        case command
        /// A bot answer's effect (`line`, as JSON) that other nodes apply too: registered and
        /// guarded channels, an account's blocks, renames, logouts and channel joins.
        case effect
        /// A channel's topic (`text`, set by `user`), modes (`line`) and list modes (`lists`),
        /// announced with the users: a node that only knows the channel from other nodes takes them.
        case channel
        /// Node `node` was lost or stopped: its users quit with `text` as the reason.
        case nodeGone
    }

    var kind: Kind
    var from: String
    var node: String
    var session: Int = 0

    init(kind: Kind, from: String, node: String? = nil, session: Int = 0) {
        (self.kind, self.from, self.node, self.session) = (kind, from, node ?? from, session)
    }
    var nick: String?
    var user: String?
    var host: String?
    /// The user's node's server name.
    var server: String?
    var realname: String?
    var account: String?
    var accountID: Int64?
    var target: String?
    var op: Bool?
    /// A joined channel's history key (its incarnation), so every node logs it in one place.
    var history: String?
    var line: String?
    var text: String?
    /// A channel's bans, exceptions and invite exceptions (`channel`). Nil from a node that
    /// predates them: the lists known here stay. (An added optional field needs no version:
    /// a node ignores keys it does not know.)
    var lists: [ListEntry]?

    /// One entry of a channel's list mode `mode` (b, e or I), as `MODE #channel b` shows it.
    struct ListEntry: Codable, Sendable, Equatable {
        var mode: String
        var mask: String
        var setBy: String
        /// Seconds since 1970.
        var at: Double
    }

    /// Node `node` left the network (told by itself, or by the node that found it lost).
    static func gone(from: String, node: String, reason: String) -> NetworkEvent {
        var event = NetworkEvent(kind: .nodeGone, from: from, node: node)
        event.text = reason
        return event
    }

    func encoded() -> String {
        String(decoding: (try? Self.encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    static func decode(_ text: String) -> NetworkEvent? {
        try? JSONDecoder().decode(NetworkEvent.self, from: Data(text.utf8))
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
