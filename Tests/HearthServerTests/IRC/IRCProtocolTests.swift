import Foundation
import HearthCrypto
import HearthProtocol
import HearthStore
import HearthTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Registration, SASL, nick ownership and the details real clients rely on.
@Suite struct IRCProtocolTests {
    static func plainAuth(_ name: String, _ secret: String) -> String {
        Data(("\0" + name + "\0" + secret).utf8).base64EncodedString()
    }

    @Test func welcomeBurstIsConformant() async throws {
        try await withServer { server in
            let c = try await server.connect()
            // PING before registration is answered.
            try await c.send("PING early")
            try await c.expect(":test.hearth PONG test.hearth :early")
            try await c.send("CAP LS 302")
            try await c.expect("sasl=PLAIN")
            try await c.send("NICK judy")
            try await c.send("USER judy 0 * :Judy")
            try await c.send("CAP END")
            try await c.expect(
                ":test.hearth 001 judy :Welcome to the Hearth IRC network, judy!~judy@\(server.localHost)")
            try await c.expectNumeric("002")
            try await c.expectNumeric("003")
            let myInfo = try await c.expectNumeric("004")
            #expect(myInfo == ":test.hearth 004 judy test.hearth hearth-0.9.0 Biow CMRbeIiklmnostv :beIklov")
            var tokens: [String] = []
            while true {
                let line = try await c.expect("005 or 251") { $0.contains(" 005 ") || $0.contains(" 251 ") }
                if line.contains(" 251 ") { break }
                #expect(line.hasSuffix(":are supported by this server"))
                let words = line.split(separator: " ").dropFirst(3).prefix { !$0.hasPrefix(":") }
                #expect(words.count <= 13)
                tokens += words.map(String.init)
            }
            for required in [
                "CASEMAPPING=ascii", "CHANMODES=beI,k,l,CMRimnst", "EXCEPTS", "INVEX", "EXTBAN=,am", "WHOX",
                "PREFIX=(ov)@+", "CHANTYPES=#", "NICKLEN=30",
                "CHANNELLEN=50", "TOPICLEN=390", "UTF8ONLY",
            ] {
                #expect(tokens.contains(required), "missing \(required)")
            }
            #expect(tokens.contains { $0.hasPrefix("TARGMAX=") })
            for lusers in ["252", "253", "254", "255"] { try await c.expectNumeric(lusers) }
            try await c.expectNumeric("375")
            try await c.expectNumeric("376")
        }
    }

    @Test func quitBeforeRegistrationGetsError() async throws {
        try await withServer { server in
            let c = try await server.connect()
            try await c.send("NICK early")
            try await c.send("QUIT :bye")
            try await c.expect("ERROR :Closing Link")
        }
    }

    @Test func aNickChangedOnlyInCaseIsRenamed() async throws {
        try await withServer { server in
            let c = try await TestClient.irc(server, nick: "casey")
            try await c.send("NICK Casey")
            try await c.expect(":casey!")
            try await c.send("WHOIS casey")
            try await c.expect(" Casey ")
        }
    }

    @Test func commandsBeforeRegistrationAreRefused() async throws {
        try await withServer { server in
            let c = try await server.connect()
            try await c.send("NICK early")
            try await c.send("JOIN #x")
            try await c.expectNumeric("451")
        }
    }

