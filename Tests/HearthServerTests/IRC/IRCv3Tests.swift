import Foundation
import HearthTesting
import Testing

/// IRCv3 capabilities as modern clients use them.
@Suite struct IRCv3Tests {
    static func client(_ server: TestServer, _ nick: String, caps: String) async throws -> TestClient {
        try await TestClient.irc(server, nick: nick, extra: ["CAP LS 302", "CAP REQ :\(caps)", "CAP END"])
    }

    @Test func capabilitiesAreListedAcknowledgedAndRefused() async throws {
        try await withServer { server in
            let c = try await server.connect()
            try await c.send("CAP LS 302")
            // Several lines when one would pass 512 bytes: all but the last say `LS *`.
            var list = ""
            while true {
                let line = try await c.expect("CAP * LS")
                #expect(line.utf8.count <= 510)
                list += line + " "
                if !line.contains("CAP * LS * ") { break }
            }
            for cap in [
                "account-notify", "account-tag", "away-notify", "cap-notify", "echo-message", "extended-join",
                "invite-notify", "message-tags", "multi-prefix", "sasl=PLAIN", "server-time", "setname",
                "standard-replies", "userhost-in-names", "no-implicit-names", "draft/pre-away",
                "draft/extended-isupport",
            ] {
                #expect(list.contains(cap), "missing \(cap)")
            }
            try await c.send("CAP REQ :server-time no-such-cap")
            try await c.expect("CAP * NAK :server-time no-such-cap")
            try await c.send("CAP REQ :server-time echo-message")
            try await c.expect("CAP * ACK :server-time echo-message")
            try await c.send("CAP LIST")
            try await c.expect("CAP * LIST :cap-notify echo-message server-time")
            try await c.send("NICK capper")
            try await c.send("USER c 0 * :C")
            try await c.send("CAP END")
            let isupport = try await c.expect("BOT=B") { $0.contains(" 005 ") && $0.contains("BOT=B") }
            #expect(isupport.contains("BOT=B"))
        }
    }

    @Test func tagsFollowEachRecipientsCaps() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let full = try await TestClient.irc(
                server, nick: "ann",
                extra: [
                    "CAP LS 302", "CAP REQ :server-time message-tags account-tag echo-message", "PASS ann:s3cret-pass",
                    "CAP END",
                ])
            let timeOnly = try await Self.client(server, "tim", caps: "server-time")
            let none = try await TestClient.irc(server, nick: "old")
            for c in [full, timeOnly, none] { try await c.send("JOIN #tags") }
            try await none.expectNumeric("366")
            try await full.expectNumeric("366")
            try await timeOnly.expectNumeric("366")
            try await full.send("@+typing=done PRIVMSG #tags :tagged hello")
            // Echo to the sender, with every tag it asked for.
            let echo = try await full.expect("PRIVMSG #tags :tagged hello")
            #expect(echo.hasPrefix("@"))
            #expect(echo.contains("time="))
            #expect(echo.contains("msgid="))
            #expect(echo.contains("account=ann"))
            #expect(echo.contains("+typing=done"))
            let timed = try await timeOnly.expect("PRIVMSG #tags :tagged hello")
            #expect(timed.hasPrefix("@time=20"))
            #expect(!timed.contains("msgid") && !timed.contains("account") && !timed.contains("typing"))
            let bare = try await none.expect("PRIVMSG #tags :tagged hello")
            #expect(bare.hasPrefix(":ann!"))

