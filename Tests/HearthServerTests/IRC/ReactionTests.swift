import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// Reactions (+draft/react), replies (+draft/reply) and edits (draft/message-edit): kept in
/// history, replayed by CHATHISTORY, shown to plain mode as lines.
@Suite struct ReactionTests {
    static let caps =
        ChathistoryTests.caps + " draft/event-playback draft/message-edit draft/message-redaction echo-message"

    /// Logged in over IRC with `caps`.
    static func account(_ server: TestServer, _ name: String, caps: String = caps) async throws -> TestClient {
        try await TestClient.register(server, name, "s3cret-pass")
        return try await TestClient.irc(
            server, nick: name, extra: ["CAP LS 302", "CAP REQ :\(caps)", "PASS \(name):s3cret-pass", "CAP END"])
    }

    static func join(_ channel: String, _ clients: TestClient...) async throws {
        for client in clients {
            try await client.send("JOIN \(channel)")
            try await client.expectNumeric("366")
        }
    }

    @Test func aReactionIsKeptAndReplayedOnlyWithEventPlayback() async throws {
        try await withServer { server in
            let ava = try await Self.account(server, "ava")
            let ben = try await Self.account(server, "ben")
            try await Self.join("#r", ava, ben)
            try await ava.send("PRIVMSG #r :soup is ready")
            let id = ChathistoryTests.msgid(try await ben.expect("PRIVMSG #r :soup is ready"))
            try await ben.send("@+typing=active TAGMSG #r")
            try await ava.expect("+typing=active")
            try await ben.send("@+draft/react=👍;+draft/reply=\(id) TAGMSG #r")
            try await ava.expect("+draft/react=👍;+draft/reply=\(id)")
            try await ben.send("@+draft/reply=\(id) PRIVMSG #r :agreed")
            try await ava.expect("PRIVMSG #r :agreed")

            try await ava.send("CHATHISTORY LATEST #r * 10")
            let lines = try await ChathistoryTests.batch(ava)
            #expect(lines.count == 3, "\(lines)")  // the +typing TAGMSG is relayed, not kept
            #expect(lines[1].contains("+draft/react=👍;+draft/reply=\(id)") && lines[1].contains(" TAGMSG #r"))
            #expect(lines[2].contains("+draft/reply=\(id)") && lines[2].hasSuffix("PRIVMSG #r :agreed"))

            // Without draft/event-playback: the messages, no TAGMSG.
            let cleo = try await Self.account(server, "cleo", caps: ChathistoryTests.caps)
            try await Self.join("#r", cleo)
            try await cleo.send("CHATHISTORY LATEST #r * 10")
            let plain = try await ChathistoryTests.batch(cleo)
            #expect(plain.count == 2 && !plain.contains { $0.contains("TAGMSG") }, "\(plain)")
            #expect(plain[1].contains("+draft/reply=\(id)"))
        }
    }

    /// draft/event-playback: topic changes are kept and come back in order with the messages, as
    /// does a TAGMSG its sender asked to persist; a client without the cap gets neither, and a
    /// joiner's backlog never carries an old topic.
    @Test func topicsAndPersistedTagmsgsComeBackOnlyWithEventPlayback() async throws {
        try await withServer { server in
            let ava = try await Self.account(server, "ava")
            try await Self.join("#t", ava)
            try await ava.send("TOPIC #t :soup at six")
            let topic = try await ava.expect("TOPIC #t :soup at six")
            #expect(topic.contains("msgid="), "\(topic)")
            try await ava.send("PRIVMSG #t :bring bowls")
            try await ava.expect("PRIVMSG #t :bring bowls")
            try await ava.send("@+client-only-tag-test=success;+draft/persist TAGMSG #t")
            try await ava.expect("+client-only-tag-test=success") { $0.hasSuffix(" TAGMSG #t") }
            try await ava.send("@+client-only-tag-test=gone TAGMSG #t")  // not asked to persist
            try await ava.expect("+client-only-tag-test=gone") { $0.hasSuffix(" TAGMSG #t") }
            try await ava.send("TOPIC #t :soup at seven")
            try await ava.expect("TOPIC #t :soup at seven")

            try await ava.send("CHATHISTORY LATEST #t * 10")
            let lines = try await ChathistoryTests.batch(ava)
            #expect(lines.count == 4, "\(lines)")
            #expect(lines.first?.hasSuffix("TOPIC #t :soup at six") == true, "\(lines)")
            #expect(lines.count == 4 && lines[1].hasSuffix("PRIVMSG #t :bring bowls"), "\(lines)")
            #expect(lines.count == 4 && lines[2].contains("+client-only-tag-test=success"), "\(lines)")
            #expect(lines.last?.hasSuffix("TOPIC #t :soup at seven") == true, "\(lines)")
            #expect(ChathistoryTests.msgid(lines[0]) == ChathistoryTests.msgid(topic))

            // A joiner's backlog has the message and no old topic (it would be taken as today's).
            let cleo = try await Self.account(server, "cleo", caps: ChathistoryTests.caps)
            try await cleo.send("JOIN #t")
            let first = try await cleo.expect("the backlog") {
                $0.contains(" TOPIC #t :soup at six") || $0.contains("PRIVMSG #t :bring bowls")
            }
            #expect(first.hasSuffix("PRIVMSG #t :bring bowls"), "\(first)")
            try await cleo.send("PING :after")
            try await cleo.expectNoLine(containing: " TOPIC #t ", before: "PONG")
            try await cleo.send("CHATHISTORY LATEST #t * 10")
            let plain = try await ChathistoryTests.batch(cleo)
            #expect(plain.count == 1 && plain[0].hasSuffix("PRIVMSG #t :bring bowls"), "\(plain)")
        }
    }