    @Test func saslPlainWithPasswordAndToken() async throws {
        try await withServer { server in
            // A long UTF-8 password (over 600 bytes) goes through SASL in 400-byte chunks.
            let longPassword = String(repeating: "pässwörd-", count: 60)
            #expect(longPassword.utf8.count > 600)
            // Too long for one IRC line, so the account is made the way `hearth user add` does.
            let hash = try #require(PasswordHash.hash(longPassword, cost: TestServer.fastCost))
            let account = try await server.server.store.createAccount(
                name: "kim", nameKey: "kim", passwordHash: hash, email: nil, phone: nil, recoveryHashes: [])
            let token = SecretCodes.resumeToken()
            try await server.server.store.addResumeToken(
                accountID: account.id, tokenHash: Sodium.hashSecret(token), expiresAt: Date().addingTimeInterval(60))

            let c = try await server.connect()
            try await c.send("CAP LS 302")
            try await c.send("NICK kim")
            try await c.send("USER kim 0 * :Kim")
            try await c.send("CAP REQ :sasl")
            try await c.expect("CAP * ACK :sasl")
            try await c.send("AUTHENTICATE PLAIN")
            try await c.expect("AUTHENTICATE +")
            let payload = Self.plainAuth("kim", longPassword)
            var chunks = stride(from: 0, to: payload.count, by: 400).map { start -> String in
                let s = payload.index(payload.startIndex, offsetBy: start)
                return String(payload[s..<payload.index(s, offsetBy: min(400, payload.count - start))])
            }
            if chunks.last?.count == 400 { chunks.append("+") }
            for chunk in chunks { try await c.send("AUTHENTICATE \(chunk)") }
            try await c.expect(" 900 kim kim!~kim@\(server.localHost) kim :You are now logged in as kim")
            try await c.expectNumeric("903")
            try await c.send("AUTHENTICATE PLAIN")
            try await c.expectNumeric("907")
            try await c.send("CAP END")
            try await c.expectNumeric("001")

            // The resume token works as the SASL password too.
            let t = try await server.connect()
            try await t.send("CAP REQ :sasl")
            try await t.send("NICK kim_")
            try await t.send("USER kim 0 * :Kim")
            try await t.send("AUTHENTICATE PLAIN")
            try await t.expect("AUTHENTICATE +")
            try await t.send("AUTHENTICATE \(Self.plainAuth("kim", token))")
            try await t.expectNumeric("903")

            // Failures: wrong password 904, unknown mechanism 908+904, abort 906.
            let f = try await server.connect()
            try await f.send("CAP REQ :sasl")
            try await f.send("NICK nobody")
            try await f.send("USER x 0 * :X")
            try await f.send("AUTHENTICATE GSSAPI")
            try await f.expect(" 908 nobody PLAIN,SCRAM-SHA-256,EXTERNAL :are available SASL mechanisms")
            try await f.expectNumeric("904")
            try await f.send("AUTHENTICATE PLAIN")
            try await f.send("AUTHENTICATE \(Self.plainAuth("kim", "wrong"))")
            try await f.expectNumeric("904")
            try await f.send("AUTHENTICATE PLAIN")
            try await f.send("AUTHENTICATE *")
            try await f.expectNumeric("906")
            try await f.send("AUTHENTICATE PLAIN")
            try await f.send("AUTHENTICATE bm90IGJhc2U2NA-garbage!")
            try await f.expectNumeric("904")
            try await f.send("CAP END")
            try await f.expectNumeric("001")
        }
    }

    @Test func accountsOwnTheirNicks() async throws {
        try await withServer { server in
            try await TestClient.register(server, "lena", "s3cret-pass")

            // Without logging in, the account's nick is refused at registration.
            let squatter = try await server.connect()
            try await squatter.send("NICK lena")
            try await squatter.send("USER x 0 * :X")
            try await squatter.expect(" 433 lena lena :Nickname is reserved by a registered account")
            try await squatter.send("NICK lena_")
            try await squatter.expectNumeric("001")
            // …and after registration.
            try await squatter.send("NICK LENA")
            try await squatter.expect("Nickname is reserved by a registered account")
            // The bot's nick belongs to the bot.
            try await squatter.send("NICK hearth")
            try await squatter.expect("Nickname belongs to the Hearth bot")

            // Logging in with !login moves the connection to the account's nick.
            try await squatter.send("PRIVMSG hearth :login lena s3cret-pass")
            try await squatter.expectNumeric("900")
            try await squatter.expect(":lena_!~x@\(server.localHost) NICK lena")

            // PASS name:password logs in during registration.
            try await squatter.send("QUIT")
            try await squatter.expect("ERROR :Closing Link: 127.0.0.1 (Client Quit)")
            let p = try await server.connect()
            try await p.send("PASS lena:s3cret-pass")
            try await p.send("NICK lena")
            try await p.send("USER lena 0 * :Lena")
            try await p.expectNumeric("900")
            try await p.expectNumeric("001")
            // A nick in use by someone else is refused.
            let other = try await TestClient.irc(server, nick: "mo")
            try await other.send("NICK lena")
            try await other.expect(" 433 mo lena :")
            try await other.send("WHOIS lena")
            try await other.expect(" 330 mo lena lena :is logged in as")
        }
    }

