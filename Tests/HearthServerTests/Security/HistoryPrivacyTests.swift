import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// History reaches only people who could have read it (security round two): a private
/// channel that empties is gone, and whoever makes it again does not get its past.
extension AuthorizationTests {
    @Test func aSecretRoomsHistoryDiesWithIt() async throws {
        try await withServer {
            $0.joinBacklog = 10
        } run: { server in
            for name in ["amy", "ben", "eve"] { _ = try await Self.account(server, name, "s3cret-pass") }
            let amy = try await Self.irc(server, "amy", password: "s3cret-pass")
            let ben = try await Self.irc(server, "ben", password: "s3cret-pass")
            try await amy.send("JOIN #room")
            try await amy.expectNumeric("366")
            try await amy.send("MODE #room +sik hush")
            try await amy.expect("MODE #room +sik :hush")
            try await amy.send("INVITE ben #room")
            try await ben.expect("INVITE ben :#room")
            try await ben.send("JOIN #room hush")
            try await ben.expectNumeric("366")
            try await amy.send("PRIVMSG #room :the secret plan")
            try await ben.expect("the secret plan")
            try await ben.send("PRIVMSG #room :!whoami")
            try await ben.expect("You are ben")
            // Both leave: the channel is gone.
            try await amy.send("PART #room")
            try await amy.expect("PART :#room")
            try await ben.send("PART #room")
            try await ben.expect("PART :#room")

            // eve makes #room again: nothing of it reaches her by any path.
            let eve = try await Self.irc(server, "eve", password: "s3cret-pass")
            try await eve.send("JOIN #room")
            try await eve.expectNumeric("366")
            try await eve.sync()
            await server.server.core.flushHistory()  // what was said is written, so it would be there
            try await eve.send("CHATHISTORY LATEST #room * 50")
            let latest = try await ChathistoryTests.batch(eve)
            #expect(latest.isEmpty, "old lines in CHATHISTORY: \(latest)")
            try await eve.send("PRIVMSG hearth :history #room 50")
            try await eve.expect("Nothing kept for #room yet.")
            try await eve.send("PRIVMSG #room :new era")
            try await eve.sync()
            #expect(!eve.unread().contains { $0.contains("secret plan") || $0.contains("You are ben") })

            // amy was there: she still reads the old incarnation, and the new one now that she is in.
            try await amy.send("JOIN #room")
            try await amy.expect("the secret plan")
            var lines: [String] = []
            for _ in 0..<100 {
                try await amy.send("CHATHISTORY LATEST #room * 50")
                lines = try await ChathistoryTests.batch(amy)
                if lines.contains(where: { $0.hasSuffix(":new era") }) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(lines.contains { $0.hasSuffix(":the secret plan") })
            #expect(lines.contains { $0.hasSuffix(":new era") })
            // eve never was in the first one: still nothing of it, now that amy is back.
            try await eve.send("CHATHISTORY LATEST #room * 50")
            let again = try await ChathistoryTests.batch(eve)
            #expect(!again.contains { $0.contains("secret plan") })
            #expect(again.contains { $0.hasSuffix(":new era") })
        }
    }

    /// A dropped registered channel takes its history with it: whoever registers the name
    /// next does not inherit what was said.
    @Test func aDroppedChannelsHistoryIsNotInherited() async throws {
        try await withServer {
            $0.joinBacklog = 10
        } run: { server in
            for name in ["owen", "nora"] { _ = try await Self.account(server, name, "s3cret-pass") }
            let owen = try await Self.irc(server, "owen", password: "s3cret-pass")
            try await owen.send("JOIN #club")
            try await owen.expectNumeric("366")
            try await Self.tell(owen, "channel register #club", "is yours now")
            try await owen.send("PRIVMSG #club :members only talk")
            try await owen.sync()
            try await Self.tell(owen, "channel drop #club", "no longer registered")
            try await owen.send("PART #club")
            try await owen.expect("PART :#club")

            let nora = try await Self.irc(server, "nora", password: "s3cret-pass")
            try await nora.send("JOIN #club")
            try await nora.expectNumeric("366")
            try await Self.tell(nora, "channel register #club", "is yours now")
            try await nora.send("PART #club")
            try await nora.expect("PART :#club")
            try await nora.send("JOIN #club")
            try await nora.expectNumeric("366")
            try await nora.sync()
            await server.server.core.flushHistory()  // what was said is written, so it would be there
            try await nora.send("CHATHISTORY LATEST #club * 50")
            let lines = try await ChathistoryTests.batch(nora)
            #expect(!lines.contains { $0.contains("members only talk") }, "inherited: \(lines)")
            // owen, who said it, still can.
            try await owen.send("JOIN #club")
            try await owen.expect("members only talk")
        }
    }
}