    @Test func plainModeShowsAndSendsReactionsRepliesAndEdits() async throws {
        try await withServer { server in
            let ava = try await Self.account(server, "ava")
            try await Self.join("#r", ava)
            let dan = try await TestClient.user(server, "dan")
            try await dan.send("/join #r")
            try await dan.expect("You joined #r.")
            try await ava.send("PRIVMSG #r :soup is ready")
            let id = ChathistoryTests.msgid(try await ava.expect("PRIVMSG #r :soup is ready"))
            try await dan.expect("[#r] <ava> soup is ready")
            try await ava.send("@+draft/react=👍;+draft/reply=\(id) TAGMSG #r")
            try await dan.expect("[#r] * ava reacted 👍 to ava: soup is ready")
            try await ava.send("@+draft/reply=\(id) PRIVMSG #r :with bread")
            try await dan.expect("[#r] <ava> ↪ replying to ava: soup is ready — with bread")

            try await dan.send("/react ava 🎉")
            try await dan.expect("[#r] * You reacted 🎉 to ava: with bread")
            try await ava.expect("+draft/react=🎉") { $0.hasSuffix(" TAGMSG #r") }
            try await dan.send("/reply 2 coming")
            try await ava.expect("+draft/reply=\(id)") { $0.hasSuffix("PRIVMSG #r :coming") }
            try await dan.send("/react 99 👍")
            try await dan.expect("error: no recent line 99 in #r")

            try await ava.send("@draft/target-msgid=\(id);draft/edit-text=soup\\sis\\scold EDIT #r")
            try await dan.expect("[#r] * ava edited: soup is cold")
            try await ava.send("@+draft/react=👍;+draft/reply=\(id) TAGMSG #r")
            try await dan.expect("[#r] * ava reacted 👍 to ava: soup is cold")
        }
    }

    @Test func onlyTheAuthorEditsWithinTheWindowAndRedactionTakesReactionsAndEdits() async throws {
        let clock = TestClock(Date().formatted(.iso8601))
        try await withServer {
            $0.clock = clock.hearth
        } run: { server in
            let ava = try await Self.account(server, "ava")
            let ben = try await Self.account(server, "ben")
            let cleo = try await Self.account(server, "cleo", caps: ChathistoryTests.caps)
            try await Self.join("#r", ava, ben, cleo)
            let start = Date()
            try await ava.send("PRIVMSG #r :anex ample")
            let id = ChathistoryTests.msgid(try await ben.expect("PRIVMSG #r :anex ample"))
            let sent = Date()

            try await ben.send("@draft/target-msgid=\(id);draft/edit-text=mine\\snow EDIT #r")
            try await ben.expect("FAIL EDIT EDIT_FORBIDDEN #r \(id) :You may only edit your own messages")
            // Just inside the window.
            clock.set((start + Core.editWindow - 1).formatted(.iso8601))
            try await ava.send("@draft/target-msgid=\(id);draft/edit-text=an\\sexample EDIT #r")
            let edit = try await ben.expect(" EDIT #r")
            #expect(edit.contains("draft/target-msgid=\(id)") && edit.contains("draft/edit-text=an\\sexample"))
            try await cleo.expect("NOTICE #r :ava edited: an example")
            // Past it.
            clock.set((sent + Core.editWindow + 2).formatted(.iso8601))
            try await ava.send("@draft/target-msgid=\(id);draft/edit-text=too\\slate EDIT #r")
            try await ava.expect("FAIL EDIT EDIT_WINDOW_EXPIRED #r \(id) \(Int(Core.editWindow))")
            let long = String(repeating: "x", count: Core.editTextMaxBytes + 1)
            try await ava.send("@draft/target-msgid=\(id);draft/edit-text=\(long) EDIT #r")
            try await ava.expect("FAIL EDIT INVALID_EDIT #r \(id)")

            try await ben.send("@+draft/react=👍;+draft/reply=\(id) TAGMSG #r")
            try await ava.expect("+draft/react=👍")
            try await ben.send("@+draft/reply=\(id) PRIVMSG #r :a reply stays")
            try await ava.expect("PRIVMSG #r :a reply stays")
            try await ava.send("CHATHISTORY LATEST #r * 10")
            let before = try await ChathistoryTests.batch(ava)
            #expect(before.count == 4, "\(before)")
            #expect(before[1].contains(" EDIT #r") && before[1].contains("draft/edit-text=an\\sexample"))
            try await cleo.send("CHATHISTORY LATEST #r * 10")
            let fallback = try await ChathistoryTests.batch(cleo)
            #expect(fallback.count == 3 && fallback[1].hasSuffix("NOTICE #r :ava edited: an example"), "\(fallback)")

            try await ava.send("REDACT #r \(id)")
            try await ava.expect("REDACT #r :\(id)")
            try await ava.send("CHATHISTORY LATEST #r * 10")
            let after = try await ChathistoryTests.batch(ava)
            #expect(after.count == 1 && after[0].hasSuffix("PRIVMSG #r :a reply stays"), "\(after)")
        }
    }

