import HearthTesting
import Testing

/// Registration tells a nick no account holds without asking the store (issue 42): what it
/// knows follows every account made, renamed and deleted while the server runs.
@Suite struct ReservedNickTests {
    /// A new IRC connection registering as `nick`: refused as reserved, or welcomed (and kept).
    static func register(_ server: TestServer, _ nick: String, reserved: Bool) async throws -> TestClient {
        let client = try await server.connect()
        try await client.send("NICK \(nick)")
        try await client.send("USER x 0 * :X")
        if reserved {
            try await client.expect(" 433 \(nick) \(nick) :Nickname is reserved by a registered account")
        } else {
            try await client.expectNumeric("001")
        }
        return client
    }

    @Test func reservationsFollowAccountsMadeRenamedAndDeleted() async throws {
        try await withServer { server in
            let early = try await Self.register(server, "mira", reserved: false)
            try await early.send("QUIT")
            try await early.expectClosed()

            let mia = try await TestClient.user(server, "mia")
            _ = try await Self.register(server, "mia", reserved: true)
            try await mia.send("!rename mira")
            try await mia.expect("Your account is now called mira.")
            _ = try await Self.register(server, "mira", reserved: true)
            // The old name is free at once.
            let other = try await Self.register(server, "mia", reserved: false)

            try await mia.send("!account delete s3cret-pass")
            try await mia.expect("are deleted. Goodbye!")
            try await mia.send("/quit")
            try await mia.expect("Bye!")
            let after = try await Self.register(server, "mira", reserved: false)
            _ = (other, after)
        }
    }
}
