import Foundation
import HearthKit
import HearthStore

/// `!search chat WORDS`: the newest lines matching WORDS in the history the caller may read
/// (the server decides which: `PresenceDirectory.searchScope`, the same rule as SEARCH).
enum ChatSearch {
    static func reply(_ request: BotRequest, _ text: String) async throws -> BotResponse {
        let words = try ChatSearchQuery.parse(text)
        guard let scope = await request.presence.searchScope(sessionID: request.caller.sessionID) else {
            throw BotError("the search could not be run just now; try again")
        }
        let store = request.services.store
        let found = try await store.searchHistory(
            HistorySearch(words: words, scope: scope, limit: ChatSearchQuery.botResults))
        if found.isEmpty {
            return BotResponse(["Nothing you can read says that — try fewer words, or a prefix like morn*."]).privately
        }
        let now = request.services.clock.now()
        var lines = ["\(request.style.bold("Found")) (newest \(found.count), oldest first):"]
        for record in found {
            let nick = record.source.prefix { $0 != "!" }
            let place = try await where_(record, request)
            lines.append(
                "  \(request.style.dim(TimeText.ago(from: record.createdAt, to: now))) \(place) <\(nick)> "
                    + String(record.text.prefix(maxShown)))
        }
        // To the caller alone: the hits quote what only they may read (private conversations,
        // secret and family channels), never the channel the command was said in, nor its history.
        return BotResponse(lines).privately
    }

    /// Longest piece of a found line shown in chat.
    static let maxShown = 300

    /// "#channel" for a channel's line, "with NAME" for a conversation's.
    private static func where_(_ record: HistoryRecord, _ request: BotRequest) async throws -> String {
        guard record.target.hasPrefix("pm:") else {
            let key = String(record.target.prefix { $0 != " " })  // an earlier incarnation's channel
            return request.presence.channel(nameKey: key, sessionID: request.caller.sessionID)?.name ?? key
        }
        let ids = HistoryRecord.conversationAccounts(record.target)
        let me = request.caller.account?.id
        guard let other = ids.first(where: { $0 != me }) ?? ids.first,
            let name = try await request.services.store.account(id: other)?.name
        else { return "(private)" }
        return "with \(name)"
    }
}