    /// An edit is new text: someone banned or muted since, or blocked by the other side, cannot
    /// use it to speak (the review found EDIT passed every rule a PRIVMSG meets).
    @Test func anEditMeetsTheRulesOfSpeakingNow() async throws {
        try await withServer { server in
            let ava = try await Self.account(server, "ava")
            let ben = try await Self.account(server, "ben")
            try await Self.join("#r", ben, ava)
            try await ava.send("PRIVMSG #r :first words")
            let id = ChathistoryTests.msgid(try await ben.expect("PRIVMSG #r :first words"))
            try await ben.send("MODE #r +m")
            try await ava.expect("+m") { $0.contains(" MODE #r ") && $0.contains("+m") }
            try await ava.send("@draft/target-msgid=\(id);draft/edit-text=still\\shere EDIT #r")
            try await ava.expectNumeric("404")
            try await ben.send("MODE #r -m+b ava!*@*")
            try await ava.expect("+b") { $0.contains(" MODE #r ") && $0.contains("+b") }
            try await ava.send("@draft/target-msgid=\(id);draft/edit-text=still\\shere EDIT #r")
            try await ava.expectNumeric("404")

            try await ava.send("PRIVMSG ben :hello")
            let dm = ChathistoryTests.msgid(try await ben.expect("PRIVMSG ben :hello"))
            try await ben.send("PRIVMSG hearth :!block ava")
            try await ben.expect("You blocked ava.")
            try await ava.send("@draft/target-msgid=\(dm);draft/edit-text=let\\sme\\sin EDIT ben")
            try await ava.expect("ben does not accept messages from you")
            // Had any edit gone out, ben would have it before the answer to a PING sent after them.
            try await ben.send("PING :done")
            let first = try await ben.expect("PONG") { $0.contains(" EDIT ") || $0.contains("PONG") }
            #expect(first.contains("PONG"), "\(first)")
        }
    }

    /// Between two accounts a reaction is kept in their conversation; a guest's is relayed only.
    @Test func aReactionInAConversationIsKept() async throws {
        try await withServer { server in
            let ava = try await Self.account(server, "ava")
            let ben = try await Self.account(server, "ben")
            try await ava.send("PRIVMSG ben :lunch?")
            let id = ChathistoryTests.msgid(try await ben.expect("PRIVMSG ben :lunch?"))
            try await ben.send("@+draft/react=🍜;+draft/reply=\(id) TAGMSG ava")
            try await ava.expect("+draft/react=🍜") { $0.hasSuffix(" TAGMSG ava") }
            try await ava.send("CHATHISTORY LATEST ben * 10")
            let lines = try await ChathistoryTests.batch(ava)
            #expect(lines.count == 2 && lines[1].contains("+draft/react=🍜;+draft/reply=\(id)"), "\(lines)")
            #expect(lines[1].hasSuffix(" TAGMSG ava"))
        }
    }

    /// A private edit reaches the author's other device addressed to the other side, as it does
    /// from another node (it said the author's own nick here, so the edit was filed under no conversation).
    @Test func aPrivateEditShowsTheAuthorsOtherDevicesWhomItWasTo() async throws {
        try await withServer { server in
            let ava = try await Self.account(server, "ava")
            // A connection of ava's with a nick of its own: one over the device limit keeps one.
            for _ in 1..<Core.maxDevicesPerUser {
                let extra = ["CAP LS 302", "CAP REQ :\(Self.caps)", "PASS ava:s3cret-pass", "CAP END"]
                _ = try await TestClient.irc(server, nick: "ava", extra: extra)
            }
            let phone = try await server.connect()
            for line in ["CAP LS 302", "CAP REQ :\(Self.caps)", "PASS ava:s3cret-pass", "NICK ava", "USER a 0 * :a"] {
                try await phone.send(line)
            }
            try await phone.send("CAP END")
            try await phone.expectNumeric("433")
            try await phone.send("NICK ava_phone")
            try await phone.expectNumeric("001")
            let ben = try await Self.account(server, "ben")
            try await ava.send("PRIVMSG ben :helo")
            let id = ChathistoryTests.msgid(try await ben.expect("PRIVMSG ben :helo"))
            try await ava.send("@draft/target-msgid=\(id);draft/edit-text=hello EDIT ben")
            #expect(try await ben.expect("draft/edit-text=hello").hasSuffix(" EDIT ava"))
            #expect(try await ava.expect("draft/edit-text=hello").hasSuffix(" EDIT ben"))
            let mine = try await phone.expect("draft/edit-text=hello")
            #expect(mine.hasSuffix(" EDIT ben"), "\(mine)")
        }
    }
}