            // TAGMSG reaches only clients that speak message-tags.
            let typing = try await Self.client(server, "typ", caps: "message-tags")
            try await typing.send("JOIN #tags")
            try await typing.expectNumeric("366")
            try await full.send("@+typing=active TAGMSG #tags")
            let tagmsg = try await typing.expect("TAGMSG #tags")
            #expect(tagmsg.contains("+typing=active"))
            try await none.send("PING after-tagmsg")
            try await none.expectNoLine(containing: "TAGMSG", before: "after-tagmsg")
        }
    }

    @Test func notifyCapabilitiesExtendedJoinAndNames() async throws {
        try await withServer { server in
            try await TestClient.register(server, "bea", "s3cret-pass")
            let watcher = try await Self.client(
                server, "wat",
                caps: "away-notify account-notify extended-join userhost-in-names invite-notify setname multi-prefix")
            try await watcher.send("JOIN #n")
            try await watcher.expectNumeric("366")
            let other = try await TestClient.irc(server, nick: "bea_")
            try await other.send("JOIN #n")
            try await watcher.expect(":bea_!~bea_@\(server.localHost) JOIN #n * :Test bea_")
            try await other.send("AWAY :lunch")
            try await watcher.expect("AWAY :lunch")
            try await other.send("AWAY")
            try await watcher.expect(":bea_!~bea_@\(server.localHost) AWAY") { $0.hasSuffix("AWAY") }
            try await other.send("PRIVMSG hearth :login bea s3cret-pass")
            try await watcher.expect("ACCOUNT bea")
            try await other.send("SETNAME :Beatrice B.")
            try await watcher.expect("SETNAME :Beatrice B.")
            try await watcher.send("NAMES #n")
            try await watcher.expect(" 353 wat = #n :@wat!~wat@\(server.localHost) bea!~bea_@\(server.localHost)")
            try await watcher.send("MODE #n +v bea")
            try await watcher.send("MODE #n +o bea")
            try await watcher.send("NAMES #n")
            try await watcher.expect("@+bea!~bea_@\(server.localHost)")
            let guest = try await TestClient.irc(server, nick: "gil")
            try await other.send("INVITE gil #n")
            try await watcher.expect("INVITE gil :#n")
            try await guest.expect("INVITE gil :#n")
            try await other.send("SETNAME :" + String(repeating: "r", count: 101))
            try await other.expect("FAIL SETNAME INVALID_REALNAME")
        }
    }

    @Test func botAccountsAreMarked() async throws {
        try await withServer { server in
            let robot = try await TestClient.irc(server, nick: "robo")
            try await robot.send("PRIVMSG hearth :register robo s3cret-pass")
            try await robot.expect("Welcome to Hearth, robo!")
            try await robot.send("PRIVMSG hearth :set bot on")
            try await robot.expect(":robo!~robo@\(server.localHost) MODE robo :+B")
            let human = try await Self.client(server, "hum", caps: "message-tags")
            try await human.send("WHOIS robo")
            try await human.expect(" 335 hum robo :is a bot on Hearth")
            try await robot.send("JOIN #bots")
            try await robot.expectNumeric("366")
            try await human.send("JOIN #bots")
            try await human.expectNumeric("366")
            try await human.send("WHO #bots")
            try await human.expect(" 352 hum #bots ~robo \(server.localHost) test.hearth robo HB@")
            try await robot.send("PRIVMSG #bots :beep")
            let tagged = try await human.expect("PRIVMSG #bots :beep")
            #expect(tagged.contains(";bot") || tagged.contains("@bot"))
            // A new login of the account is marked again.
            let again = try await server.connect()
            try await again.send("PASS robo:s3cret-pass")
            try await again.send("NICK robo2")
            try await again.send("USER r 0 * :R")
            try await again.expectNumeric("001")
            try await again.send("MODE robo2")
            try await again.expect(" 221 robo2 :+B")
            try await robot.send("PRIVMSG hearth :set bot off")
            try await robot.expect("MODE robo :-B")
        }
    }
}

@Suite struct MonitorTests {
    @Test func extendedMonitorTellsWatchersOfAwayAccountAndRealname() async throws {
        try await withServer { server in
            let caps = "extended-monitor away-notify account-notify setname"
            let watcher = try await IRCv3Tests.client(server, "eyes", caps: caps)
            let plainWatcher = try await IRCv3Tests.client(server, "plaineyes", caps: "away-notify")
            for client in [watcher, plainWatcher] {
                try await client.send("MONITOR + dana")
                try await client.expectNumeric("731")
            }
            let dana = try await IRCv3Tests.client(server, "dana", caps: "setname")
            try await watcher.expectNumeric("730")
            // No channel in common: only extended-monitor brings the news.
            try await dana.send("AWAY :lunch")
            try await watcher.expect(":dana!~dana@\(server.localHost) AWAY :lunch")
            try await dana.send("AWAY")
            try await watcher.expect(":dana!~dana@\(server.localHost) AWAY")
            try await dana.send("SETNAME :Dana D")
            try await watcher.expect("SETNAME :Dana D")
            try await dana.send("PRIVMSG hearth :!register dana s3cret-pass")
            try await watcher.expect(":dana!~dana@\(server.localHost) ACCOUNT dana")
            try await plainWatcher.sync()
            #expect(!plainWatcher.unread().contains { $0.contains(" AWAY") || $0.contains(" ACCOUNT ") })
        }
    }

