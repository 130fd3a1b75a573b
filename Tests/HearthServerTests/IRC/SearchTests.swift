import Foundation
import HearthKit
import HearthStore
import HearthTesting
import Testing

@testable import HearthServer

/// SEARCH (soju.im/search) and `!search chat` (issue 38): full-text search over exactly the
/// history the searcher may read, on whichever engine the suite runs.
@Suite struct SearchTests {
    static let caps = "batch server-time message-tags echo-message draft/message-redaction soju.im/search"

    static func user(_ server: TestServer, _ name: String) async throws -> TestClient {
        try await TestClient.register(server, name, "s3cret-pass")
        return try await TestClient.irc(
            server, nick: name, extra: ["CAP LS 302", "CAP REQ :\(caps)", "PASS \(name):s3cret-pass", "CAP END"])
    }

    static func join(_ client: TestClient, _ channel: String) async throws {
        try await client.send("JOIN \(channel)")
        try await client.expectNumeric("366")
    }

    @Test func findsMyChannelsAndMyConversationsOnly() async throws {
        try await withServer { server in
            let ava = try await Self.user(server, "ava")
            let ben = try await Self.user(server, "ben")
            let cy = try await Self.user(server, "cy")
            try await Self.join(ava, "#room")
            try await Self.join(ben, "#room")
            try await Self.join(cy, "#hidden")
            try await ben.send("PRIVMSG #room :the blue pancakes are ready")
            try await ava.expect("PRIVMSG #room :the blue pancakes are ready")
            try await cy.send("PRIVMSG #hidden :blue pancakes in hiding")
            try await cy.expect("PRIVMSG #hidden :blue pancakes in hiding")
            try await ben.send("PRIVMSG cy :blue pancakes between us")
            try await cy.expect("PRIVMSG cy :blue pancakes between us")
            try await ben.send("PRIVMSG ava :blue pancakes for you")
            try await ava.expect("PRIVMSG ava :blue pancakes for you")
            try await ben.send("PRIVMSG #room :blue pancakes, oops")
            let oops = ChathistoryTests.msgid(try await ava.expect("PRIVMSG #room :blue pancakes, oops"))
            try await ben.send("REDACT #room \(oops)")
            try await ava.expect("REDACT #room :\(oops)")

            try await ava.send("SEARCH text=blue\\spancak*")
            let open = try await ava.expect("BATCH +")
            #expect(open.hasSuffix(" soju.im/search"))
            let found = try await ChathistoryTests.batchLines(ava, open)
            #expect(found.count == 2, "\(found)")
            #expect(found.contains { $0.hasSuffix("PRIVMSG #room :the blue pancakes are ready") })
            #expect(found.contains { $0.hasSuffix("PRIVMSG ava :blue pancakes for you") })
            #expect(found.allSatisfy { $0.contains("msgid=") && $0.contains("time=") })
            // in= narrows to one target; a channel one is not in is refused, like CHATHISTORY.
            try await ava.send("SEARCH text=pancakes;in=ben")
            #expect(try await ChathistoryTests.batch(ava).count == 1)
            try await ava.send("SEARCH text=pancakes;in=#hidden")
            try await ava.expect("FAIL SEARCH INVALID_PARAMS in :You can't read the history of #hidden")
            // cy finds her own channel and her conversation, never ava's.
            try await cy.send("SEARCH text=pancakes")
            let hers = try await ChathistoryTests.batch(cy)
            #expect(hers.count == 2 && !hers.contains { $0.contains("for you") || $0.contains("ready") })
            // The bot's way in reads the same history.
            try await ava.send("PRIVMSG hearth :!search chat pancakes")
            try await ava.expect("Found")
            try await ava.expect("<ben> the blue pancakes are ready")
            try await ava.send("PRIVMSG hearth :!search chat hiding")
            try await ava.expect("Nothing you can read says that")
        }
    }

    @Test func badQueriesGetAClearErrorAndLimitsHold() async throws {
        try await withServer { server in
            let ava = try await Self.user(server, "ava")
            try await Self.join(ava, "#room")
            for (query, error) in [
                ("text=\"unclosed", "text :a quote is not closed"),
                ("text=cake\\sOR", "text :OR needs words on both sides"),
                ("text=*", "text :\"*\" is not a word I can search for"),
                ("limit=3", "text :search for what?"),
                ("text=cake;limit=0", "limit :limit must be a positive number"),
                ("text=cake;after=yesterday", "after :after must be a time"),
                ("text=cake;color=red", "color :Unknown attribute color"),
            ] {
                try await ava.send("SEARCH \(query)")
                try await ava.expect("FAIL SEARCH INVALID_PARAMS \(error)")
            }
            // FTS syntax typed as words is only words: an empty answer, no error.
            try await ava.send("SEARCH text=NEAR(cake\\spie)\\s'it''s'\\s-x\\s\"a\"\"b\"")
            #expect(try await ChathistoryTests.batch(ava).isEmpty)

            let longest = String(repeating: "a", count: ChatSearchQuery.maxQueryBytes)
            try await ava.send("SEARCH text=\(longest)")
            #expect(try await ChathistoryTests.batch(ava).isEmpty)
            try await ava.send("SEARCH text=\(longest)a")
            try await ava.expect(
                "FAIL SEARCH INVALID_PARAMS text :a search is at most \(ChatSearchQuery.maxQueryBytes)")
            let most = (1...ChatSearchQuery.maxTerms).map { "w\($0)" }
            try await ava.send("SEARCH text=\(most.joined(separator: "\\s"))")
            #expect(try await ChathistoryTests.batch(ava).isEmpty)
            try await ava.send("SEARCH text=\((most + ["w0"]).joined(separator: "\\s"))")
            try await ava.expect("FAIL SEARCH INVALID_PARAMS text :that is more than \(ChatSearchQuery.maxTerms) words")

            // More matches than one search returns: the newest maxResults, oldest first.
            let core = server.server.core
            let key = try #require(core.chat.withLock { $0.channels["#room"]?.historyKey })
            let start = Date()
            try await core.store.appendHistory(
                (0...ChatSearchQuery.maxResults).map {
                    HistoryRecord(
                        target: key, msgid: "many\($0)", source: "ava!ava@host", command: "PRIVMSG",
                        text: "crumpet \($0)", createdAt: start + Double($0) / 1000)
                })
            try await ava.send("SEARCH text=crumpet;limit=\(ChatSearchQuery.maxResults + 1)")
            let lines = try await ChathistoryTests.batch(ava)
            #expect(lines.count == ChatSearchQuery.maxResults)
            #expect(lines.first?.hasSuffix(":crumpet 1") == true && lines.last?.hasSuffix(":crumpet 100") == true)
            try await ava.send("SEARCH text=crumpet;limit=2")
            #expect(try await ChathistoryTests.batch(ava).count == 2)
        }
    }
}
