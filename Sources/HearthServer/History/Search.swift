import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// SEARCH (soju.im/search): full-text search of the history a connection may read, answered in
/// a `soju.im/search` batch. Attributes are one parameter, written like message tags:
/// `SEARCH text=good\smorning;in=#chan;from=bob;after=…;before=…;limit=20`.
extension Core {
    static let searchCap = "soju.im/search"

    private func searchFail(_ client: Client, _ code: String, _ context: [String], _ text: String) {
        withState { _, out in
            out.send(
                client, IRCMessage(source: serverName, command: "FAIL", params: ["SEARCH", code] + context + [text]))
        }
    }

    /// What `client` may search: every channel it is in now and its account's conversations, as
    /// `HistoryStore.searchScope` decides. Writes what is waiting first, so the last moments count.
    func searchScope(_ client: Client) async -> HistoryScope? {
        let (channels, account) = chat.withLock { state in
            (
                state[client].channels.compactMap { key in
                    state.channels[key].map { (key: $0.key, current: $0.historyKey) }
                },
                state[client].account
            )
        }
        await flushHistory()
        return try? await store.searchScope(channels: channels, accountID: account?.id)
    }

    func searchScope(sessionID: Int) async -> HistoryScope? {
        guard let client = chat.withLock({ state in state.clients[sessionID] }) else { return nil }
        return await searchScope(client)
    }

    func search(_ client: Client, _ message: IRCMessage) {
        let attributes = IRCMessage.parseTags(Substring(message.params[0]))
        var values: [String: String] = [:]
        for attribute in attributes {
            guard ["text", "in", "from", "after", "before", "limit"].contains(attribute.key) else {
                searchFail(client, "INVALID_PARAMS", [attribute.key], "Unknown attribute \(attribute.key)")
                return
            }
            values[attribute.key] = attribute.value ?? ""
        }
        let words: TextSearch
        do {
            words = try ChatSearchQuery.parse(values["text"] ?? "", examples: Self.searchExamples)
        } catch {
            searchFail(client, "INVALID_PARAMS", ["text"], error.message)
            return
        }
        var limit = ChatSearchQuery.maxResults
        if let text = values["limit"] {
            guard let asked = Int(text), asked > 0 else {
                searchFail(client, "INVALID_PARAMS", ["limit"], "limit must be a positive number")
                return
            }
            limit = min(asked, ChatSearchQuery.maxResults)
        }
        var bounds: [String: Date] = [:]
        for key in ["after", "before"] {
            guard let text = values[key] else { continue }
            guard case .time(let date)?? = Self.parseRef("timestamp=" + text) else {
                searchFail(client, "INVALID_PARAMS", [key], "\(key) must be a time like 2026-01-31T12:00:00.000Z")
                return
            }
            bounds[key] = date
        }
        let target = values["in"].flatMap { $0.isEmpty ? nil : $0 }
        let asked = HistorySearch(
            words: words, scope: HistoryScope(targets: [], conversationsOf: nil),
            fromNick: values["from"].flatMap { $0.isEmpty ? nil : $0 }, after: bounds["after"],
            before: bounds["before"], limit: limit)
        let store = self.store
        later(
            client,
            { () -> Result<([HistoryRecord], [Int64: String]), BotError> in
                let scope: HistoryScope?
                if let target {
                    await self.flushHistory()
                    scope = await self.historyTargets(client, target).map {
                        HistoryScope(targets: $0, conversationsOf: nil)
                    }
                    guard scope != nil else { return .failure(BotError("You can't read the history of \(target)")) }
                } else {
                    scope = await self.searchScope(client)
                }
                guard let scope else {
                    return .failure(BotError("The search could not be run", code: "INTERNAL_ERROR"))
                }
                var search = asked
                search.scope = scope
                do {
                    let records = try await store.searchHistory(search)
                    return .success((records, await Self.conversationNames(store, records)))
                } catch {
                    self.logger.error("SEARCH failed: \(error)")
                    return .failure(BotError("The search could not be run", code: "INTERNAL_ERROR"))
                }
            }
        ) { result in
            switch result {
            case .failure(let error):
                self.searchFail(client, error.code ?? "INVALID_PARAMS", error.code == nil ? ["in"] : [], error.message)
            case .success(let (records, names)):
                self.sendFound(client, records, names)
            }
        }
    }

    static let searchExamples = TextSearchQuery.Examples(
        command: "SEARCH text=", phrase: "good morning", pair: ("cake", "pie"))

    /// The accounts' names of the conversations among `records`, by id.
    static func conversationNames(_ store: Store, _ records: [HistoryRecord]) async -> [Int64: String] {
        var names: [Int64: String] = [:]
        for record in records where record.target.hasPrefix("pm:") {
            for id in HistoryRecord.conversationAccounts(record.target) where names[id] == nil {
                names[id] = (try? await store.account(id: id)?.name) ?? "*"
            }
        }
        return names
    }

    /// Found lines in a `soju.im/search` batch, each to the channel or nick it was said to.
    private func sendFound(_ client: Client, _ records: [HistoryRecord], _ names: [Int64: String]) {
        withState { state, out in
            self.sendHistory(state, client, records, names, batchType: Self.searchCap, out: &out)
        }
    }

    /// Stored lines, each to the channel or nick it was said to (`names`: the conversations'
    /// accounts), in a batch of `batchType` for clients with batches (nil: none).
    func sendHistory(
        _ state: ChatState, _ client: Client, _ records: [HistoryRecord], _ names: [Int64: String],
        batchType: String?, out: inout Outbox
    ) {
        let me = state[client].account?.id
        let batch = batchType.flatMap { self.openBatch(state, client, type: $0, params: [], out: &out) }
        for record in records {
            var shown: String
            if record.target.hasPrefix("pm:") {
                // Sent by me: to the other side; sent to me: to my nick (as CHATHISTORY shows it).
                let other = HistoryRecord.conversationAccounts(record.target).first { $0 != me } ?? me
                let mine = record.accountID != nil && record.accountID == me
                shown = mine ? other.flatMap { names[$0] } ?? "*" : state[client].nick
            } else {
                let key = String(record.target.prefix { $0 != " " })  // an incarnation's channel
                shown = state.channels[key]?.name ?? key
            }
            self.sendStored(state, client, record, to: shown, inBatch: batch, out: &out)
        }
        self.closeBatch(client, batch, out: &out)
    }
}
