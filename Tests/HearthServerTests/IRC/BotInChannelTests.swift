import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// The bot in a channel. Issue 33, item 6: `!history` said in a channel went to everyone and
/// history quoted earlier `!history`s; a listing longer than `Core.maxChannelReplyLines` goes to
/// the caller alone. A family walkthrough: history kept people's `!shop`s but not the answers
/// everyone saw, so it read one-sided — an answer said to the channel is kept, a private one not.
@Suite struct BotInChannelTests {
    @Test func answersToTheChannelAreKeptAndPrivateOnesAreNot() async throws {
        try await withServer { server in
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
            // As long as a channel answer may be: everyone sees it (a title, two items, a footer).
            let limit = Core.maxChannelReplyLines
            #expect(limit == 4)
            try await ann.send("!shop add salt")
            try await cat.expect("[#kitchen] <hearth> Added to your list: salt.")
            try await ann.send("!shop add pepper")
            try await cat.expect("[#kitchen] <hearth> Added to your list: pepper.")
            try await ann.send("!shop")
            try await cat.expect("[#kitchen] <hearth> 2. ☐ pepper")
            try await cat.expect("[#kitchen] <hearth> !shop tick N")
            // One line more is a listing: ann alone gets it.
            try await ann.send("!shop add thyme")
            try await cat.expect("[#kitchen] <hearth> Added to your list: thyme.")
            try await ann.send("!shop")
            let listing = try await ann.expect("3. ☐ thyme")
            #expect(!listing.contains("[#kitchen]"), "\(listing)")
            // `!history` is read alone, so history never quotes history.
            await server.server.core.flushHistory()
            try await ann.send("!history 3")
            let title = try await ann.expect("Last 3 lines of #kitchen:")
            #expect(!title.contains("[#kitchen]"), "\(title)")
            try await ann.send("all done")
            try await cat.expectNoLine(containing: "Last 3 lines", before: "all done")
            // Search answers quote what only the searcher may read: to her alone, however short.
            try await ann.send("/msg cat the door pin is 4711")
            try await cat.expect("the door pin is 4711")
            try await ann.send("!search chat door pin")
            let found = try await ann.expect("Found")
            #expect(!found.contains("[#kitchen]"), "\(found)")
            try await ann.expect("the door pin is 4711")
            // A list of someone else's recipes never speaks of the caller's draft.
            try await ann.send("/msg hearth !recipe new")
            try await ann.expect("What is the recipe called?")
            try await ann.send("/msg hearth Secret birthday cake")
            try await ann.expect("Ingredients, one per line")
            try await ann.send("!recipes by cat")
            try await ann.expect("cat has posted no recipes yet.")
            try await ann.send("/msg hearth !recipe cancel")  // the draft's questions take her lines till then
            try await ann.expect("dropped")
            try await ann.send("searched")
            try await cat.expectNoLine(containing: "4711", before: "searched")

            // CHATHISTORY replays the answers everyone saw, not the ones sent privately.
            await server.server.core.flushHistory()
            let eve = try await IRCv3Tests.client(server, "eve", caps: ChathistoryTests.caps)
            try await eve.send("JOIN #kitchen")
            try await eve.expectNumeric("366")
            try await eve.send("CHATHISTORY LATEST #kitchen * 50")
            let replay = try await ChathistoryTests.batch(eve).joined(separator: "\n")
            for kept in [
                "PRIVMSG #kitchen :the soup needs salt", ":hearth!hearth@test.hearth PRIVMSG #kitchen :You are cat",
                ":hearth!hearth@test.hearth PRIVMSG #kitchen :2. ☐ pepper", "PRIVMSG #kitchen :!shop add thyme",
                ":hearth!hearth@test.hearth PRIVMSG #kitchen :Added to your list: thyme.",
                "PRIVMSG #kitchen :!history 3", "PRIVMSG #kitchen :all done",
            ] {
                #expect(replay.contains(kept), "\(kept) in \(replay)")
            }
            #expect(!replay.contains("3. ☐ thyme") && !replay.contains("Last 3 lines"), "\(replay)")
            #expect(!replay.contains("4711") && !replay.contains("Secret birthday"), "\(replay)")
        }
    }
}
