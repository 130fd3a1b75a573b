import Foundation
import GRDB
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import HearthTesting
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import HearthApps
@testable import HearthMedia
@testable import HearthServer

/// IRC lines, names and texts at their limits and one past.
extension LimitCrossingTests {
    /// The body (512 bytes with CR LF), a client's tags (4094 bytes of tag data), both at
    /// once, the framer's bound on a raw line, and the 15 parameters.
    @Test func ircLinesAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let victor = try await TestClient.irc(server, nick: "victor")
            let pia = try await TestClient.irc(server, nick: "pia")
            for c in [victor, pia] {
                try await c.send("JOIN #x")
                try await c.expectNumeric("366")
            }
            let prefix = "PRIVMSG #x :"
            let bodyRoom = IRCLimits.maxBodyBytes - 2 - prefix.utf8.count  // TestClient.send adds CR LF
            let bodyRefusal = " 417 victor :Input line too long (the limit is \(IRCLimits.maxBodyBytes) bytes)"

            try await victor.send(prefix + "A" + String(repeating: "a", count: bodyRoom - 1))
            try await pia.expect("PRIVMSG #x :Aaaa")
            try await victor.send(prefix + "B" + String(repeating: "b", count: bodyRoom))
            try await victor.expect(bodyRefusal)
            try await DeviceTests.nothing(pia, containing: "PRIVMSG #x :B")

            /// A tag section of exactly `bytes` bytes, counting the '@' and the space after it.
            func tags(_ bytes: Int) -> String { "@+t=" + String(repeating: "t", count: bytes - 5) + " " }
            /// A client's whole tag section: its 4094 bytes of tag data, the '@' and the space.
            let section = IRCLimits.maxClientTagBytes + 2
            #expect(tags(section).utf8.count == section)
            try await victor.send(tags(section) + prefix + "tags at the limit")
            let relayed = try await pia.expect("PRIVMSG #x :tags at the limit")
            // Relayed with the server's own tags, the section still fits the 8191 bytes clients accept.
            #expect(relayed.prefix { $0 != " " }.utf8.count + 1 <= IRCLimits.maxTagBytes)
            try await victor.send(tags(section + 1) + prefix + "tags one past")
            try await victor.expect(
                " 417 victor :Message tags too long (the limit is \(IRCLimits.maxClientTagBytes) bytes of tag data)")
            try await DeviceTests.nothing(pia, containing: "tags one past")
            // TAGMSG too: at the limit taken, one past refused.
            let tagmsgAtLimit = try await Self.ircReplies(victor, tags(section) + "TAGMSG #x")
            #expect(!tagmsgAtLimit.contains { $0.contains(" 417 ") }, "\(tagmsgAtLimit)")
            try await victor.send(tags(section + 1) + "TAGMSG #x")
            try await victor.expect(" 417 victor :Message tags too long")

            // The longest line there can be: full tags and a full body.
            let longest = tags(section) + prefix + "C" + String(repeating: "c", count: bodyRoom - 1)
            #expect(longest.utf8.count + 2 == IRCLimits.maxLineBytes)
            try await victor.send(longest)
            try await pia.expect("PRIVMSG #x :Cccc")

            // The framer keeps at most maxLineBytes of one line: a line that long is still read
            // (and the parser refuses its body); one byte more and it is dropped unread.
            let framed =
                tags(section) + prefix
                + String(repeating: "d", count: IRCLimits.maxLineBytes - section - prefix.utf8.count)
            #expect(framed.utf8.count == IRCLimits.maxLineBytes)
            try await victor.send(framed)
            try await victor.expect(bodyRefusal)
            try await victor.send(framed + "d")
            try await victor.expect(
                " 417 victor :Input line was too long (the limit is \(IRCLimits.maxBodyBytes) bytes, plus "
                    + "\(section) of tags)"
            )
            try await DeviceTests.nothing(pia, containing: "PRIVMSG #x :d")