    @Test func watchersHearWhoComesAndGoes() async throws {
        try await withServer { server in
            let watcher = try await TestClient.irc(server, nick: "eyes")
            try await watcher.send("MONITOR + Late,early,bad*nick")
            try await watcher.expect(" 731 eyes :Late,early")
            let late = try await TestClient.irc(server, nick: "late")
            try await watcher.expect(" 730 eyes :late!~late@\(server.localHost)")
            try await late.send("NICK later")
            try await watcher.expect(" 731 eyes :late")
            try await late.send("NICK early")
            try await watcher.expect(" 730 eyes :early!~late@\(server.localHost)")
            try await watcher.send("MONITOR L")
            try await watcher.expect(" 732 eyes :early,late")
            try await watcher.expectNumeric("733")
            try await watcher.send("MONITOR S")
            try await watcher.expect(" 730 eyes :early!~late@\(server.localHost)")
            try await watcher.expect(" 731 eyes :late")
            try await late.send("QUIT :bye")
            try await watcher.expect(" 731 eyes :early")
            try await watcher.send("MONITOR - early")
            try await watcher.send("MONITOR L")
            try await watcher.expect(" 732 eyes :late")
            try await watcher.expectNumeric("733")
            try await watcher.send("MONITOR C")
            try await watcher.send("MONITOR L")
            try await watcher.expectNoLine(containing: " 732 ", before: " 733 eyes :End of MONITOR list")
            // The list has a limit.
            let many = (0..<(105)).map { "n\($0)" }.joined(separator: ",")
            try await watcher.send("MONITOR + \(many)")
            try await watcher.expect(" 734 eyes 100 n100,n101,n102,n103,n104 :Monitor list is full")
            try await watcher.send("MONITOR X")
            try await watcher.expectNumeric("421")
        }
    }
}

@Suite struct StandardRepliesTests {
    @Test func botFailuresAreFailRepliesForClientsThatAskForThem() async throws {
        try await withServer { server in
            let modern = try await IRCv3Tests.client(server, "neo", caps: "standard-replies")
            try await modern.send("PRIVMSG hearth :halp")
            try await modern.expect(
                ":test.hearth FAIL HALP UNKNOWN_COMMAND :unknown command !halp — did you mean !help")
            try await modern.send("PRIVMSG hearth :rename")
            try await modern.expect("FAIL RENAME INVALID_PARAMS :missing arguments — usage: !rename NEWNAME")
            try await modern.send("PRIVMSG hearth :bio hello")
            try await modern.expect("FAIL BIO ACCOUNT_REQUIRED :bio: you need to log in first")
            try await modern.send("PRIVMSG hearth :profile nobody")
            try await modern.expect("FAIL PROFILE FAILED :profile: nobody is called nobody")
            // Successes stay ordinary messages; older clients get failures as messages too.
            try await modern.send("PRIVMSG hearth :whoami")
            try await modern.expect("PRIVMSG neo :You are neo")
            let old = try await TestClient.irc(server, nick: "trinity")
            try await old.send("PRIVMSG hearth :halp")
            try await old.expect("PRIVMSG trinity :unknown command !halp")
        }
    }
}

@Suite struct LabeledResponseTests {
    @Test func repliesCarryTheLabelOneBatchOrAck() async throws {
        try await withServer { server in
            let bot = try await IRCv3Tests.client(server, "scripty", caps: "labeled-response batch message-tags")
            // One reply: the label is on it.
            try await bot.send("@label=p1 PING tok")
            try await bot.expect("@label=p1 :test.hearth PONG test.hearth :tok")
            // Several replies: one labeled-response batch.
            try await bot.send("@label=j1 JOIN #lab")
            let open = try await bot.expect("BATCH +")
            #expect(open.hasPrefix("@label=j1 "))
            #expect(open.hasSuffix(" labeled-response"))
            let id = String(open.split(separator: " ").first { $0.hasPrefix("+") }!.dropFirst())
            try await bot.expect("@batch=\(id)") { $0.contains("batch=\(id)") && $0.contains("JOIN #lab") }
            try await bot.expect(" 353 ") { $0.contains("batch=\(id)") && $0.contains(" 353 ") }
            try await bot.expect(" 366 ") { $0.contains("batch=\(id)") && $0.contains(" 366 ") }
            try await bot.expect("BATCH -\(id)")
            // No reply: ACK.
            try await bot.send("@label=m1 PRIVMSG #lab :hello")
            try await bot.expect("@label=m1 :test.hearth ACK")
            // Bot commands answer asynchronously and still carry the label.
            try await bot.send("@label=w1 PRIVMSG hearth :whoami")
            try await bot.expect("@label=w1 :hearth!hearth@test.hearth PRIVMSG scripty :You are scripty")
            try await bot.send("@label=h1 PRIVMSG hearth :help")
            let helpBatch = try await bot.expect("BATCH +") { $0.contains("label=h1") }
            let helpID = String(helpBatch.split(separator: " ").first { $0.hasPrefix("+") }!.dropFirst())
            try await bot.expect("Hearth commands") { $0.contains("batch=\(helpID)") && $0.contains("Hearth commands") }
            try await bot.expect("BATCH -\(helpID)")
            // Without the cap nothing changes.
            let plain = try await TestClient.irc(server, nick: "oldbot")
            try await plain.send("@label=x PING tok")
            try await plain.expect(":test.hearth PONG test.hearth :tok") { $0.hasPrefix(":test.hearth PONG") }
        }
    }
}
