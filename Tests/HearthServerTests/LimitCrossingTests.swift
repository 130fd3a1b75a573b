import Foundation
import GRDB
import HearthCrypto
import HearthProtocol
import HearthStore
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import HearthBot
@testable import HearthMedia
@testable import HearthServer

/// Every limit that had no test crossing it, crossed by exactly one over TCP (or HTTP) to a
/// real server: at the limit it is accepted; one past, the client gets a clear refusal (or the
/// documented cut), nothing else changes, and the connection lives on. Each test names the
/// constant it crosses, never a literal.
@Suite struct LimitCrossingTests {
    // MARK: Helpers

    /// Every line answering `command` on a plain connection, up to the answer to a `!whoami`
    /// sent right after it (lines are answered in order).
    static func replies(_ c: TestClient, _ command: String) async throws -> [String] {
        try await c.send(command)
        try await c.send("!whoami")
        var lines: [String] = []
        while true {
            let line = try await c.expect("the reply to \(command)") { _ in true }
            if line.contains("You are ") { return lines }
            lines.append(line)
        }
    }

    /// Every line answering `command` on an IRC connection, up to the PONG of a PING sent after it.
    static func ircReplies(_ c: TestClient, _ command: String) async throws -> [String] {
        let token = "mark\(UInt32.random(in: 0...UInt32.max))"
        try await c.send(command)
        try await c.send("PING \(token)")
        var lines: [String] = []
        while true {
            let line = try await c.expect("PONG \(token)") { _ in true }
            if line.contains(" PONG ") && line.hasSuffix(token) { return lines }
            lines.append(line)
        }
    }

    /// The last parameter of an IRC line (the text after " :", or the last word).
    static func lastParameter(_ line: String) -> String {
        if let range = line.range(of: " :", options: .backwards) { return String(line[range.upperBound...]) }
        return String(line.split(separator: " ").last ?? "")
    }

    static func count(_ lines: [String], containing text: String) -> Int {
        lines.filter { $0.contains(text) }.count
    }

