import Foundation
import HearthTesting
import Testing

/// Replies IRC clients and irctest expect in the less common cases: invalid mode parameters,
/// KICK with several channels, USER without a realname or in another encoding, and
/// labeled-response for messages to oneself and for lines that do not parse.
@Suite struct ProtocolEdgeTests {
    @Test func invalidKeysAndLimitsGet696AndChangeNothing() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            for (line, reply) in [
                ("MODE #club +k :two words", " 696 op #club k * :"),
                ("MODE #club +k :", " 696 op #club k * :"),
                ("MODE #club +l 0", " 696 op #club l 0 :"),
                ("MODE #club +l -3", " 696 op #club l -3 :"),
                ("MODE #club +l lots", " 696 op #club l lots :"),
                ("MODE #club +l :", " 696 op #club l * :"),
            ] {
                try await op.send(line)
                try await op.expect(reply)
            }
            try await op.send("MODE #club")
            try await op.expect(" 324 op #club :+nt")
            let guest = try await TestClient.irc(server, nick: "guest")
            try await guest.send("JOIN #club")
            try await guest.expect("JOIN #club")
        }
    }

    @Test func kickTakesOneChannelPerUserOrOneForAll() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            for name in ["#a", "#b"] {
                try await op.send("JOIN \(name)")
                try await op.expectNumeric("366")
            }
            let ann = try await TestClient.irc(server, nick: "ann")
            let bob = try await TestClient.irc(server, nick: "bob")
            for client in [ann, bob] {
                try await client.send("JOIN #a,#b")
                try await client.expect("JOIN #b")
            }
            try await op.send("KICK #a ann,bob :out")
            try await op.expect("KICK #a ann :out")
            try await op.expect("KICK #a bob :out")
            try await op.send("KICK #b,#b ann,bob :out too")
            try await op.expect("KICK #b ann :out too")
            try await op.expect("KICK #b bob :out too")
            try await op.send("KICK #a,#b ann")
            try await op.expect(" 461 op KICK :")
        }
    }

    @Test func registrationNeedsARealnameAndSurvivesAnotherEncoding() async throws {
        try await withServer { server in
            let empty = try await server.connect()
            try await empty.send("NICK nameless")
            try await empty.send("USER nameless 0 * :")
            try await empty.expect(" 461 nameless USER :Not enough parameters")
            try await empty.send("USER nameless 0 * :Now With A Name")
            try await empty.expectNumeric("001")
            // Latin-1 in the realname: taken with replacement characters, and welcomed.
            let latin = try await server.connect()
            try await latin.send("NICK latin")
            try await latin.sendRaw(Array("USER latin 0 * :i".utf8) + [0xE8] + Array("rc\r\n".utf8))
            try await latin.expectNumeric("001")
            try await empty.send("WHOIS latin")
            try await empty.expect(" 311 nameless latin ~latin \(server.localHost) * :i\u{FFFD}rc")
            // After registration a line in another encoding is refused with FAIL, and nothing is sent.
            try await latin.send("JOIN #x")
            try await latin.expect("JOIN #x")
            try await latin.sendRaw(Array("@label=l1 PRIVMSG #x :caf".utf8) + [0xE9, 0x0D, 0x0A])
            try await latin.expect("FAIL PRIVMSG INVALID_UTF8")
        }
    }

    @Test func labeledMessagesToOneselfAndUnparsableLines() async throws {
        try await withServer { server in
            let me = try await server.connect()
            for line in [
                "CAP REQ :echo-message batch labeled-response message-tags", "NICK me", "USER me 0 * :Me", "CAP END",
            ] {
                try await me.send(line)
            }
            try await me.expectNumeric("376")
            // The delivery arrives as any message would; the echo carries the label.
            for command in ["PRIVMSG me :hi", "NOTICE me :hi", "@+draft/react=x TAGMSG me"] {
                let labeled = command.hasPrefix("@") ? "@label=a1;" + command.dropFirst() : "@label=a1 " + command
                try await me.send(labeled)
                let verb = command.contains("TAGMSG") ? "TAGMSG" : command.hasPrefix("NOTICE") ? "NOTICE" : "PRIVMSG"
                let first = try await me.expect(verb) { $0.contains(" \(verb) me") }
                let second = try await me.expect(verb) { $0.contains(" \(verb) me") }
                #expect([first, second].filter { $0.hasPrefix("@label=a1") }.count == 1, "\(first) / \(second)")
                #expect(![first, second].contains { $0.contains("BATCH") })
            }
            // A command that cannot even be parsed still gets its label.
            try await me.send("@label=b2 NONEXISTENT_COMMAND")
            try await me.expect("@label=b2 :test.hearth 421 me NONEXISTENT_COMMAND :Unknown command")
        }
    }

    @Test func multilineBatchesCarryTheirLabelAndSkipBlankLinesForOthers() async throws {
        try await withServer { server in
            let caps = "echo-message batch labeled-response message-tags server-time draft/multiline"
            let alice = try await TestClient.irc(server, nick: "alice", extra: ["CAP REQ :\(caps)", "CAP END"])
            let carl = try await TestClient.irc(server, nick: "carl", extra: ["CAP REQ :message-tags", "CAP END"])
            for client in [alice, carl] {
                try await client.send("JOIN #ml")
                try await client.expectNumeric("366")
            }
            for line in [
                "@label=m1;+draft/reply=x BATCH +b1 draft/multiline #ml", "@batch=b1 PRIVMSG #ml :",
                "@batch=b1 PRIVMSG #ml :first", "@batch=b1;draft/multiline-concat PRIVMSG #ml : and more", "BATCH -b1",
            ] {
                try await alice.send(line)
            }
            // The echo's BATCH + carries the label: no ACK, no wrapping batch.
            let start = try await alice.expect("BATCH +") { $0.contains(" BATCH +") }
            #expect(start.hasPrefix("@label=m1;"), "\(start)")
            #expect(start.contains("+draft/reply=x"))
            try await alice.expect("BATCH -")
            try await alice.sync()
            #expect(!alice.unread().contains { $0.contains(" ACK") || $0.contains("labeled-response") })
            // Line by line: the blank line is left out, only the first line has the msgid.
            let first = try await carl.expect("PRIVMSG #ml :first")
            let second = try await carl.expect("PRIVMSG #ml : and more")
            #expect(first.contains("msgid=") && !second.contains("msgid="))
            #expect(first.contains("+draft/reply=x"))
            // A concat tag on a blank line is refused.
            for line in [
                "BATCH +b2 draft/multiline #ml", "@batch=b2 PRIVMSG #ml :hi",
                "@batch=b2;draft/multiline-concat PRIVMSG #ml :", "BATCH -b2",
            ] {
                try await alice.send(line)
            }
            try await alice.expect("FAIL BATCH MULTILINE_INVALID")
        }
    }

    @Test func joinersAwayAndNickCaseChanges() async throws {
        try await withServer { server in
            let watcher = try await TestClient.irc(server, nick: "watcher", extra: ["CAP REQ away-notify", "CAP END"])
            try await watcher.send("JOIN #hall")
            try await watcher.expectNumeric("366")
            let away = try await TestClient.irc(server, nick: "napper")
            try await away.send("AWAY :asleep")
            try await away.expectNumeric("306")
            try await away.send("JOIN #hall")
            try await watcher.expect(":napper!~napper@\(server.localHost) AWAY :asleep")
            // MONITOR: a nick changing only its case is not news.
            try await watcher.send("MONITOR + napper")
            try await watcher.expectNumeric("730")
            try await away.send("NICK NAPPER")
            try await away.expect("NICK NAPPER")
            try await watcher.sync()
            #expect(!watcher.unread().contains { $0.contains(" 730 ") || $0.contains(" 731 ") })
            try await away.send("NICK dreamer")
            try await watcher.expect(" 731 watcher :NAPPER")
        }
    }

    @Test func redactingInAChannelOneCannotSeeNamesNoMessage() async throws {
        try await withServer { server in
            let caps = "draft/message-redaction standard-replies"
            let ann = try await TestClient.irc(server, nick: "ann", extra: ["CAP REQ :\(caps)", "CAP END"])
            try await ann.send("REDACT #nowhere some-msgid")
            try await ann.expect(
                ":test.hearth FAIL REDACT INVALID_TARGET #nowhere :You can't redact messages in #nowhere")
        }
    }

    @Test func namesForSeveralChannelsAndMessagesToOperators() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            for name in ["#a", "#b"] {
                try await op.send("JOIN \(name)")
                try await op.expectNumeric("366")
            }
            try await op.send("NAMES #a,#b,#none")
            try await op.expect(" 353 op = #a :@op")
            try await op.expect(" 353 op = #b :@op")
            try await op.expect(" 366 op #a,#b,#none :End of /NAMES list.")
            // STATUSMSG: @#a reaches operators, +#a operators and voiced members.
            let voiced = try await TestClient.irc(server, nick: "voiced")
            let plain = try await TestClient.irc(server, nick: "plain")
            for client in [voiced, plain] {
                try await client.send("JOIN #a")
                try await client.expectNumeric("366")
            }
            try await op.send("MODE #a +v voiced")
            try await voiced.expect("MODE #a +v :voiced")
            try await plain.send("PRIVMSG @#a :ops only")
            try await op.expect(":plain!~plain@\(server.localHost) PRIVMSG @#a :ops only")
            try await plain.send("PRIVMSG +#a :ops and voices")
            try await op.expect("PRIVMSG +#a :ops and voices")
            try await voiced.expect("PRIVMSG +#a :ops and voices")
            try await plain.sync()
            try await voiced.sync()
            #expect(!voiced.unread().contains { $0.contains("ops only") })
            #expect(!plain.unread().contains { $0.contains("PRIVMSG @#a") || $0.contains("PRIVMSG +#a") })
            try await plain.send("PRIVMSG @#nowhere :hello")
            try await plain.expect(" 403 plain #nowhere ")
        }
    }
}
