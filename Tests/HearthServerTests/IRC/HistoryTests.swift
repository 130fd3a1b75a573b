import Foundation
import GRDB
import HearthStore
import HearthTesting
import Testing

@testable import HearthServer

/// Channel and conversation history: kept in SQLite, replayed on join, read with !history.
@Suite struct HistoryTests {
    /// A registered channel keeps its history across a restart for everyone who joins it; an
    /// unregistered one is a new channel after it empties, whose old lines only its former
    /// members (by account) still see.
    @Test func channelLinesSurviveARestartForWhoMayReadThem() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        let ann = try await TestClient.user(server, "ann")
        try await ann.send("/join #kept")
        try await ann.expect("You joined #kept.")
        try await ann.send("!channel register #kept")
        try await ann.expect("is yours now")
        for line in ["first line", "second line", "third line"] { try await ann.send(line) }
        try await ann.send("!whoami")
        try await ann.expect("[#kept] <hearth> You are ann")
        try await ann.send("/join #loose")
        try await ann.expect("You joined #loose.")
        try await ann.send("loose talk")
        try await ann.send("!whoami")
        try await ann.expect("[#loose] <hearth> You are ann")
        await ann.close()
        await server.stop()

        try await withServer(dataDirectory: dir) {
            $0.joinBacklog = 3
        } run: { restarted in
            server = restarted
            // Without server-time: the text says when it was sent.
            let bob = try await TestClient.irc(server, nick: "bob")
            try await bob.send("JOIN #kept")
            try await bob.expectNumeric("366")
            try await bob.expect("PRIVMSG #kept :third line (sent just now)")
            try await bob.expect("PRIVMSG #kept :!whoami (sent just now)")
            // The bot's answer was said to the channel: it is kept with the question.
            try await bob.expect(":hearth!hearth@test.hearth PRIVMSG #kept :You are ann, logged in as ann")
            // #loose emptied with the restart: for bob it is a new channel.
            try await bob.send("JOIN #loose")
            try await bob.expectNumeric("366")
            try await bob.sync()
            #expect(!bob.unread().contains { $0.contains("loose talk") })
            // With server-time: the original time as a tag.
            let tess = try await IRCv3Tests.client(server, "tess", caps: "server-time")
            try await tess.send("JOIN #kept")
            let replayed = try await tess.expect("PRIVMSG #kept :third line")
            #expect(replayed.hasPrefix("@time=20"))
            #expect(!replayed.contains("(sent"))

            try await bob.send("PRIVMSG hearth :history #kept 3")
            try await bob.expect("Last 3 lines of #kept:")
            try await bob.expect("just now <ann> third line")
            try await bob.expect("just now <ann> !whoami")
            try await bob.expect("just now <hearth> You are ann")
            try await bob.send("PRIVMSG hearth :history #loose")
            try await bob.expect("Nothing kept for #loose yet.")
            let outsider = try await TestClient.irc(server, nick: "eve")
            try await outsider.send("PRIVMSG hearth :history #kept")
            try await outsider.expect("join #kept to read its history")
            try await outsider.send("PRIVMSG hearth :history #kept 99")
            try await outsider.expect("N is 1 to 50")

            // ann was in #loose when it was said: she still reads it, in the backlog and with !history.
            let back = try await TestClient.plain(server)
            try await back.send("!login ann s3cret-pass")
            try await back.expect("You are now known as ann")
            try await back.send("/join #loose")
            try await back.expect("loose talk")
            try await back.send("!history #loose 5")
            try await back.expect("<ann> loose talk")
        }
    }

    @Test func conversationsBetweenAccountsAreKept() async throws {
        try await withServer { server in
            let cid = try await TestClient.user(server, "cid")
            let dee = try await TestClient.user(server, "dee")
            try await cid.send("/msg dee lunch at noon?")
            try await dee.expect("[pm] <cid> lunch at noon?")
            try await dee.send("/msg cid yes!")
            try await cid.expect("[pm] <dee> yes!")
            // Written in batches: give the writer a moment, bounded.
            var lines: [String] = []
            for _ in 0..<100 {
                try await cid.send("!history dee")
                let reply = try await cid.expect("history reply") {
                    $0.hasPrefix("Last ") || $0.hasPrefix("Nothing kept")
                }
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
    }

    @Test func retentionAndSwitchingHistoryOff() async throws {
        try await withServer {
            $0.historyDays = 0
        } run: { server in
            let store = server.server.store
            let old = HistoryRecord(
                target: "#old", msgid: "a", source: "x!y@z", command: "PRIVMSG", text: "ancient",
                createdAt: Date().addingTimeInterval(-91 * 86_400))
            let recent = HistoryRecord(
                target: "#old", msgid: "b", source: "x!y@z", command: "PRIVMSG", text: "recent", createdAt: Date())
            try await store.appendHistory([old, recent])
            #expect(try await store.expireHistory(olderThan: 90) == 1)
            #expect(try await store.latestHistory(targets: ["#old"], limit: 10).map(\.text) == ["recent"])

            // With historyDays 0 nothing is written.
            let c = try await TestClient.irc(server, nick: "quiet")
            try await c.send("JOIN #off")
            try await c.send("PRIVMSG #off :not kept")
            try await c.sync()
            await server.server.core.flushHistory()  // what would be written is, by now
            let count = try await server.sql.int("SELECT COUNT(*) FROM history WHERE target = '#off'")
            #expect(count == 0)
        }
    }
}
