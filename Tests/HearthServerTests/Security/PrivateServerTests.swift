import Foundation
import HearthTesting
import Testing

/// What an operator of a private or test server sets: a server password (PASS before
/// registration, or the first line in plain mode) and the shortest password accounts may have.
@Suite struct PrivateServerTests {
    /// Waits until the server closed the connection.
    static func expectClosed(_ client: TestClient) async throws {
        try await client.expectClosed()
    }

    @Test func aServerPasswordKeepsOutWhoDoesNotKnowIt() async throws {
        try await withServer(configure: { $0.serverPassword = "let-me-in" }) { server in
            // IRC without PASS, or with a wrong one: 464, then the link closes; nobody is welcomed.
            for extra in [[], ["PASS guess"], ["PASS let-me-i"], ["PASS let-me-in-too"]] {
                let client = try await server.connect()
                for line in extra { try await client.send(line) }
                try await client.send("NICK eve")
                try await client.send("USER eve 0 * :Eve")
                try await client.expectNumeric("464")
                try await client.expect("ERROR")
                try await Self.expectClosed(client)
                #expect(!client.unread().contains { $0.contains(" 001 ") })
            }
            let ann = try await TestClient.irc(server, nick: "ann", extra: ["PASS let-me-in"])
            try await ann.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await ann.expect("Welcome to Hearth, ann!")
            // The server password, then a login, in one PASS.
            let phone = try await server.connect()
            for line in ["PASS let-me-in:ann:s3cret-pass", "NICK annphone", "USER ann 0 * :Ann"] {
                try await phone.send(line)
            }
            try await phone.expect("You are now logged in as ann")
            try await phone.expectNumeric("001")
            // Plain mode asks for it first (a first line is taken as the answer).
            let wrong = try await server.connect()
            try await wrong.send("open sesame")
            try await wrong.expect("This server is private: type its password.")
            try await wrong.expect("not this server's password")
            try await Self.expectClosed(wrong)
            let nc = try await server.connect()
            try await nc.send("let-me-in")
            try await nc.expect("Welcome to")
            try await nc.send("/whois ann")
            try await nc.expect("ann")
            await ann.close()
            await phone.close()
            await nc.close()
        }
    }

    @Test func operatorsChooseTheShortestPassword() async throws {
        // The default: 8 characters.
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            try await nc.send("!register ann short")
            try await nc.expect("passwords need at least 8 characters")
            await nc.close()
        }
        try await withServer(configure: { $0.minPasswordLength = 3 }) { server in
            let nc = try await TestClient.plain(server)
            try await nc.send("!register ann ab")
            try await nc.expect("passwords need at least 3 characters")
            try await nc.send("!register ann abc")
            try await nc.expect("Welcome to Hearth, ann!")
            try await nc.send("!passwd abc xy")
            try await nc.expect("passwords need at least 3 characters")
            try await nc.send("!passwd abc xyz")
            try await nc.expect("Password changed.")
            await nc.close()
        }
        try await withServer(configure: { $0.minPasswordLength = 1 }) { server in
            let nc = try await TestClient.plain(server)
            try await nc.send("!register ann x")
            try await nc.expect("Welcome to Hearth, ann!")
            await nc.close()
        }
    }

    @Test func userAddFollowsTheSameRule() async throws {
        let dir = TestServer.tempDirectory()
        let short = try await Programs.hearth(["user", "add", "bob", "x", "--data-dir", dir])
        #expect(short.status != 0 && short.output.contains("passwords need at least 8 characters"), "\(short.output)")
        let added = try await Programs.hearth([
            "user", "add", "bob", "x", "--min-password-length", "1", "--data-dir", dir,
        ])
        #expect(added.status == 0 && added.output.contains("created account bob"), "\(added.output)")
        let zero = try await Programs.hearth([
            "user", "add", "cy", "x", "--min-password-length", "0", "--data-dir", dir,
        ])
        #expect(zero.status != 0 && zero.output.contains("--min-password-length: 1 to"), "\(zero.output)")
    }
}
