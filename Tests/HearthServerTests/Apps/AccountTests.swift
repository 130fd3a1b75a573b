import Foundation
import HearthStore
import HearthTesting
import Testing

/// The account lifecycle over TCP, including resume across a server restart.
@Suite struct AccountTests {
    static func token(from line: String) -> String {
        String(line[line.range(of: "hrt_")!.lowerBound...].prefix(44))
    }

    @Test func lifecycleAndResumeAcrossRestart() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        // SQLite runs in WAL mode (readers never wait for the writer).
        if let sqlite = server.server.store as? SQLiteStore { #expect(try await sqlite.journalMode() == "wal") }
        let nc = try await TestClient.plain(server)
        try await nc.send("!register erin s3cret-pass erin@example.org \"+33 6 12 34 56 78\"")
        try await nc.expect("Recovery codes")
        let codes = try await nc.expect("recovery codes") { $0.split(separator: " ").count >= 8 && $0.contains("-") }
        let code = String(codes.split(separator: " ")[0])
        let token = Self.token(from: try await nc.expect("Your resume token"))

        try await nc.send("!whoami")
        try await nc.expect("You are erin, logged in as erin")
        try await nc.send("!register other s3cret-pass")
        try await nc.expect("you are already logged in as erin")

        // Wrong old password changes nothing.
        try await nc.send("!passwd wrong-pass n3w-s3cret")
        try await nc.expect("passwd: wrong name or password")
        try await nc.send("!passwd s3cret-pass n3w-s3cret")
        try await nc.expect("Password changed.")
        let token2 = Self.token(from: try await nc.expect("Your resume token"))
        #expect(token2 != token)

        try await nc.send("!logout")
        try await nc.expect("You are now known as guest")
        try await nc.expect("You are logged out")
        try await nc.send("!login erin s3cret-pass")
        try await nc.expect("login: wrong name or password")
        try await nc.send("!login erin n3w-s3cret")
        try await nc.expect("You are logged in as erin.")
        let token3 = Self.token(from: try await nc.expect("Your resume token"))

        // The old token was revoked by the password change.
        let other = try await TestClient.plain(server)
        try await other.send("!resume \(token)")
        try await other.expect("unknown or expired")

        // Restart the server on the same data directory: the token still works.
        await nc.close()
        await other.close()
        await server.stop()
        server = try await TestServer.start(dataDirectory: dir)
        let back = try await TestClient.plain(server)
        try await back.send("!resume \(token3)")
        try await back.expect("You are now known as erin.")
        try await back.expect("Welcome back, erin")

        // PASS TOKEN from an IRC client logs straight in.
        let irc = try await server.connect()
        try await irc.send("PASS \(token3)")
        try await irc.send("NICK erin_laptop")
        try await irc.send("USER erin 0 * :Erin")
        try await irc.expectNumeric("900")
        try await irc.expectNumeric("001")

        // Rename follows to the nick.
        try await back.send("!rename erin2")
        try await back.expect("You are now known as erin2.")
        try await back.expect("Your account is now called erin2.")

        // Recovery code: works once.
        let stranger = try await TestClient.plain(server)
        try await stranger.send("!recover erin2 \(code) r3covered-pass")
        try await stranger.expect("Password reset for erin2; you are logged in. 7 recovery codes left.")
        let again = try await TestClient.plain(server)
        try await again.send("!recover erin2 \(code) other-pass1")
        try await again.expect("don't match (or the code was used already)")
        try await back.expect("You were logged out from another connection.")

        // Delete the account: wrong password refused, right one deletes, name is free again.
        try await stranger.send("!account delete wrong-pass")
        try await stranger.expect("wrong name or password")
        try await stranger.send("!account delete r3covered-pass")
        try await stranger.expect("are deleted. Goodbye!")
        try await stranger.send("!login erin2 r3covered-pass")
        try await stranger.expect("wrong name or password")
        try await stranger.send("!register erin2 fresh-start1")
        try await stranger.expect("Welcome to Hearth, erin2!")
        await server.stop()
    }

    @Test func logoutAllEndsEverySession() async throws {
        try await withServer { server in
            let a = try await TestClient.plain(server)
            try await a.send("!register frank s3cret-pass")
            let token = Self.token(from: try await a.expect("Your resume token"))
            let b = try await TestClient.plain(server)
            try await b.send("!login frank s3cret-pass")
            try await b.expect("You are logged in as frank.")
            try await b.send("!logout all")
            try await b.expect("You are logged out everywhere")
            try await a.expect("You were logged out from another connection.")
            let c = try await TestClient.plain(server)
            try await c.send("!resume \(token)")
            try await c.expect("unknown or expired")
        }
    }

    @Test func wrongPasswordsAreSlowedDown() async throws {
        try await withServer(configure: { $0.clock = TestClock().hearth }) { server in
            let a = try await TestClient.plain(server)
            try await a.send("!register gina s3cret-pass")
            try await a.expect("Welcome to Hearth, gina!")
            let b = try await TestClient.plain(server)
            for _ in 0..<3 {
                try await b.send("!login gina nope-nope")
                try await b.expect("wrong name or password")
            }
            // Even the right password must now wait.
            try await b.send("!login gina s3cret-pass")
            try await b.expect("too many failed attempts; try again in")
        }
    }

    @Test func badRegistrationsAreExplained() async throws {
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            try await nc.send("!register hearth s3cret-pass")
            try await nc.expect("the name hearth is reserved")
            try await nc.send("!register 9lives s3cret-pass")
            try await nc.expect("can't be a name")
            try await nc.send("!register henry short")
            try await nc.expect("at least 8 characters")
            try await nc.send("!register henry s3cret-pass not-an-email-or-phone")
            try await nc.expect("neither an email address nor a phone number")
            try await nc.send("!register henry s3cret-pass")
            try await nc.expect("Welcome to Hearth, henry!")
            let other = try await TestClient.plain(server)
            try await other.send("!register HENRY s3cret-pass")
            try await other.expect("someone online is using the nick HENRY")
        }
    }

    @Test func userAddFromTheShellWorksOnARunningServer() async throws {
        try await withServer { server in
            let added = try await LimitCrossingTests.hearth([
                "user", "add", "ivy", "sh3ll-made-pass", "--data-dir", server.dataDirectory,
            ])
            #expect(added.status == 0 && added.output.contains("created account ivy"), "\(added)")
            let nc = try await TestClient.plain(server)
            try await nc.send("!login ivy sh3ll-made-pass")
            try await nc.expect("You are logged in as ivy.")
        }
    }
}
