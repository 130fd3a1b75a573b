import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// Issue 33, item 6: the bot's answers filled the join backlog, `!history` said in a channel
/// went to everyone, and history quoted earlier `!history`s. Answers are shown, not kept, and
/// a listing longer than `Core.maxChannelReplyLines` goes to the caller alone.
@Suite struct BotInChannelTests {
    @Test func answersLeaveTheBacklogToPeopleAndListingsGoToTheCaller() async throws {
        try await withServer {
            $0.joinBacklog = 7
        } run: { server in
            let ann = try await TestClient.user(server, "ann")
            let cat = try await TestClient.user(server, "cat")
            for who in [ann, cat] {
                try await who.send("/join #kitchen")
                try await who.expect("You joined #kitchen.")
            }
            try await ann.send("the soup needs salt")
            try await cat.expect("the soup needs salt")
            // A short answer is for the channel.
            try await cat.send("!whoami")
            try await ann.expect("[#kitchen] <hearth> You are cat")
            try await ann.send("and pepper")
            try await cat.expect("and pepper")
            // As long as a channel answer may be: everyone sees it. (History is written in batches:
            // `!history` reads what was written.)
            await server.server.core.flushHistory()
            try await ann.send("!history 3")
            let limit = Core.maxChannelReplyLines
            #expect(limit == 4)  // "!history 3" is a title and three lines
            try await cat.expect("[#kitchen] <hearth> Last 3 lines of #kitchen:")
            try await ann.expect("[#kitchen] <hearth> Last 3 lines of #kitchen:")
            // One line more is a listing: ann alone gets it.
            await server.server.core.flushHistory()
            try await ann.send("!history 4")
            let listing = try await ann.expect("Last 4 lines of #kitchen:")
            #expect(!listing.contains("[#kitchen]"), "\(listing)")
            try await ann.send("!help")
            try await ann.expect("!help COMMAND")
            for _ in 0..<3 {  // the rest of the short one (which 3 lines depends on the history batch)
                let line = try #require(await cat.next { $0.hasPrefix("[#kitchen] <hearth>") })
                #expect(line.contains("just now <"), "\(line)")
            }
            try await ann.send("all done")
            try await cat.expectNoLine(containing: "<hearth>", before: "all done")

            // Nothing the bot answered was kept: eve's backlog (7 lines) reaches back to ann's first
            // words, and history never quotes history.
            await server.server.core.flushHistory()
            let eve = try await TestClient.irc(server, nick: "eve")
            try await eve.send("JOIN #kitchen")
            try await eve.expect("PRIVMSG #kitchen :the soup needs salt (sent just now)")
            try await eve.sync()
            #expect(!eve.unread().contains { $0.contains(":hearth!") }, "\(eve.unread())")
            try await ann.send("!history 10")
            try await ann.expect("lines of #kitchen:")
            try await ann.expect("now <ann> the soup needs salt")
            try await ann.expectNoLine(containing: "now <hearth>", before: "now <ann> all done")
        }
    }
}
