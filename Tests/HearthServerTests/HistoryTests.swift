import Foundation
import GRDB
import HearthStore
import Testing

/// Channel and conversation history: kept in SQLite, replayed on join, read with !history.
@Suite struct HistoryTests {
    @Test func channelLinesSurviveARestartAndGreetNewcomers() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        let ann = try await TestClient.plain(server)
        try await ann.send("/join #hist")
        try await ann.expect("You joined #hist.")
        for line in ["first line", "second line", "third line"] { try await ann.send(line) }
        try await ann.send("!whoami")
        try await ann.expect("[#hist] <hearth> You are guest")
        await ann.close()
        await server.stop()

        let restarted = try await TestServer.start(dataDirectory: dir) { $0.joinBacklog = 3 }
        defer { Task { await restarted.stop() } }
        server = restarted
        // Without server-time: the text says when it was sent.
        let bob = try await TestClient.irc(server, nick: "bob")
        try await bob.send("JOIN #hist")
        try await bob.expectNumeric("366")
        try await bob.expect("PRIVMSG #hist :third line (sent just now)")
        try await bob.expect("PRIVMSG #hist :!whoami (sent just now)")
        try await bob.expect(":hearth!hearth@test.hearth PRIVMSG #hist :You are guest")
        // With server-time: the original time as a tag.
        let tess = try await IRCv3Tests.client(server, "tess", caps: "server-time")
        try await tess.send("JOIN #hist")
        let replayed = try await tess.expect("PRIVMSG #hist :third line")
        #expect(replayed.hasPrefix("@time=20"))
        #expect(!replayed.contains("(sent"))

        try await bob.send("PRIVMSG hearth :history #hist 2")
        try await bob.expect("Last 2 lines of #hist:")
        try await bob.expect("just now <guest")
        try await bob.expect("<hearth> You are guest")
        let outsider = try await TestClient.irc(server, nick: "eve")
        try await outsider.send("PRIVMSG hearth :history #hist")
        try await outsider.expect("join #hist to read its history")
        try await outsider.send("PRIVMSG hearth :history #hist 99")
        try await outsider.expect("N is 1 to 50")
    }

    @Test func conversationsBetweenAccountsAreKept() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let cid = try await SocialTests.user(server, "cid")
        let dee = try await SocialTests.user(server, "dee")
        try await cid.send("/msg dee lunch at noon?")
        try await dee.expect("[pm] <cid> lunch at noon?")
        try await dee.send("/msg cid yes!")
        try await cid.expect("[pm] <dee> yes!")
        // Written in batches: give the writer a moment, bounded.
        var lines: [String] = []
        for _ in 0..<100 {
            try await cid.send("!history dee")
            let reply = try await cid.expect("history reply") { $0.hasPrefix("Last ") || $0.hasPrefix("Nothing kept") }
            if reply.hasPrefix("Last 2") {
                lines = [try await cid.expect("<cid> lunch at noon?"), try await cid.expect("<dee> yes!")]
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(lines.count == 2)
        // Guests have no lasting identity: their private messages are not kept.
        let guest = try await TestClient.plain(server)
        try await guest.send("/msg dee hi from a guest")
        try await dee.expect("[pm] <guest")
        try await dee.send("!history guest1")
        try await dee.expect("nobody is called guest1")
    }

    @Test func retentionAndSwitchingHistoryOff() async throws {
        let server = try await TestServer.start { $0.historyDays = 0 }
        defer { Task { await server.stop() } }
        let store = server.server.store
        let old = HistoryRecord(
            target: "#old", msgid: "a", source: "x!y@z", command: "PRIVMSG", text: "ancient", createdAt: Date().addingTimeInterval(-91 * 86_400))
        let recent = HistoryRecord(target: "#old", msgid: "b", source: "x!y@z", command: "PRIVMSG", text: "recent", createdAt: Date())
        try await store.appendHistory([old, recent])
        #expect(try await store.expireHistory(olderThan: 90) == 1)
        #expect(try await store.latestHistory(target: "#old", limit: 10).map(\.text) == ["recent"])

        // With historyDays 0 nothing is written.
        let c = try await TestClient.irc(server, nick: "quiet")
        try await c.send("JOIN #off")
        try await c.send("PRIVMSG #off :not kept")
        try await c.sync()
        try await Task.sleep(for: .milliseconds(200))
        let count = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM history WHERE target = '#off'") }
        #expect(count == 0)
    }
}