    /// Each timeout on a server of its own, every other one long: a loaded machine stalls a test for
    /// seconds (CI), and may then only make what should time out time out later, never a client
    /// that answers (or registers) in time miss a short deadline.
    @Test func pingTimeoutAndRegistrationTimeout() async throws {
        try await withServer {
            $0.pingInterval = 0.3
            $0.pingTimeout = 2
            $0.registrationTimeout = 60
        } run: { server in
            let idle = try await TestClient.irc(server, nick: "sleepy")
            try await idle.expect("PING :test.hearth")
            try await idle.expect("ERROR :Closing Link: 127.0.0.1 (Ping timeout")
        }
        // A PONG clears the PING: the next comes one interval later (none while one is unanswered).
        try await withServer {
            $0.pingInterval = 0.3
            $0.pingTimeout = 60
            $0.registrationTimeout = 60
        } run: { server in
            let awake = try await TestClient.irc(server, nick: "awake")
            try await awake.expect("PING :test.hearth")
            try await awake.send("PONG :test.hearth")
            try await awake.expect("PING :test.hearth")
        }
        try await withServer {
            $0.registrationTimeout = 1
        } run: { server in
            let silent = try await server.connect()
            try await silent.send("NICK halfway")
            try await silent.expect("ERROR :Closing Link: 127.0.0.1 (Registration timed out)")
        }
    }

    @Test func operatorsFromConfiguration() async throws {
        try await withServer {
            $0.operators = ["root": "t0p-secret"]
        } run: { server in
            let c = try await TestClient.irc(server, nick: "admin")
            try await c.send("OPER root wrong")
            try await c.expectNumeric("464")
            try await c.send("OPER nobody t0p-secret")
            try await c.expectNumeric("491")
            try await c.send("OPER root t0p-secret")
            try await c.expectNumeric("381")
            let victim = try await TestClient.irc(server, nick: "victim")
            try await c.send("KILL victim :testing")
            try await victim.expect("ERROR :Closing Link")
        }
    }

    @Test func whoisWhoListIsonUserhostAway() async throws {
        try await withServer { server in
            let a = try await TestClient.irc(server, nick: "nina")
            let b = try await TestClient.irc(server, nick: "omar")
            try await a.send("JOIN #books")
            try await a.send("TOPIC #books :Reading club")
            try await a.expect("TOPIC #books :Reading club")
            try await b.send("JOIN #books")
            try await b.expectNumeric("366")
            try await b.send("AWAY :lunch")
            try await b.expectNumeric("306")
            try await a.send("PRIVMSG omar :are you there?")
            try await a.expect(" 301 nina omar :lunch")
            try await a.send("WHOIS omar")
            try await a.expect(" 311 nina omar ~omar \(server.localHost) * :Test omar")
            try await a.expect(" 319 nina omar :#books")
            try await a.expectNumeric("312")
            try await a.expectNumeric("317")
            try await a.expectNumeric("318")
            try await a.send("WHO #books")
            try await a.expect(" 352 nina #books ~nina \(server.localHost) test.hearth nina H@ :0 Test nina")
            try await a.expect(" 352 nina #books ~omar \(server.localHost) test.hearth omar G :0 Test omar")
            try await a.expectNumeric("315")
            try await a.send("LIST")
            try await a.expect(" 322 nina #books 2 :Reading club")
            try await a.expectNumeric("323")
            try await a.send("ISON omar nobody hearth")
            try await a.expect(" 303 nina :omar hearth")
            try await a.send("USERHOST omar")
            try await a.expect(" 302 nina :omar=-~omar@\(server.localHost)")
            try await b.send("AWAY")
            try await b.expectNumeric("305")
            try await a.send("WHOIS hearth")
            try await a.expect(" 311 nina hearth hearth test.hearth * :Hearth bot")
            try await a.send("WHOIS ghost")
            try await a.expectNumeric("401")
        }
    }

