import Foundation
import GRDB
import HearthAccounts
import HearthCrypto
import HearthTesting
import Testing

@testable import HearthServer

/// Secrets — passwords, resume tokens, recovery codes, invite codes, upload links, SASL and
/// HTTP Basic credentials, operator passwords — never reach the logs (trace level), the
/// database, the history or anyone else's connection, and are stored only as hashes.
/// One real server; every secret is used over TCP, rightly, wrongly and by mistake.
@Suite struct SecretsTests {
    /// What the test typed or was given, by what it is; with the forms that would betray it.
    struct Secrets {
        private(set) var entries: [(what: String, needle: String)] = []

        mutating func add(_ what: String, _ value: String) {
            entries.append((what, value))
            entries.append((what + " (base64)", Data(value.utf8).base64EncodedString()))
            // Codes are typed in any case, with or without dashes; only the value counts.
            let normalized = SecretCodes.normalize(value)
            if normalized != value.uppercased() { entries.append((what + " (normalized)", normalized)) }
        }

        /// A value only in the form given (a SASL or Basic payload).
        mutating func addRaw(_ what: String, _ value: String) {
            entries.append((what, value))
        }

        /// The secrets found in `text` (compared without case).
        func found(in text: String) -> [String] {
            let haystack = text.lowercased()
            return entries.filter { haystack.contains($0.needle.lowercased()) }.map(\.what)
        }
    }

    static let zoeCaps = "batch draft/multiline echo-message message-tags server-time standard-replies"
    static let watcherCaps =
        "account-notify account-tag away-notify batch draft/chathistory draft/multiline echo-message "
        + "extended-join message-tags server-time standard-replies"

    /// How the bot hands out a resume token, to its owner only.
    static let tokenDelivery = "Your resume token (keep it secret): hrt_"

    static func allLines(_ client: TestClient) -> [String] {
        client.inbox.state.withLockedValue { $0.lines }
    }

    static func token(in line: String) throws -> String {
        let start = try #require(line.range(of: "hrt_"))
        return String(line[start.lowerBound...].prefix(44))
    }

