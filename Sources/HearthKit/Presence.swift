import Foundation
import HearthStore

/// What the bot may ask the server about who is online (implemented by the server).
public protocol PresenceDirectory: Sendable {
    /// The id of the connection using this (folded) nick, if any.
    func sessionUsing(nickKey: String) -> Int?
    /// A live channel as a connection sees it, if the channel exists.
    func channel(nameKey: String, sessionID: Int) -> LiveChannel?
    /// The history a connection may search (`HistoryStore.searchScope`), with what was said in
    /// the last moments written first; nil when the connection is gone or the store failed.
    func searchScope(sessionID: Int) async -> HistoryScope?
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
        name: String, members: Int, callerIsMember: Bool, callerIsOp: Bool, topic: String, topicSetBy: String,
        flags: String, key: String?,
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
