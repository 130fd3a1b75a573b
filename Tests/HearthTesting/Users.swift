import Testing

/// People as the tests make them: accounts registered over a plain (nc) connection.
extension TestClient {
    /// A plain-mode connection with a fresh account NAME (password `s3cret-pass`), logged in.
    public static func user(_ server: TestServer, _ name: String) async throws -> TestClient {
        let c = try await TestClient.plain(server)
        try await c.send("!register \(name) s3cret-pass")
        // Generous: in the PostgreSQL pass ~190 servers share one database, and a registration
        // (several writes) can queue behind the others' for longer than a line usually takes.
        try await c.expect("Welcome to Hearth, \(name)!", timeout: 30)
        try await c.expect("To stay logged in")
        return c
    }

    /// Registers an account NAME with PASSWORD from a plain connection that then quits.
    public static func register(_ server: TestServer, _ name: String, _ password: String) async throws {
        let nc = try await TestClient.plain(server)
        try await nc.send("!register \(name) \(password)")
        try await nc.expect("Welcome to Hearth, \(name)!", timeout: 30)
        try await nc.send("/quit")
        // Bye! is sent when the connection is gone from the nick table.
        try await nc.expect("Bye!")
    }
}