    /// Crosses a page size by one. With `size` items (lines containing `item`) the list has
    /// no footer; after `addOne`, page 1 still shows `size` with a footer pointing at `next`,
    /// and `next` shows the one left (the line containing `last`, when given).
    static func crossPageSize(
        _ c: TestClient, _ command: String, next: String, item: String, size: Int, last: String? = nil,
        addOne: () async throws -> Void
    ) async throws {
        var page = try await replies(c, command)
        #expect(count(page, containing: item) == size && count(page, containing: "page 1 of") == 0, "\(command)")
        try await addOne()
        page = try await replies(c, command)
        #expect(count(page, containing: item) == size, "\(command)")
        #expect(count(page, containing: "page 1 of 2 — more: \(next)") == 1, "\(command)")
        page = try await replies(c, next)
        #expect(
            count(page, containing: item) == 1 && (last.map { count(page, containing: $0) == 1 } ?? true), "\(next)")
    }

    static func accountID(_ server: TestServer, _ name: String) async throws -> Int64 {
        try #require(try await server.server.store.account(nameKey: name)?.id)
    }

    /// Sends a SASL PLAIN payload in AUTHENTICATE chunks, as clients do.
    static func authenticate(_ c: TestClient, _ payload: String) async throws {
        try await c.send("AUTHENTICATE PLAIN")
        try await c.expect("AUTHENTICATE +")
        var rest = Substring(payload)
        while !rest.isEmpty {
            try await c.send("AUTHENTICATE \(rest.prefix(Core.saslChunk))")
            rest = rest.dropFirst(Core.saslChunk)
        }
        if payload.utf8.count % Core.saslChunk == 0 { try await c.send("AUTHENTICATE +") }
    }

    /// A connection that has sent CAP LS, NICK, USER and CAP REQ :sasl, waiting for AUTHENTICATE.
    static func saslClient(_ server: TestServer, _ nick: String) async throws -> TestClient {
        let c = try await server.connect()
        for line in ["CAP LS 302", "NICK \(nick)", "USER \(nick) 0 * :\(nick)", "CAP REQ :sasl"] {
            try await c.send(line)
        }
        try await c.expect("CAP * ACK :sasl")
        return c
    }

    // MARK: IRC lines, names and texts

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
                " 417 victor :Input line was too long (the limit is \(IRCLimits.maxBodyBytes) bytes, plus \(section) of tags)"
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

    // MARK: Channels

    @Test func channelsPerUserAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let jo = try await TestClient.irc(server, nick: "jo")
            let names = (1...IRCLimits.channelsPerUser).map { "#c\($0)" }
            try await jo.send("JOIN " + names.joined(separator: ","))
            try await jo.expect(" 366 jo \(names.last!) ")
            let extra = "#c\(IRCLimits.channelsPerUser + 1)"
            try await jo.send("JOIN \(extra)")
            try await jo.expect(
                " 405 jo \(extra) :You have joined too many channels (the limit is \(IRCLimits.channelsPerUser))")
            try await DeviceTests.nothing(jo, containing: "JOIN \(extra)")
            // Leaving one makes room.
            try await jo.send("PART \(names[0])")
            try await jo.expect("PART \(names[0])") { $0.contains(" PART ") && Self.lastParameter($0) == names[0] }
            try await jo.send("JOIN \(extra)")
            try await jo.expect(" 366 jo \(extra) ")
        }
    }

    /// Parameter modes per MODE command (the rest are ignored), and nicks per USERHOST.
    @Test func modesAndUserhostTargetsPerCommandAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let mo = try await TestClient.irc(server, nick: "mo")
            try await mo.send("JOIN #m")
            try await mo.expectNumeric("366")
            let nicks = (0...IRCLimits.modesPerCommand).map { "m\(Character(UnicodeScalar(UInt8(97 + $0))))" }  // one more than the limit
            for nick in nicks {
                let c = try await TestClient.irc(server, nick: nick)
                try await c.send("JOIN #m")
                try await c.expectNumeric("366")
            }
            let atLimit = Array(nicks.prefix(IRCLimits.modesPerCommand))
            /// The MODE change as sent and as echoed (the echo may put a colon before its last word).
            func change(_ mode: Character, _ targets: [String]) -> String {
                "MODE #m +" + String(repeating: mode, count: targets.count) + " " + targets.joined(separator: " ")
            }
            try await mo.send(change("v", atLimit))
            var echo = try await mo.expect(" MODE #m +v").replacingOccurrences(of: " :", with: " ")
            #expect(echo.hasSuffix(" " + change("v", atLimit)), "\(echo)")
            try await mo.send(change("o", nicks))
            echo = try await mo.expect(" MODE #m +o").replacingOccurrences(of: " :", with: " ")
            #expect(echo.hasSuffix(" " + change("o", atLimit)), "\(echo)")
            try await mo.send("NAMES #m")
            let entries = Self.lastParameter(try await mo.expectNumeric("353")).split(separator: " ").map(String.init)
            #expect(entries.contains(nicks.last!) && !entries.contains("@" + nicks.last!), "\(entries)")

            // USERHOST answers for the first userhostTargets nicks and ignores the rest.
            let all = ["mo"] + nicks
            #expect(all.count == IRCLimits.userhostTargets + 1)
            try await mo.send("USERHOST " + all.prefix(IRCLimits.userhostTargets).joined(separator: " "))
            let five = Self.lastParameter(try await mo.expectNumeric("302")).split(separator: " ")
            #expect(five.count == IRCLimits.userhostTargets)
            try await mo.send("USERHOST " + all.joined(separator: " "))
            let six = Self.lastParameter(try await mo.expectNumeric("302")).split(separator: " ")
            #expect(six.count == IRCLimits.userhostTargets && !six.contains { $0.hasPrefix(all.last! + "=") }, "\(six)")
        }
    }

    @Test func bansPerChannelAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let bo = try await TestClient.irc(server, nick: "bo")
            try await bo.send("JOIN #b")
            try await bo.expectNumeric("366")
            let masks = (1...IRCLimits.bansPerChannel).map { "x\($0)!*@*" }
            for start in stride(from: 0, to: masks.count, by: IRCLimits.modesPerCommand) {
                let group = masks[start..<min(start + IRCLimits.modesPerCommand, masks.count)]
                try await bo.send(
                    "MODE #b +" + String(repeating: "b", count: group.count) + " " + group.joined(separator: " "))
            }
            try await bo.expect("a MODE line with the last ban") {
                $0.contains(" MODE #b +b") && $0.contains(masks.last!)
            }
            let extra = "x\(IRCLimits.bansPerChannel + 1)!*@*"
            try await bo.send("MODE #b +b \(extra)")
            try await bo.expect(" 478 bo #b b :Channel ban list is full (the limit is \(IRCLimits.bansPerChannel))")
            let list = try await Self.ircReplies(bo, "MODE #b b")
            #expect(Self.count(list, containing: " 367 bo #b ") == IRCLimits.bansPerChannel)
            #expect(Self.count(list, containing: extra) == 0)
            // Lifting one makes room.
            try await bo.send("MODE #b -b \(masks[0])")
            try await bo.expect(" MODE #b -b ")
            try await bo.send("MODE #b +b \(extra)")
            try await bo.expect("a MODE line adding \(extra)") { $0.contains(" MODE #b +b") && $0.contains(extra) }
        }
    }

    /// A key (+k) longer than IRCLimits.keyLength is cut to it.
    @Test func channelKeyAtItsLimitAndOnePast() async throws {
        try await withServer { server in
            let ko = try await TestClient.irc(server, nick: "ko")
            try await ko.send("JOIN #k")
            try await ko.expectNumeric("366")
            let key = String(repeating: "k", count: IRCLimits.keyLength)
            try await ko.send("MODE #k +k \(key)")
            #expect(Self.lastParameter(try await ko.expect(" MODE #k +k ")) == key)
            try await ko.send("MODE #k -k *")
            try await ko.expect(" MODE #k -k")
            try await ko.send("MODE #k +k \(key)z")
            #expect(Self.lastParameter(try await ko.expect(" MODE #k +k ")) == key)
            let guest = try await TestClient.irc(server, nick: "kg")
            try await guest.send("JOIN #k \(key)z")
            try await guest.expectNumeric("475")
            try await guest.send("JOIN #k \(key)")
            try await guest.expectNumeric("366")
        }
    }

    // MARK: Connections, SASL, history, flood control

    /// The default connections per address (LimitTests crosses a configured value).
    @Test func connectionsPerAddressAtTheDefaultLimitAndOnePast() async throws {
        // loopback is exempt otherwise
        try await withServer {
            $0.floodControl = true
        } run: { server in
            var held: [TestClient] = []
            for _ in 0..<IRCLimits.connectionsPerAddress { held.append(try await server.connect()) }
            try await held.last!.sync()  // the last one at the limit is served
            let refused = try await server.connect()
            try await refused.expect(
                "ERROR :Closing Link: 127.0.0.1 (Too many connections from your address: the limit is \(IRCLimits.connectionsPerAddress))"
            )
            try await held.last!.sync()  // and still is
            await held[0].close()
            var again: TestClient?
            for _ in 0..<100 where again == nil {
                try await Task.sleep(for: .milliseconds(20))
                let c = try await server.connect()
                try await c.send("PING room")
                let line = try await c.expect("PONG or ERROR") { $0.contains("PONG") || $0.contains("ERROR") }
                if line.contains("PONG") { again = c }
            }
            #expect(again != nil)
            for c in held { await c.close() }
        }
    }

    @Test func saslPayloadAtItsLimitIsReadAndOnePastIsRefused() async throws {
        try await withServer { server in
            try await IRCProtocolTests.register(server, "sam", "s3cret-pass")
            let c = try await Self.saslClient(server, "sam")
            // Valid base64 without the NUL separators of PLAIN: read whole, then refused for its content.
            let atLimit = String(repeating: "QUFB", count: Core.maxSASLBytes / 4)
            #expect(atLimit.utf8.count == Core.maxSASLBytes)
            try await Self.authenticate(c, atLimit)
            let first = try await c.expect("a SASL failure") { $0.contains(" 904 ") || $0.contains(" 905 ") }
            #expect(first.contains(" 904 ") && first.contains("malformed PLAIN message"), "\(first)")
            try await Self.authenticate(c, atLimit + "Q")
            try await c.expect(" 905 sam :SASL message too long")
            // The connection lives on and can still log in.
            try await Self.authenticate(c, IRCProtocolTests.plainAuth("sam", "s3cret-pass"))
            try await c.expectNumeric("903")
            try await c.send("CAP END")
            try await c.expectNumeric("001")
        }
    }

    @Test func chathistoryReturnsAtMostItsLimit() async throws {
        try await withServer { server in
            let ava = try await IRCv3Tests.client(server, "ava", caps: ChathistoryTests.caps)
            try await ava.send("JOIN #h")
            try await ava.expectNumeric("366")
            let total = Core.chathistoryLimit + 1
            for i in 1...total { try await ava.send("PRIVMSG #h :m\(i)") }
            try await ava.sync()
            var latest: [String] = []
            for _ in 0..<100 {
                try await ava.send("CHATHISTORY LATEST #h * \(Core.chathistoryLimit)")
                latest = try await ChathistoryTests.batch(ava)
                if latest.last?.hasSuffix(":m\(total)") == true { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(latest.count == Core.chathistoryLimit && latest.first?.hasSuffix(":m2") == true)
            // Asking for one more gets the same: the oldest line is not sent.
            try await ava.send("CHATHISTORY LATEST #h * \(total)")
            let capped = try await ChathistoryTests.batch(ava)
            #expect(capped.count == Core.chathistoryLimit && capped.first?.hasSuffix(":m2") == true)
            #expect(!capped.contains { $0.hasSuffix(":m1") })
        }
    }

    /// Notes when each PONG arrives, on the client's event loop, before the test reads it.
    final class PongClock: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        let arrivals = NIOLockedValueBox<[String: Date]>([:])
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let line = String(buffer: unwrapInboundIn(data))
            if let range = line.range(of: " PONG test.hearth :") {
                let token = line[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
                let now = Date()
                arrivals.withLockedValue { if $0[token] == nil { $0[token] = now } }
            }
            context.fireChannelRead(data)
        }
    }

    enum FloodTier: String, CaseIterable, Sendable { case unregistered, registered, bot }

    /// Each tier's burst goes through at once; the line after it waits at least one token's
    /// time (1/rate) and is answered, not dropped. Unregistered is the strictest tier, bot
    /// accounts (`!set bot on`) the loosest, and still capped.
    @Test(arguments: FloodTier.allCases)
    func floodControlLetsTheBurstThroughAndMakesTheNextLineWait(tier: FloodTier) async throws {
        try await withServer {
            $0.floodControl = true
        } run: { server in
            let burst: Double
            let rate: Double
            let client: TestClient
            switch tier {
            case .unregistered:
                (burst, rate) = (FloodControl.unregisteredBurst, FloodControl.unregisteredRatePerSecond)
                client = try await server.connect()
            case .registered:
                (burst, rate) = (FloodControl.burst, FloodControl.ratePerSecond)
                client = try await TestClient.irc(server, nick: "reg")
            case .bot:
                (burst, rate) = (FloodControl.botBurst, FloodControl.botRatePerSecond)
                client = try await TestClient.irc(server, nick: "robo")
                try await client.send("PRIVMSG hearth :register robo s3cret-pass")
                try await client.expect("Welcome to Hearth, robo!")
                try await client.send("PRIVMSG hearth :set bot on")
                try await client.expect(":robo!~robo@127.0.0.1 MODE robo :+B")
            }
            let clock = PongClock()
            try await client.channel.pipeline.addHandler(clock, position: .before(client.inbox)).get()
            let count = Int(burst) + 1
            let tokenTime = 1 / rate
            // The burst going through at once is a matter of timing: on a machine too busy to tell,
            // try again after the bucket has refilled. The line after the burst must always wait.
            for attempt in 1...3 {
                // A full bucket: registering took tokens (and so did the previous attempt).
                if tier != .unregistered || attempt > 1 { try await Task.sleep(for: .seconds(burst / rate + 0.3)) }
                let tokens = (1...count).map { "t\(attempt)-\($0)" }
                let sent = Date()
                try await client.sendRaw(Array(tokens.map { "PING \($0)\r\n" }.joined().utf8))
                for token in tokens {
                    try await client.expect("PONG \(token)") { $0.hasSuffix(" PONG test.hearth :\(token)") }
                }
                let times = try clock.arrivals.withLockedValue { state in
                    try tokens.map { try #require(state[$0]).timeIntervalSince(sent) }
                }
                #expect(
                    times[count - 1] >= tokenTime - 0.005,
                    "\(tier): line \(count) was answered after \(times[count - 1]) s")
                if times[count - 2] < tokenTime { return }
            }
            Issue.record("\(tier): the burst of \(Int(burst)) lines never went through within \(tokenTime) s")
        }
    }

    // MARK: Uploads

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    /// A real 64×48 PNG padded to exactly `size` bytes with private ancillary chunks, which
    /// decoders skip (each under libpng's 8 MB chunk limit).
    static func paddedPNG(to size: Int) -> Data {
        var png = [UInt8](MemeTests.samplePNG(64, 48))
        let room = size - png.count
        let chunks = (room + 1_000_011) / 1_000_012
        let data = room - 12 * chunks
        var padding: [UInt8] = []
        for index in 0..<chunks {
            let length = data / chunks + (index < data % chunks ? 1 : 0)
            let body = Array("heRe".utf8) + [UInt8](repeating: 0x20, count: length)
            for shift in [24, 16, 8, 0] { padding.append(UInt8((length >> shift) & 0xFF)) }
            padding += body
            let crc = crc32(body)
            for shift in [24, 16, 8, 0] { padding.append(UInt8((crc >> UInt32(shift)) & 0xFF)) }
        }
        png.insert(contentsOf: padding, at: png.count - 12)  // before IEND
        return Data(png)
    }

    @Test func uploadBytesSidesAndTemplateNamesAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let bea = try await SocialTests.user(server, "bea")
            let url = try await MemeTests.uploadLink(bea)
            func put(_ url: URL, _ body: Data) async throws -> (Int, String) {
                let (reply, response) = try await MemeTests.fetch(url, method: "PUT", body: body)
                return (response.statusCode, String(decoding: reply, as: UTF8.self))
            }
            let mib = MediaLimits.maxUploadBytes / 1024 / 1024
            // The HTTP body: MediaRoutes.maxBodyBytes is read whole (then judged as a file); one byte more is not.
            var (status, text) = try await put(url, Data(count: MediaRoutes.maxBodyBytes + 1))
            #expect(status == 413 && text.contains("Not stored: the file is over \(mib) MiB."), "\(text)")
            (status, text) = try await put(url, Data(count: MediaRoutes.maxBodyBytes))
            #expect(
                status == 413
                    && text.contains("the file is \(MediaRoutes.maxBodyBytes / 1024) KiB; the limit is \(mib) MiB"),
                "\(text)")
            // The file: maxUploadBytes is stored, one byte more is refused (the link stays usable).
            let over = Self.paddedPNG(to: MediaLimits.maxUploadBytes + 1)
            #expect(over.count == MediaLimits.maxUploadBytes + 1)
            (status, text) = try await put(url, over)
            #expect(
                status == 413 && text.contains("the file is \((MediaLimits.maxUploadBytes + 1) / 1024) KiB"), "\(text)")
            #expect(MemeTests.mediaFiles(server).isEmpty)
            (status, text) = try await put(url, Self.paddedPNG(to: MediaLimits.maxUploadBytes))
            #expect(status == 201, "\(text)")
            try await bea.expect("Your picture ")

            // Sides: maxSide pixels is stored, one more is refused before decoding.
            let sides = try await MemeTests.uploadLink(bea)
            for (w, h) in [(MediaLimits.maxSide + 1, 1), (1, MediaLimits.maxSide + 1)] {
                (status, text) = try await put(sides, Data(GDImage(width: w, height: h).png()))
                #expect(status == 422 && text.contains("the image is \(w)×\(h) pixels"), "\(text)")
            }
            (status, text) = try await put(sides, Data(GDImage(width: MediaLimits.maxSide, height: 1).png()))
            #expect(status == 201, "\(text)")
            let short = String(text.split(separator: " ")[2])
            try await bea.expect("Your picture \(short)")

            // Template names.
            let name = String(repeating: "t", count: TemplateNames.maxLength)
            try await bea.send("!template add \(name)x \(short)")
            try await bea.expect("a template name has 2 to \(TemplateNames.maxLength) letters, digits or dashes")
            try await bea.send("!template add \(name) \(short)")
            try await bea.expect("Template \(name) is ready")
        }
    }

    // MARK: Bot: drafts, posts, comments, searches, accounts

    @Test func recipeDraftLimitsAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let ama = try await SocialTests.user(server, "ama")
            try await ama.send("!recipe new")
            try await ama.expect("What is the recipe called?")
            let title = "R" + String(repeating: "r", count: RecipeCommands.maxTitle - 1)
            try await ama.send(title + "r")
            try await ama.expect("a title may have \(RecipeCommands.maxTitle) characters")
            try await ama.send(title)
            try await ama.expect("Ingredients, one per line")

            let longLine = "I" + String(repeating: "i", count: RecipeCommands.maxLine - 1)
            try await ama.send(longLine + "i")
            try await ama.expect(
                "that line has \(RecipeCommands.maxLine + 1) characters; the limit is \(RecipeCommands.maxLine)")
            try await ama.send(longLine)
            for i in 2...RecipeCommands.maxIngredients { try await ama.send("ingredient \(i)") }
            try await ama.send("one ingredient too many")
            try await ama.expect("a recipe may have \(RecipeCommands.maxIngredients) ingredients; end them with .")
            try await ama.send(".")
            try await ama.expect("Steps, one per line")
            for i in 1...RecipeCommands.maxSteps { try await ama.send("step \(i)") }
            try await ama.send("one step too many")
            try await ama.expect("a recipe may have \(RecipeCommands.maxSteps) steps; end them with .")
            try await ama.send(".")
            try await ama.expect("A photo?")
            try await ama.send("-")
            try await ama.expect("Cuisine and diet tags")

            let words = (0..<RecipeCommands.maxTags).map { "tag" + String(Character(UnicodeScalar(UInt8(97 + $0)))) }
            let longTag = String(repeating: "z", count: RecipeCommands.maxTag)
            try await ama.send((words + ["extra"]).joined(separator: " "))
            try await ama.expect("tags are up to \(RecipeCommands.maxTags) words")
            try await ama.send((words.dropLast() + [longTag + "z"]).joined(separator: " "))
            try await ama.expect("tags are up to \(RecipeCommands.maxTags) words")
            try await ama.send((words.dropLast() + [longTag]).joined(separator: " "))
            try await ama.expect(
                "“\(title)” is ready (\(RecipeCommands.maxIngredients) ingredients, \(RecipeCommands.maxSteps) steps)")
            try await ama.send("!recipe post")
            try await ama.expect("Recipe #1 “\(title)” is posted")
            let shown = try await Self.replies(ama, "!recipe 1")
            #expect(shown.contains { $0.contains(longTag) && $0.contains("#1 \(title)") })
            #expect(Self.count(shown, containing: "• ") == RecipeCommands.maxIngredients)
            #expect(shown.contains { $0.hasSuffix("\(RecipeCommands.maxSteps). step \(RecipeCommands.maxSteps)") })
            #expect(!shown.contains { $0.contains("too many") })
        }
    }

    /// Comment length, and the comments page.
    @Test func commentsAtTheirLengthAndPageLimits() async throws {
        try await withServer { server in
            let cook = try await SocialTests.user(server, "cook")
            let id = try await RecipeTests.post(cook, title: "Soup", ingredients: ["water"], steps: ["Heat."])
            let text = "C" + String(repeating: "c", count: CommentCommands.maxCommentLength - 1)
            try await cook.send("!comment recipe \(id) \(text)c")
            try await cook.expect(
                "a comment may have \(CommentCommands.maxCommentLength) characters; yours has \(CommentCommands.maxCommentLength + 1)"
            )
            try await cook.send("!comment recipe \(id) \(text)")
            try await cook.expect("Comment #1 added to recipe #\(id).")

            let store = server.server.store
            let me = try await Self.accountID(server, "cook")
            for i in 2...Store.commentPageSize {
                _ = try await store.addComment(kind: "recipe", targetID: Int64(id), accountID: me, text: "note-\(i)")
            }
            try await Self.crossPageSize(
                cook, "!comments recipe \(id)", next: "!comments recipe \(id) 2", item: "cook: ",
                size: Store.commentPageSize, last: "note-last"
            ) { _ = try await store.addComment(kind: "recipe", targetID: Int64(id), accountID: me, text: "note-last") }
        }
    }

    /// Family name, open invites, post length and the family feed's page.
    @Test func familyLimitsAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let fay = try await SocialTests.user(server, "fay")
            let name = "F" + String(repeating: "f", count: FamilyCommands.maxName - 1)
            try await fay.send("!tree new \(name)f")
            try await fay.expect("a family name has 2 to \(FamilyCommands.maxName) characters")
            try await fay.send("!tree new \(name)")
            try await fay.expect("You founded \(name).")
            try await fay.expect("Invite code for \(name): ")  // the first open invite
            for _ in 2...FamilyCommands.maxOpenInvites {
                try await fay.send("!tree invite")
                try await fay.expect("Invite code for \(name): ")
            }
            try await fay.send("!tree invite")
            try await fay.expect("\(name) has \(FamilyCommands.maxOpenInvites) open invites; !tree revoke some first")

            let post = "P" + String(repeating: "p", count: FamilyFeedCommands.maxPost - 1)
            try await fay.send("!post \(post)p")
            try await fay.expect("a post may have \(FamilyFeedCommands.maxPost) characters")
            try await fay.send("!post \(post)")
            try await fay.expect("Posted #1 to \(name)'s feed.")

            let store = server.server.store
            let me = try await Self.accountID(server, "fay")
            let family = try #require(try await store.families(of: me).first?.id)
            func add(_ text: String) async throws {
                _ = try await store.addFamilyPost(
                    FamilyPost(
                        familyId: family, accountId: me, kind: "text", text: text, imageId: nil, eventDate: nil,
                        createdAt: Date()))
            }
            for i in 2...Store.familyPostPageSize { try await add("news-\(i)") }
            try await Self.crossPageSize(
                fay, "!famfeed", next: "!famfeed 2", item: " fay: ", size: Store.familyPostPageSize, last: "#1 fay: Ppp"
            ) { try await add("news-last") }
        }
    }

    @Test func recipeSearchTermsAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let kim = try await SocialTests.user(server, "kim")
            let words = (0..<RecipeSearchQuery.maxTerms).map {
                "word" + String(Character(UnicodeScalar(UInt8(97 + $0))))
            }
            try await kim.send("!search " + words.joined(separator: " "))
            try await kim.expect("No recipe matches")
            try await kim.send("!search " + words.joined(separator: " ") + " wordextra")
            try await kim.expect("that is more than \(RecipeSearchQuery.maxTerms) words; search with fewer")
        }
    }

    @Test func registrationFieldsAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            let domain = "@example.org"
            let email = String(repeating: "e", count: AccountService.maxEmailLength - domain.count) + domain
            let phone = String(repeating: "5", count: AccountService.maxPhoneLength)
            let password = String(repeating: "p", count: PasswordHash.minPasswordLength)
            try await nc.send("!register emma \(password) e\(email)")
            try await nc.expect("\"e\(email)\" doesn't look like an email address")
            try await nc.send("!register emma \(password) \(phone)5")
            try await nc.expect("\"\(phone)5\" is neither an email address nor a phone number")
            try await nc.send("!register emma \(password.dropLast())")
            try await nc.expect("passwords need at least \(PasswordHash.minPasswordLength) characters")
            #expect(try await server.server.store.account(nameKey: "emma") == nil)
            try await nc.send("!register emma \(password) \(email) \(phone)")
            try await nc.expect("Welcome to Hearth, emma!")
            let account = try #require(try await server.server.store.account(nameKey: "emma"))
            #expect(account.email == email && account.phone == phone)
        }
    }

    /// Runs the `hearth` executable to its end.
    static func hearth(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let finished = try await Programs.run([AccountTests.hearthBinary()] + arguments)
        return (finished.status, finished.output)
    }

    /// maxPasswordBytes can't be reached through a chat line (the line limit comes first), so
    /// the account is made with `hearth user add`, and its owner logs in over SASL.
    @Test func passwordBytesAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let password = String(repeating: "p", count: PasswordHash.maxPasswordBytes)
            let over = try await Self.hearth(["user", "add", "pat", password + "p", "--data-dir", server.dataDirectory])
            #expect(
                over.status != 0
                    && over.output.contains("passwords can be at most \(PasswordHash.maxPasswordBytes) bytes"),
                "\(over.output)")
            #expect(try await server.server.store.account(nameKey: "pat") == nil)
            let made = try await Self.hearth(["user", "add", "pat", password, "--data-dir", server.dataDirectory])
            #expect(made.status == 0 && made.output.contains("created account pat"), "\(made.output)")
            let c = try await Self.saslClient(server, "pat")
            try await Self.authenticate(c, IRCProtocolTests.plainAuth("pat", password))
            try await c.expectNumeric("903")
        }
    }

    // MARK: Bot: pages

    /// recipePageSize, the highest page number, feedPageSize and the hot list's candidates.
    @Test func recipeListsFeedAndHotCandidatesAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let cook = try await SocialTests.user(server, "cook")
            let reader = try await SocialTests.user(server, "reader")
            let store = server.server.store
            let cookID = try await Self.accountID(server, "cook")
            _ = try await store.follow(try await Self.accountID(server, "reader"), cookID)
            var made = 0
            func addRecipes(upTo total: Int) async throws {
                while made < total {
                    made += 1
                    _ = try await store.addRecipe(
                        RecipeRecord(
                            accountId: cookID, title: "R\(made)", ingredients: "x", steps: "y", photoImageId: nil,
                            tags: ""),
                        fromDraft: false, feedText: "posted recipe #ID “R\(made)”")
                }
            }
            try await addRecipes(upTo: Store.recipePageSize)
            try await Self.crossPageSize(
                reader, "!recipes new", next: "!recipes new 2", item: "  by cook  ", size: Store.recipePageSize,
                last: "#1  R1  "
            ) { try await addRecipes(upTo: Store.recipePageSize + 1) }
            var page: [String] = []

            try await reader.send("!recipes new \(Paging.maxPage)")
            try await reader.expect("There is no page \(Paging.maxPage).")
            try await reader.send("!recipes new \(Paging.maxPage + 1)")
            try await reader.expect("\(Paging.maxPage + 1) is not a page number")

            // The feed: a full page, then the rest after its marker.
            try await addRecipes(upTo: Store.feedPageSize)
            page = try await Self.replies(reader, "!feed")
            #expect(Self.count(page, containing: "cook posted recipe") == Store.feedPageSize)
            #expect(Self.count(page, containing: "more: !feed >") == 0)  // exactly a page: nothing older
            try await addRecipes(upTo: Store.feedPageSize + 1)
            page = try await Self.replies(reader, "!feed")
            #expect(Self.count(page, containing: "cook posted recipe") == Store.feedPageSize)
            let marker = try #require(page.first { $0.contains("more: !feed >") })
            let next = String(try #require(marker.split(separator: " ").last { $0.hasPrefix(">") }))
            page = try await Self.replies(reader, "!feed \(next)")
            #expect(
                Self.count(page, containing: "cook posted recipe") == 1 && Self.count(page, containing: "“R1”") == 1)

            // Hot and for-you lists rank the newest hotCandidates recipes; older ones are left out.
            let pages = (Store.hotCandidates + Store.recipePageSize - 1) / Store.recipePageSize
            try await addRecipes(upTo: Store.hotCandidates)
            page = try await Self.replies(cook, "!recipes hot")
            #expect(Self.count(page, containing: "page 1 of \(pages) ") == 1, "\(page.suffix(2))")
            try await addRecipes(upTo: Store.hotCandidates + 1)
            page = try await Self.replies(cook, "!recipes hot")
            #expect(Self.count(page, containing: "page 1 of \(pages) ") == 1, "\(page.suffix(2))")
            page = try await Self.replies(cook, "!recipes new")
            #expect(Self.count(page, containing: "page 1 of \(pages + 1) ") == 1, "\(page.suffix(2))")
        }
    }

    /// imagePageSize, memePageSize, GridLayout.maxTiles, and the hot memes' candidates.
    @Test func pictureAndMemeListsAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let mia = try await SocialTests.user(server, "mia")
            let store = server.server.store
            let me = try await Self.accountID(server, "mia")
            var uploads = 0
            func addUploads(upTo total: Int) async throws {
                while uploads < total {
                    uploads += 1
                    try await store.addImage(
                        ImageRecord(
                            id: MediaLibrary.newID(), ownerId: me, kind: "upload", format: "png", width: 8,
                            height: uploads, bytes: 100))
                }
            }
            try await addUploads(upTo: Store.imagePageSize)
            try await Self.crossPageSize(mia, "!images", next: "!images 2", item: " png  ", size: Store.imagePageSize) {
                try await addUploads(upTo: Store.imagePageSize + 1)
            }
            var page: [String] = []

            var memes = 0
            func addMemes(upTo total: Int) async throws {
                let first = memes + 1
                guard first <= total else { return }
                memes = total
                try await store.pool.write { db in
                    for n in first...total {
                        let image = ImageRecord(
                            id: MediaLibrary.newID(), ownerId: nil, kind: "meme", format: "jpeg", width: 8, height: 8,
                            bytes: 100)
                        try image.insert(db)
                        var meme = MemeRecord(accountId: me, imageId: image.id, source: "sunset", caption: "cap-\(n)")
                        try meme.insert(db)
                    }
                }
            }
            try await addMemes(upTo: Store.memePageSize)
            try await Self.crossPageSize(
                mia, "!memes", next: "!memes mia 2", item: "“cap-", size: Store.memePageSize, last: "“cap-1”"
            ) {
                try await addMemes(upTo: Store.memePageSize + 1)
            }

            try await addMemes(upTo: GridLayout.maxTiles)
            try await mia.send("!memes grid")
            try await mia.expect("mia's memes (\(GridLayout.maxTiles) of \(GridLayout.maxTiles)): http")
            try await addMemes(upTo: GridLayout.maxTiles + 1)
            try await mia.send("!memes grid")
            try await mia.expect("mia's memes (\(GridLayout.maxTiles) of \(GridLayout.maxTiles + 1)): http")

            let pages = (Store.hotCandidates + Store.memePageSize - 1) / Store.memePageSize
            try await addMemes(upTo: Store.hotCandidates)
            page = try await Self.replies(mia, "!hot")
            #expect(Self.count(page, containing: "page 1 of \(pages) ") == 1, "\(page.suffix(2))")
            try await addMemes(upTo: Store.hotCandidates + 1)
            page = try await Self.replies(mia, "!hot")
            #expect(Self.count(page, containing: "page 1 of \(pages) ") == 1, "\(page.suffix(2))")
        }
    }

    /// Place names (cut to maxPlaceLength), fortunePageSize, and leaderboardSize.
    @Test func fortunePlacesPagesAndLeaderboardAtTheirLimitsAndOnePast() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await FortuneTests.start(clock)) { server in
            let sol = try await SocialTests.user(server, "sol")
            let place = String(repeating: "p", count: FortuneCommands.maxPlaceLength)
            try await sol.send("!fortune @48.85,2.35 \(place)")
            #expect(try await sol.expect("opened in \(place)").contains("opened in \(place)"))
            clock.set("2026-07-02T09:00:00Z")
            try await sol.send("!fortune @48.85,2.35 \(place)q")
            let cut = try await sol.expect("opened in \(place)")
            #expect(!cut.contains(place + "q"), "\(cut)")

            let store = server.server.store
            let me = try await Self.accountID(server, "sol")
            var day = 2
            func addFortunes(upTo total: Int) async throws {
                while day < total {
                    day += 1
                    _ = try await store.openFortune(
                        FortuneRecord(
                            accountId: me, day: String(format: "2026-06-%02d", day), sayingKey: "k\(day)", round: 1,
                            text: "saying \(day)",
                            numbers: "1 2 3 4 5 6", lat: nil, lon: nil, place: nil, points: 1, openedAt: Date()))
                }
            }
            try await addFortunes(upTo: Store.fortunePageSize)
            try await Self.crossPageSize(
                sol, "!fortunes", next: "!fortunes sol 2", item: "  “", size: Store.fortunePageSize
            ) {
                try await addFortunes(upTo: Store.fortunePageSize + 1)
            }
            var page: [String] = []

            // The leaderboard shows leaderboardSize people; the next one down is left off.
            let hash = try #require(PasswordHash.hash("s3cret-pass", cost: TestServer.fastCost))
            for rank in 1...(FortuneCommands.leaderboardSize + 1) {
                let name = String(format: "lb%02d", rank)
                let account = try await store.createAccount(
                    name: name, nameKey: name, passwordHash: hash, email: nil, phone: nil, recoveryHashes: [])
                _ = try await store.addPoints(
                    accountID: account.id!, kind: "test", day: "2026-07-02", points: 10_000 - rank)
                page = try await Self.replies(sol, "!top points")
                #expect(Self.count(page, containing: ". lb") == min(rank, FortuneCommands.leaderboardSize), "\(page)")
            }
            #expect(Self.count(page, containing: String(format: ". lb%02d", FortuneCommands.leaderboardSize + 1)) == 0)
        }
    }

    // MARK: Edamam

    /// An answer with `count` hits, each a "Dish N".
    static func edamamHits(_ count: Int) -> String {
        let hits = (1...count).map {
            #"{"recipe":{"label":"Dish \#($0)","source":"Test","url":"https://example.org/\#($0)","ingredientLines":["x"]}}"#
        }
        return #"{"hits":["# + hits.joined(separator: ",") + "]}"
    }

    /// An Edamam answer of maxResponseBytes is read, one byte more is not; resultsShown
    /// results are shown, a further one is left out.
    @Test func edamamAnswersAtTheirByteAndResultLimitsAndOnePast() async throws {
        let (edamamPort, _, group) = try await EdamamTests.fakeEdamam { request in
            switch request.uri.queryParameters["q"] {
            case "exact", "over":
                let size = EdamamClient.maxResponseBytes + (request.uri.queryParameters["q"] == "over" ? 1 : 0)
                return EdamamTests.body + String(repeating: " ", count: size - EdamamTests.body.utf8.count)
            case "many": return Self.edamamHits(EdamamClient.resultsShown + 1)
            default: return Self.edamamHits(EdamamClient.resultsShown)
            }
        }
        defer { Task { await group.triggerGracefulShutdown() } }
        try await withServer {
            $0.apps.edamam = EdamamConfig(
                appID: "test-id", appKey: "test-key", baseURL: "http://127.0.0.1:\(edamamPort)")
        } run: { server in
            let uma = try await SocialTests.user(server, "uma")
            try await uma.send("!edamam exact")
            try await uma.expect("1. Chicken Curry — Serious Eats")
            try await uma.send("!edamam over")
            try await uma.expect("edamam: something went wrong on our side; nothing was changed.")
            var shown = try await Self.replies(uma, "!edamam few")
            #expect(Self.count(shown, containing: ". Dish ") == EdamamClient.resultsShown)
            shown = try await Self.replies(uma, "!edamam many")
            #expect(Self.count(shown, containing: ". Dish ") == EdamamClient.resultsShown)
            #expect(Self.count(shown, containing: "Dish \(EdamamClient.resultsShown + 1) ") == 0)
        }
    }
}