            // Parameters.
            let nicks = (1...IRCLimits.maxParams).map { "p\($0)" }
            let atLimit = try await Self.ircReplies(victor, "USERHOST " + nicks.joined(separator: " "))
            #expect(Self.count(atLimit, containing: " 302 victor ") == 1, "\(atLimit)")
            let onePast = try await Self.ircReplies(
                victor, "USERHOST " + nicks.joined(separator: " ") + " p\(IRCLimits.maxParams + 1)")
            #expect(
                Self.count(onePast, containing: "Too many parameters (the limit is \(IRCLimits.maxParams))") == 1,
                "\(onePast)")
            #expect(Self.count(onePast, containing: " 302 ") == 0)

            try await victor.sync()
            #expect(!victor.isClosed)
        }
    }

    /// Plain mode (nc) takes lines of maxBodyBytes − 2 bytes (there is no CR LF to count).
    @Test func plainLinesAtTheirLimitAndOnePast() async throws {
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            try await nc.send("/join #p")
            try await nc.expect("You joined #p.")
            let ira = try await TestClient.irc(server, nick: "ira")
            try await ira.send("JOIN #p")
            try await ira.expectNumeric("366")
            let room = IRCLimits.maxBodyBytes - 2
            try await nc.send("E" + String(repeating: "e", count: room - 1))
            try await ira.expect("PRIVMSG #p :Eeee")
            try await nc.send("F" + String(repeating: "f", count: room))
            try await nc.expect("error: that line is too long (the limit is \(room) bytes); nothing was sent.")
            try await DeviceTests.nothing(ira, containing: "PRIVMSG #p :F")
            try await nc.send("!whoami")
            try await nc.expect("You are guest")
        }
    }

    @Test func nickAndChannelNamesAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let c = try await TestClient.irc(server, nick: "nell")
            let nick = "N" + String(repeating: "n", count: IRCLimits.nickLength - 1)
            try await c.send("NICK \(nick)")
            #expect(Self.lastParameter(try await c.expect(" NICK ")) == nick)
            try await c.send("NICK \(nick)x")
            // Refused, and the reply is still addressed to the nick at the limit.
            try await c.expect(" 432 \(nick) \(nick)x :Erroneous nickname")

            let channel = "#" + String(repeating: "c", count: IRCLimits.channelLength - 1)
            try await c.send("JOIN \(channel)")
            try await c.expect(" 366 \(nick) \(channel) ")
            try await c.send("JOIN \(channel)c")
            try await c.expect(" 476 \(nick) \(channel)c :Bad channel name")
            try await DeviceTests.nothing(c, containing: "JOIN \(channel)c")
        }
    }

    /// Texts that are cut rather than refused: topic, away message, kick reason, user name
    /// and real name (USER); SETNAME refuses instead.
    @Test func topicAwayKickUserAndRealnameAreCutAtTheirLimits() async throws {
        try await withServer { server in
            let opal = try await TestClient.irc(server, nick: "opal")
            let kit = try await TestClient.irc(server, nick: "kit")
            for c in [opal, kit] {
                try await c.send("JOIN #t")
                try await c.expectNumeric("366")
            }

            let topic = String(repeating: "T", count: IRCLimits.topicLength)
            try await opal.send("TOPIC #t :\(topic)")
            #expect(Self.lastParameter(try await kit.expect(" TOPIC #t :T")) == topic)
            try await opal.send("TOPIC #t :" + String(repeating: "U", count: IRCLimits.topicLength + 1))
            #expect(
                Self.lastParameter(try await kit.expect(" TOPIC #t :U"))
                    == String(repeating: "U", count: IRCLimits.topicLength))

            let away = String(repeating: "A", count: IRCLimits.awayLength)
            try await kit.send("AWAY :\(away)")
            try await kit.expectNumeric("306")
            try await opal.send("WHOIS kit")
            #expect(Self.lastParameter(try await opal.expectNumeric("301")) == away)
            try await kit.send("AWAY :" + String(repeating: "B", count: IRCLimits.awayLength + 1))
            try await kit.expectNumeric("306")
            try await opal.send("WHOIS kit")
            #expect(
                Self.lastParameter(try await opal.expectNumeric("301"))
                    == String(repeating: "B", count: IRCLimits.awayLength))

            let reason = String(repeating: "K", count: IRCLimits.kickLength)
            try await opal.send("KICK #t kit :\(reason)")
            #expect(Self.lastParameter(try await kit.expect(" KICK #t kit :K")) == reason)
            try await kit.send("JOIN #t")
            try await kit.expectNumeric("366")
            try await opal.send("KICK #t kit :" + String(repeating: "L", count: IRCLimits.kickLength + 1))
            #expect(
                Self.lastParameter(try await kit.expect(" KICK #t kit :L"))
                    == String(repeating: "L", count: IRCLimits.kickLength))

            // The ident is "~" and the user name: at most userLength in all.
            let user = String(repeating: "u", count: IRCLimits.userLength - 1)
            let real = String(repeating: "r", count: IRCLimits.realnameLength)
            let fits = try await server.connect()
            try await fits.send("NICK fits")
            try await fits.send("USER \(user) 0 * :\(real)")
            try await fits.expectNumeric("376")
            let cut = try await server.connect()
            try await cut.send("NICK cut")
            try await cut.send("USER \(user)v 0 * :\(real)s")
            try await cut.expectNumeric("376")
            for nick in ["fits", "cut"] {
                try await opal.send("WHOIS \(nick)")
                let line = try await opal.expectNumeric("311")
                #expect(line.contains(" \(nick) ~\(user) ") && Self.lastParameter(line) == real, "\(line)")
            }

            let sel = try await IRCv3Tests.client(server, "sel", caps: "setname")
            try await sel.send("SETNAME :\(real)")
            #expect(Self.lastParameter(try await sel.expect(" SETNAME ")) == real)
            try await sel.send("SETNAME :\(real)s")
            try await sel.expect(
                "FAIL SETNAME INVALID_REALNAME :Realname is too long (the limit is \(IRCLimits.realnameLength) bytes)")
            try await opal.send("WHOIS sel")
            #expect(Self.lastParameter(try await opal.expectNumeric("311")) == real)
            try await sel.sync()
        }
    }
}