    /// Words shaped like a code: `XXXX-XXXX-XXXX` in the code alphabet.
    static func codes(in line: String) -> [String] {
        line.split(separator: " ").map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ":."))) }.filter {
            $0.count == 14 && $0.filter { $0 == "-" }.count == 2
                && $0.allSatisfy { $0 == "-" || SecretCodes.alphabet.contains($0) }
        }
    }

    static func plainAuth(_ name: String, _ secret: String) -> String {
        Data(("\0" + name + "\0" + secret).utf8).base64EncodedString()
    }

    /// An IRC connection that logs in with SASL PLAIN; returns the reply numeric (903 or 904).
    static func sasl(_ server: TestServer, nick: String, payload: String) async throws -> (TestClient, String) {
        let c = try await server.connect()
        try await c.send("CAP LS 302")
        try await c.send("CAP REQ :sasl")
        try await c.send("NICK \(nick)")
        try await c.send("USER \(nick) 0 * :\(nick)")
        try await c.expect("CAP * ACK :sasl")
        try await c.send("AUTHENTICATE PLAIN")
        try await c.expect("AUTHENTICATE +")
        try await c.send("AUTHENTICATE \(payload)")
        let reply = try await c.expect("903 or 904") { $0.contains(" 903 ") || $0.contains(" 904 ") }
        try await c.send("CAP END")
        try await c.expectNumeric("376")
        return (c, reply.contains(" 903 ") ? "903" : "904")
    }

    static func fileHost(_ server: TestServer, basic: String) async throws -> (Int, String) {
        let url = try #require(URL(string: "http://127.0.0.1:\(server.httpPort)/upload"))
        let (body, response) = try await Web.fetch(
            url, method: "POST", body: Web.samplePNG(),
            headers: ["Authorization": "Basic " + basic, "Content-Type": "image/png"])
        return (response.statusCode, String(decoding: body, as: UTF8.self))
    }

    @Test func secretsNeverLeakAndAreStoredOnlyAsHashes() async throws {
        let logs = LogCapture()
        let operPassword = "0perPass-Wombat-9001"
        try await withServer(logs: logs) {
            $0.operators = ["root": operPassword]
        } run: { server in
            var secrets = Secrets()
            // Lines that legitimately carry a secret to the one it belongs to.
            var deliveries: Set<String> = []
            var httpBodies: [String] = []

            let pw1 = "Sekret1-Quokka-7731"
            let pw2 = "Sekret2-Axolotl-5520"
            let pw3 = "Sekret3-Pangolin-8842"
            let maxPassword = "MaxSekret-Ibis-6604"
            let wrong = [
                "login": "Wr0ng-Narwhal-4410", "sasl": "Wr0ng-Tapir-3317", "pass": "Wr0ng-Okapi-2291",
                "basic": "Wr0ng-Dugong-1185", "delete": "Wr0ng-Kiwi-7719", "oper": "Wr0ng0per-Dingo-1234",
            ]
            for (what, value) in [
                ("password 1", pw1), ("password 2", pw2), ("password 3", pw3), ("max's password", maxPassword),
                ("oper password", operPassword),
            ] {
                secrets.add(what, value)
            }
            for (what, value) in wrong { secrets.add("wrong \(what) password", value) }

            // Watchers: an IRC operator and a guest, both in #den with every capability.
            let root = try await TestClient.irc(
                server, nick: "root", extra: ["CAP LS 302", "CAP REQ :\(Self.watcherCaps)", "CAP END"])
            try await root.send("OPER root \(wrong["oper"]!)")
            try await root.expectNumeric("464")
            try await root.send("OPER root \(operPassword)")
            try await root.expectNumeric("381")
            let bob = try await TestClient.irc(
                server, nick: "bob", extra: ["CAP LS 302", "CAP REQ :\(Self.watcherCaps)", "CAP END"])
            let zoe = try await TestClient.irc(
                server, nick: "zoe", extra: ["CAP LS 302", "CAP REQ :\(Self.zoeCaps)", "CAP END"])
            for c in [root, bob, zoe] {
                try await c.send("JOIN #den")
                try await c.expectNumeric("366")
            }

            // !register: the recovery codes and the resume token come privately.
            try await zoe.send("PRIVMSG hearth :!register zoe \(pw1) zoe@example.org")
            try await zoe.expect("Recovery codes")
            let codesLine = try await zoe.expect("the recovery codes") { Self.codes(in: $0).count == 8 }
            deliveries.insert(codesLine)
            let recovery = Self.codes(in: codesLine)
            for (i, code) in recovery.enumerated() { secrets.add("recovery code \(i)", code) }
            var tokenLine = try await zoe.expect("Your resume token")
            deliveries.insert(tokenLine)
            secrets.add("token from !register", try Self.token(in: tokenLine))

            // A password typed into a channel by mistake: not relayed, answered privately.
            try await zoe.send("PRIVMSG #den :!login zoe \(pw1)")
            try await zoe.expect("(not shown in #den")
            try await zoe.expect("You are logged in as zoe.")
            tokenLine = try await zoe.expect("Your resume token")
            deliveries.insert(tokenLine)
            secrets.add("token from !login in a channel", try Self.token(in: tokenLine))
            for mistake in [
                "!LOGIN zoe \(pw1)", "   !logn zoe \(pw1)", "!resume \(try Self.token(in: tokenLine))",
                "!passwd \(pw1) \(pw1)",
            ] {
                try await zoe.send("PRIVMSG #den :\(mistake)")
                try await zoe.expect("(not shown in #den")
            }
            try await zoe.send("NOTICE #den :!login zoe \(pw1)")
            try await zoe.sync()
            // The same in a multiline batch.
            let refusals = { Self.allLines(zoe).filter { $0.contains("(not shown in #den") }.count }
            let before = refusals()
            try await MultilineTests.sendBatch(
                zoe, id: "ml", target: "#den", lines: [("oops, wrong window:", false), ("!login zoe \(pw1)", false)])
            try await zoe.sync()
            #expect(refusals() == before + 1, "a multiline batch carrying !login was not refused")
            try await zoe.send("PRIVMSG #den :after-the-mistakes")
            try await bob.expect("after-the-mistakes")

            // NickServ IDENTIFY, a wrong !login, !passwd.
            try await zoe.send("PRIVMSG NickServ :IDENTIFY \(pw1)")
            tokenLine = try await zoe.expect("Your resume token")
            deliveries.insert(tokenLine)
            secrets.add("token from IDENTIFY", try Self.token(in: tokenLine))
            try await zoe.send("PRIVMSG hearth :!login zoe \(wrong["login"]!)")
            try await zoe.expect("wrong name or password")
            try await zoe.send("PRIVMSG hearth :!passwd \(pw1) \(pw2)")
            try await zoe.expect("Password changed.")
            tokenLine = try await zoe.expect("Your resume token")
            deliveries.insert(tokenLine)
            let token4 = try Self.token(in: tokenLine)
            secrets.add("token from !passwd", token4)

            // !resume from nc, right and wrong.
            let nc1 = try await TestClient.plain(server)
            try await nc1.send("!resume \(token4)")
            try await nc1.expect("Welcome back, zoe")
            let fakeToken = "hrt_" + Sodium.hex(Sodium.randomBytes(20))
            secrets.add("unknown token", fakeToken)
            let nc2 = try await TestClient.plain(server)
            try await nc2.send("!resume \(fakeToken)")
            try await nc2.expect("unknown or expired")

            // !recover with a recovery code (typed in lower case), then the same code again.
            try await nc2.send("!recover zoe \(recovery[0].lowercased()) \(pw3)")
            try await nc2.expect("Password reset for zoe")
            tokenLine = try await nc2.expect("Your resume token")
            deliveries.insert(tokenLine)
            let token5 = try Self.token(in: tokenLine)
            secrets.add("token from !recover", token5)
            try await nc2.send("!recover zoe \(recovery[0]) \(pw2)")
            try await nc2.expect("don't match")
            try await nc2.send("/quit")
            try await nc2.expect("Bye!")
            // Everyone else was logged out: zoe logs in again on IRC.
            try await zoe.expect("You were logged out from another connection.")
            try await zoe.send("PRIVMSG hearth :login zoe \(pw3)")
            tokenLine = try await zoe.expect("Your resume token")
            deliveries.insert(tokenLine)
            let token6 = try Self.token(in: tokenLine)
            secrets.add("token from the last !login", token6)
            // (Logging out may have taken zoe out of #den, as the second device of her nick.)
            try await zoe.send("JOIN #den")
            try await zoe.sync()

            // SASL PLAIN (password and token), right and wrong; then PASS.
            let saslRight = Self.plainAuth("zoe", pw3)
            let saslWrong = Self.plainAuth("zoe", wrong["sasl"]!)
            let saslToken = Self.plainAuth("zoe", token5)
            secrets.addRaw("SASL payload", saslRight)
            secrets.addRaw("wrong SASL payload", saslWrong)
            secrets.addRaw("SASL token payload", saslToken)
            var logins: [TestClient] = []
            for (nick, payload, expected) in [
                ("zoe_s1", saslRight, "903"), ("zoe_s2", saslWrong, "904"), ("zoe_s3", saslToken, "903"),
            ] {
                let (c, numeric) = try await Self.sasl(server, nick: nick, payload: payload)
                #expect(numeric == expected, "SASL as \(nick)")
                logins.append(c)
            }
            for (nick, pass, expected) in [
                ("zoe_p1", "zoe:\(pw3)", "900"), ("zoe_p2", "zoe:\(wrong["pass"]!)", "464"), ("zoe_p3", token5, "900"),
            ] {
                let c = try await server.connect()
                try await c.send("PASS \(pass)")
                try await c.send("NICK \(nick)")
                try await c.send("USER \(nick) 0 * :\(nick)")
                try await c.expectNumeric(expected)
                try await c.expectNumeric("376")
                logins.append(c)
            }

            // Family invite codes: made privately, one joined with, one wrong, one revoked in a
            // channel, one left open. Max is on nc in #den, so lines starting with ! go there.
            let max = try await TestClient.plain(server)
            try await max.send("!register max \(maxPassword)")
            try await max.expect("Welcome to Hearth, max!")
            tokenLine = try await max.expect("Your resume token")
            deliveries.insert(tokenLine)
            secrets.add("max's token", try Self.token(in: tokenLine))
            try await max.expect("To stay logged in")
            try await max.send("/join #den")
            try await max.expect("You joined #den.")
            try await zoe.send("PRIVMSG hearth :!tree new Keepers")
            var inviteLine = try await zoe.expect("Invite code for Keepers")
            deliveries.insert(inviteLine)
            let codeA = try #require(Self.codes(in: inviteLine).first)
            secrets.add("invite code A", codeA)
            var invites: [String] = []
            for _ in 0..<2 {
                try await zoe.send("PRIVMSG #den :!tree invite")
                inviteLine = try await zoe.expect("Invite code for Keepers")
                deliveries.insert(inviteLine)
                invites.append(try #require(Self.codes(in: inviteLine).first))
            }
            let (codeB, codeC) = (invites[0], invites[1])
            secrets.add("invite code B", codeB)
            secrets.add("invite code C (left open)", codeC)
            let wrongCode = "WXYZ-2345-6789"
            secrets.add("wrong invite code", wrongCode)
            try await max.send("!tree join \(wrongCode)")
            try await max.expect("that code is unknown, used or expired")
            try await max.send("!tree join \(codeA.lowercased())")
            try await max.expect("Welcome to Keepers")
            let refused = refusals()
            try await zoe.send("PRIVMSG #den :!tree revoke \(codeB)")
            // (Only the one who typed it sees it again, once it no longer works.)
            let cancelled = try await zoe.expect("Invite \(codeB) is cancelled.")
            #expect(
                refusals() == refused + 1 && cancelled.contains("PRIVMSG zoe :"),
                "!tree revoke CODE was not kept out of #den")
            if cancelled.contains("PRIVMSG zoe :") { deliveries.insert(cancelled) }

            // One-time upload links: one used with PUT (and refused the second time), one left open.
            try await zoe.send("PRIVMSG hearth :!upload")
            let uploadLine = try await zoe.expect("curl -T photo.jpg")
            deliveries.insert(uploadLine)
            let link = try Web.link(in: uploadLine)
            secrets.add("upload token", link.lastPathComponent)
            let (created, createdResponse) = try await Web.fetch(link, method: "PUT", body: Web.samplePNG())
            #expect(createdResponse.statusCode == 201)
            let (gone, goneResponse) = try await Web.fetch(link, method: "PUT", body: Web.samplePNG())
            #expect(goneResponse.statusCode == 404)
            httpBodies += [String(decoding: created, as: UTF8.self), String(decoding: gone, as: UTF8.self)]
            try await zoe.send("PRIVMSG #den :!upload")
            let openUploadLine = try await zoe.expect("curl -T photo.jpg")
            deliveries.insert(openUploadLine)
            let openUpload = try Web.link(in: openUploadLine).lastPathComponent
            secrets.add("unused upload token", openUpload)

            // draft/FILEHOST with HTTP Basic: password, wrong password, token.
            let basicRight = Data("zoe:\(pw3)".utf8).base64EncodedString()
            let basicWrong = Data("zoe:\(wrong["basic"]!)".utf8).base64EncodedString()
            let basicToken = Data("zoe:\(token6)".utf8).base64EncodedString()
            secrets.addRaw("Basic credentials", basicRight)
            secrets.addRaw("wrong Basic credentials", basicWrong)
            secrets.addRaw("Basic token credentials", basicToken)
            for (basic, expected) in [(basicRight, 201), (basicWrong, 401), (basicToken, 201)] {
                let (status, body) = try await Self.fileHost(server, basic: basic)
                #expect(status == expected, "FILEHOST: \(body)")
                httpBodies.append(body)
            }

            // The web's account forms: sign up, a new password, a wrong one to delete the account.
            let (webPassword, webNew, webWrong) = ("WebSekret-Numbat-4471", "WebSekret2-Quoll-5582", "Wr0ng-Bilby-6693")
            secrets.add("web sign-up password", webPassword)
            secrets.add("web new password", webNew)
            secrets.add("wrong web password", webWrong)
            let web = WebBrowser(server)
            #expect(try await AccountPagesTests.signUp(web, "wendy", password: webPassword).status == 303)
            for code in AccountPagesTests.codes(try await web.get("/welcome").body) { secrets.add("web code", code) }
            _ = try await web.post(
                "/settings/password", form: ["old": webPassword, "password": webNew, "password2": webNew])
            _ = try await web.post("/settings/delete", form: ["confirm": "wendy", "password": webWrong])
            #expect(try await web.get("/settings").body.contains("Wrong name or password"))
            secrets.add("web session", try #require(web.cookies["hearth_session"]))
            _ = try await web.post("/settings/delete", form: ["confirm": "wendy", "password": webNew])
            #expect(try await web.get("/").body.contains("Your account wendy and everything"))

            // A wrong password for a destructive command.
            try await zoe.send("PRIVMSG hearth :!account delete \(wrong["delete"]!)")
            try await zoe.expect("wrong name or password")

            // Everything said reached the watchers; then the history, both ways.
            try await zoe.send("PRIVMSG #den :the-end-from-zoe")
            try await max.send("/msg #den the-end-from-max")
            // Two connections, two event loops: the lines may arrive in either order.
            for c in [root, bob] {
                let first = try await c.expect("the end from zoe or max") {
                    $0.contains("the-end-from-zoe") || $0.contains("the-end-from-max")
                }
                try await c.expect(first.contains("the-end-from-zoe") ? "the-end-from-max" : "the-end-from-zoe")
            }
            // (CHATHISTORY writes what is still queued, so !history sees it all too.)
            try await root.send("CHATHISTORY LATEST #den * 100")
            let history = try await ChathistoryTests.batch(root)
            #expect(history.contains { $0.contains("the-end-from-zoe") })
            #expect(history.contains { $0.contains("after-the-mistakes") })
            try await bob.send("PRIVMSG hearth :!history #den 50")
            try await bob.expect("the-end-from-max")
            for c in [root, bob, zoe] { try await c.sync() }

            // Every resume token handed out (some by commands typed by mistake) is a secret too.
            let actors = [zoe, max, nc1, nc2] + logins
            for line in actors.flatMap(Self.allLines) where line.contains(Self.tokenDelivery) {
                secrets.add("a resume token", try Self.token(in: line))
            }

            // Nothing secret reached anyone it does not belong to.
            for (name, c) in [("root", root), ("bob", bob)] {
                for line in Self.allLines(c) {
                    let found = secrets.found(in: line)
                    #expect(found.isEmpty, "\(name) saw \(found): \(line)")
                }
            }
            // Nor came back in an error message or anything but the one line that delivers it.
            for (name, c) in [("zoe", zoe), ("max", max), ("nc1", nc1), ("nc2", nc2)] + logins.map({ ("login", $0) }) {
                for line in Self.allLines(c) where !deliveries.contains(line) && !line.contains(Self.tokenDelivery) {
                    let found = secrets.found(in: line)
                    #expect(found.isEmpty, "\(name) got \(found) in: \(line)")
                }
            }
            for body in httpBodies {
                #expect(secrets.found(in: body).isEmpty, "HTTP answer: \(body)")
            }
            #expect(
                !Self.allLines(bob).contains {
                    $0.contains("!login") || $0.contains("!tree join") || $0.contains("!tree revoke")
                })

            for c in [root, bob, zoe, max, nc1, nc2] + logins { await c.close() }
            await server.stop()

            // The logs, at trace level.
            let logText = logs.text
            #expect(logs.count > 0 && logText.contains("IRC listening"), "no logs were captured")
            for line in logText.split(separator: "\n") {
                let found = secrets.found(in: String(line))
                #expect(found.isEmpty, "log line has \(found): \(line)")
            }

            // Every table, every column, as text; and the bytes of every file in the data directory.
            var rows: [(table: String, text: String)] = []
            for table in try await server.sql.tables() {
                for text in try await server.sql.rowsAsText(table) { rows.append((table, text)) }
            }
            #expect(rows.contains { $0.table == "history" && $0.text.contains("the-end-from-zoe") })
            for (table, text) in rows {
                let found = secrets.found(in: text)
                #expect(found.isEmpty, "table \(table) holds \(found): \(text)")
            }
            let files = FileManager.default.enumerator(atPath: server.dataDirectory)?.compactMap { $0 as? String } ?? []
            #expect(server.sql.isPostgres || files.contains("hearth.sqlite"))
            for file in files {
                let path = server.dataDirectory + "/" + file
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                let found = secrets.found(in: String(decoding: data, as: UTF8.self))
                #expect(found.isEmpty, "file \(file) holds \(found)")
            }

            // Stored as hashes: Argon2id for passwords, BLAKE2b (64 hex digits) for long random
            // secrets, BLAKE2b keyed with the server secret ("k1:" + 64 hex) for short codes.
            let isHash = { (text: String) in
                let digest = text.hasPrefix(CodeHasher.keyedPrefix) ? String(text.dropFirst(3)) : text
                return digest.count == 64 && digest.allSatisfy { "0123456789abcdef".contains($0) }
            }
            let keyFile = URL(fileURLWithPath: server.dataDirectory).appendingPathComponent(CodeHasher.fileName)
            let codes = CodeHasher(key: [UInt8](try Data(contentsOf: keyFile)))
            let stored = (
                passwords: try await server.sql.strings("SELECT passwordHash FROM account"),
                tokens: try await server.sql.strings("SELECT tokenHash FROM resumeToken"),
                recovery: try await server.sql.strings("SELECT codeHash FROM recoveryCode"),
                invites: try await server.sql.strings("SELECT codeHash FROM familyInvite"),
                uploads: try await server.sql.strings("SELECT tokenHash FROM uploadTicket")
            )
            #expect(stored.passwords.count == 2)
            #expect(stored.passwords.allSatisfy { $0.hasPrefix("$argon2id$") })
            #expect(
                PasswordHash.verify(pw3, hash: try #require(stored.passwords.first))
                    || PasswordHash.verify(pw3, hash: stored.passwords[1]))
            for (what, hashes) in [
                ("tokens", stored.tokens), ("recovery codes", stored.recovery), ("invites", stored.invites),
                ("uploads", stored.uploads),
            ] {
                #expect(!hashes.isEmpty && hashes.allSatisfy(isHash), "\(what): \(hashes)")
            }
            #expect(stored.tokens.contains(Sodium.hashSecret(token6)))
            #expect(stored.recovery.contains(codes.hash(SecretCodes.normalize(recovery[1]))))
            #expect(stored.recovery.allSatisfy { $0.hasPrefix(CodeHasher.keyedPrefix) })
            #expect(stored.invites == [codes.hash("family/" + SecretCodes.normalize(codeC))])
            #expect(stored.uploads == [Sodium.hashSecret(openUpload)])
        }
    }
}
