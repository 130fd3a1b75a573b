import Foundation
import GRDB
import HearthTesting
import Testing

/// An HTTP request on the IRC port (from curl, or a web page making the visitor's browser
/// post to it) is closed before anything in it runs (security round two).
extension AuthorizationTests {
    static let smuggled = "/join #x\r\nhello from a web page\r\n!register evil s3cret-pass\r\n"

    /// Nothing the request carried happened: no #x, no account `evil`.
    static func nothingRan(_ server: TestServer, _ witness: TestClient) async throws {
        let list = try await LimitCrossingTests.ircReplies(witness, "LIST")
        #expect(!list.contains { $0.contains("#x") }, "\(list)")
        let accounts = try await server.sql.int("SELECT COUNT(*) FROM account WHERE nameKey = 'evil'")
        #expect(accounts == 0)
    }

    @Test func httpRequestsOnTheIRCPortAreClosedBeforeAnythingRuns() async throws {
        try await withServer { server in
            let witness = try await TestClient.irc(server, nick: "witness")

            // A raw socket, as a browser's cross-protocol POST arrives.
            let raw = try await server.connect()
            let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(server.ircPort)\r\nContent-Type: text/plain\r\n"
            try await raw.send(head + "Content-Length: \(Self.smuggled.utf8.count)\r\n\r\n" + Self.smuggled)
            try await raw.expect("ERROR :Closing Link")
            try await raw.expectClosed()
            #expect(!raw.unread().contains { $0.contains("Welcome") || $0.contains("#x") })
            // A request whose first line is a header (a client that sent the request line apart).
            let header = try await server.connect()
            try await header.send("User-Agent: Mozilla/5.0\r\n\r\n" + Self.smuggled)
            try await header.expect("ERROR :Closing Link")

            // curl, as an attacker's script would.
            let answer = try await LimitCrossingTests.curl([
                "-s", "-m", "5", "--http0.9", "-X", "POST", "--data-binary", Self.smuggled,
                "http://127.0.0.1:\(server.ircPort)/",
            ])
            #expect(answer.hasPrefix("ERROR :Closing Link") && !answer.contains("Welcome"), "\(answer)")
            try await Self.nothingRan(server, witness)

            // Later plain-mode lines that merely start like a request are chat as usual.
            let nc = try await TestClient.plain(server)
            try await nc.send("/join #y")
            try await nc.expect("You joined #y.")
            try await witness.send("JOIN #y")
            try await witness.expectNumeric("366")
            try await nc.send("GET / HTTP/1.1 is what a browser says first")
            try await witness.expect("PRIVMSG #y :GET / HTTP/1.1 is what a browser says first")
            try await nc.send("Host: me, tonight")
            try await witness.expect("PRIVMSG #y :Host: me, tonight")
        }
    }
}