    @Test func healthEndpointAnswers() async throws {
        try await withServer { server in
            let (data, response) = try await URLSession.shared.data(
                from: URL(string: "http://127.0.0.1:\(server.httpPort)/health")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains(#""status":"ok""#))
        }
    }
}

/// Fixes from review: each guards a way to lose a secret, a nick or a registration.
@Suite struct HardeningTests {
    @Test func nickServIsReservedAndUnderstood() async throws {
        try await withServer { server in
            try await TestClient.register(server, "vera", "s3cret-pass")
            let c = try await TestClient.irc(server, nick: "vera_")
            try await c.send("NICK NickServ")
            try await c.expect(" 433 vera_ NickServ :Nickname is reserved for services")
            try await c.send("PRIVMSG NickServ :IDENTIFY vera s3cret-pass")
            try await c.expectNumeric("900")
            try await c.expect("You are logged in as vera.")
        }
    }

    @Test func capEndDuringSaslAbortsAndRegisters() async throws {
        try await withServer { server in
            let c = try await server.connect()
            try await c.send("CAP REQ :sasl")
            try await c.send("NICK wes")
            try await c.send("USER wes 0 * :Wes")
            try await c.send("AUTHENTICATE PLAIN")
            try await c.expect("AUTHENTICATE +")
            try await c.send("CAP END")
            try await c.expectNumeric("906")
            try await c.expectNumeric("001")
        }
    }

    @Test func mistypedSecretCommandsStayOutOfChannels() async throws {
        try await withServer { server in
            let a = try await TestClient.irc(server, nick: "xena")
            let b = try await TestClient.irc(server, nick: "yuri")
            try await a.send("JOIN #c")
            try await b.send("JOIN #c")
            try await b.expectNumeric("366")
            try await a.send("PRIVMSG #c :!logn xena hunter22")
            try await a.expect("only ever goes to me privately")
            try await a.send("PRIVMSG #c : !login xena hunter22")
            try await a.expect("only ever goes to me privately")
            try await a.send("NOTICE #c :!login xena hunter22")
            try await a.send("PRIVMSG #c :visible")
            try await b.expectNoLine(containing: "hunter22", before: "PRIVMSG #c :visible")
        }
    }

    @Test func plainModeNeverReceivesControlCharacters() async throws {
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            try await nc.send("/join #c")
            try await nc.expect("You joined #c.")
            let irc = try await TestClient.irc(server, nick: "zed")
            try await irc.send("JOIN #c")
            try await irc.send("PRIVMSG #c :\u{1b}[2Jwiped? \u{3}04,01red\u{3} and \u{2}bold\u{2}")
            let line = try await nc.expect("[#c] <zed>")
            #expect(line == "[#c] <zed> [2Jwiped? red and bold")
            // A bare CR inside a line is refused, never relayed.
            try await irc.sendRaw(Array("PRIVMSG #c :hi\r:hearth!hearth@x PRIVMSG you :fake\r\n".utf8))
            try await irc.expect("carriage return")
            try await irc.send("PRIVMSG #c :after")
            try await nc.expectNoLine(containing: "fake", before: "[#c] <zed> after")
        }
    }

    @Test func passwordChangeLogsOutOtherDevicesOnly() async throws {
        try await withServer { server in
            let a = try await TestClient.plain(server)
            try await a.send("!register abby s3cret-pass")
            try await a.expect("Welcome to Hearth, abby!")
            let b = try await TestClient.plain(server)
            try await b.send("!login abby s3cret-pass")
            try await b.expect("You are logged in as abby.")
            try await a.send("!passwd s3cret-pass n3w-s3cret-pass")
            try await a.expect("Password changed.")
            try await b.expect("You were logged out from another connection.")
            try await a.send("!whoami")
            try await a.expect("logged in as abby")
        }
    }
}
