import Crypto
import Foundation
import HearthCrypto
import HearthStore
import HearthTesting
import Testing
import _CryptoExtras

/// SASL SCRAM-SHA-256 over TCP: the client side is computed here with swift-crypto, apart
/// from the server's own code, so both halves of RFC 5802 are checked against each other.
@Suite struct ScramTests {
    /// The client's half of one exchange.
    struct Client {
        var user: String
        var password: String
        var nonce = Data((0..<18).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var bare: String { "n=\(user.replacingOccurrences(of: ",", with: "=2C")),r=\(nonce)" }
        var first: String { "n,," + bare }

        static func hmac(_ key: [UInt8], _ text: String) -> [UInt8] {
            Array(HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: SymmetricKey(data: key)))
        }

        /// client-final for `serverFirst`, and the server signature the server must answer.
        func final(_ serverFirst: String, nonce replacement: String? = nil) throws -> (String, String) {
            var fields: [Character: String] = [:]
            for part in serverFirst.split(separator: ",") { fields[part.first!] = String(part.dropFirst(2)) }
            let combined = try #require(fields["r"])
            #expect(combined.hasPrefix(nonce) && combined.count > nonce.count)
            let salt = try #require(fields["s"].flatMap { Data(base64Encoded: $0) })
            let rounds = try #require(fields["i"].flatMap { Int($0) })
            let salted = try KDF.Insecure.PBKDF2.deriveKey(
                from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32,
                unsafeUncheckedRounds: rounds
            ).withUnsafeBytes { Array($0) }
            let clientKey = Self.hmac(salted, "Client Key")
            let storedKey = Array(SHA256.hash(data: clientKey))
            let withoutProof = "c=biws,r=\(replacement ?? combined)"
            let authMessage = "\(bare),\(serverFirst),\(withoutProof)"
            let proof = zip(clientKey, Self.hmac(storedKey, authMessage)).map { $0 ^ $1 }
            let serverSignature = Self.hmac(Self.hmac(salted, "Server Key"), authMessage)
            return (
                "\(withoutProof),p=\(Data(proof).base64EncodedString())",
                "v=\(Data(serverSignature).base64EncodedString())"
            )
        }
    }

    static func b64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    /// An IRC connection that has asked for SASL and is not registered yet.
    static func connect(_ server: TestServer, nick: String) async throws -> TestClient {
        let c = try await server.connect()
        try await c.send("CAP LS 302")
        try await c.expect("sasl=PLAIN,SCRAM-SHA-256")
        try await c.send("CAP REQ :sasl")
        try await c.expect("CAP * ACK :sasl")
        try await c.send("NICK \(nick)")
        try await c.send("USER \(nick) 0 * :\(nick)")
        return c
    }

    /// Sends client-first, returns server-first.
    static func start(_ c: TestClient, _ client: Client) async throws -> String {
        try await c.send("AUTHENTICATE SCRAM-SHA-256")
        try await c.expect("AUTHENTICATE +")
        try await c.send("AUTHENTICATE \(b64(client.first))")
        let line = try await c.expect("AUTHENTICATE r") { $0.contains("AUTHENTICATE ") }
        let payload = try #require(line.split(separator: " ").last.map(String.init))
        return String(decoding: try #require(Data(base64Encoded: payload)), as: UTF8.self)
    }

    /// A whole exchange; true if the server proved itself and logged the client in.
    static func login(_ c: TestClient, _ client: Client) async throws -> Bool {
        let serverFirst = try await start(c, client)
        let (final, signature) = try client.final(serverFirst)
        try await c.send("AUTHENTICATE \(b64(final))")
        let line = try await c.expect("server-final or 904") {
            $0.contains("AUTHENTICATE ") || $0.contains(" 904 ")
        }
        if line.contains(" 904 ") { return false }
        #expect(line.hasSuffix("AUTHENTICATE \(b64(signature))"))
        try await c.send("AUTHENTICATE +")
        try await c.expect(" 900 ")
        try await c.expectNumeric("903")
        return true
    }

    static func credentials(_ server: TestServer, _ name: String) async throws -> ScramCredentials? {
        let account = try #require(try await server.server.store.account(nameKey: name))
        return try await server.server.store.scramCredentials(accountID: account.id)
    }

    @Test func aFullExchangeLogsIn() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let stored = try #require(try await Self.credentials(server, "ann"))
            #expect(stored.iterations == Scram.minIterations && stored.salt.count == Scram.saltBytes)

            let c = try await Self.connect(server, nick: "ann")
            #expect(try await Self.login(c, Client(user: "ann", password: "s3cret-pass")))
            try await c.send("AUTHENTICATE SCRAM-SHA-256")
            try await c.expectNumeric("907")
            try await c.send("CAP END")
            try await c.expectNumeric("001")
            try await c.send("PRIVMSG hearth :!whoami")
            try await c.expect("logged in as ann")

            // Any case of the name; 908 lists the mechanisms.
            let d = try await Self.connect(server, nick: "other")
            try await d.send("AUTHENTICATE GSSAPI")
            try await d.expect(" 908 other PLAIN,SCRAM-SHA-256,EXTERNAL :are available SASL mechanisms")
            try await d.expectNumeric("904")
            #expect(try await Self.login(d, Client(user: "ANN", password: "s3cret-pass")))
        }
    }

    @Test func aWrongPasswordAnUnknownNameAndATamperedNonceFail() async throws {
        try await withServer { server in
            try await TestClient.register(server, "bob", "s3cret-pass")
            let before = try await Self.credentials(server, "bob")
            let hash = try await server.server.store.account(nameKey: "bob")?.passwordHash

            let c = try await Self.connect(server, nick: "eve")
            #expect(try await !Self.login(c, Client(user: "bob", password: "s3cret-pasS")))
            #expect(try await Self.credentials(server, "bob") == before)
            #expect(try await server.server.store.account(nameKey: "bob")?.passwordHash == hash)

            // An unknown name gets a salt and rounds like an account's, the same each time.
            let first = try await Self.start(c, Client(user: "nobody", password: "s3cret-pass"))
            try await c.send("AUTHENTICATE *")
            try await c.expectNumeric("906")
            let again = try await Self.start(c, Client(user: "nobody", password: "x"))
            #expect(first.split(separator: ",").dropFirst() == again.split(separator: ",").dropFirst())
            #expect(first.hasSuffix(",i=\(Scram.minIterations)"))
            try await c.send("AUTHENTICATE *")
            try await c.expectNumeric("906")
            #expect(try await !Self.login(c, Client(user: "nobody", password: "s3cret-pass")))

            // The right password with the nonce changed in client-final.
            let client = Client(user: "bob", password: "s3cret-pass")
            let serverFirst = try await Self.start(c, client)
            let nonce = try #require(serverFirst.split(separator: ",").first?.dropFirst(2))
            let tampered = String(nonce.dropLast()) + (nonce.last == "x" ? "y" : "x")
            let (final, _) = try client.final(serverFirst, nonce: tampered)
            try await c.send("AUTHENTICATE \(Self.b64(final))")
            try await c.expectNumeric("904")

            // Channel binding is refused at once; garbage is refused.
            try await c.send("AUTHENTICATE SCRAM-SHA-256")
            try await c.expect("AUTHENTICATE +")
            try await c.send("AUTHENTICATE \(Self.b64("p=tls-unique,,n=bob,r=abcdef"))")
            try await c.expect("904 eve :SASL authentication failed: channel binding is not supported")
            try await c.send("AUTHENTICATE SCRAM-SHA-256")
            try await c.send("AUTHENTICATE not-base64!")
            try await c.expectNumeric("904")
            try await c.send("CAP END")
            try await c.expectNumeric("001")
            #expect(!c.unread().contains { $0.contains(" 900 ") })
            #expect(try await Self.credentials(server, "bob") == before)
        }
    }

    @Test func anOldAccountGainsCredentialsAtItsFirstPasswordLogin() async throws {
        try await withServer { server in
            // Made the way an account from before SCRAM looks: a hash and nothing else.
            let hash = try #require(PasswordHash.hash("old-password", cost: TestServer.fastCost))
            _ = try await server.server.store.createAccount(
                name: "old", nameKey: "old", passwordHash: hash, email: nil, phone: nil, recoveryHashes: [])
            #expect(try await Self.credentials(server, "old") == nil)
            let c = try await Self.connect(server, nick: "old")
            #expect(try await !Self.login(c, Client(user: "old", password: "old-password")))

            try await c.send("AUTHENTICATE PLAIN")
            try await c.expect("AUTHENTICATE +")
            try await c.send("AUTHENTICATE \(Self.b64("\0old\0old-password"))")
            try await c.expectNumeric("903")
            let gained = try #require(try await Self.credentials(server, "old"))
            #expect(gained.iterations == Scram.minIterations)
            #expect(try await server.server.store.account(nameKey: "old")?.passwordHash == hash)

            let d = try await Self.connect(server, nick: "old2")
            #expect(try await Self.login(d, Client(user: "old", password: "old-password")))
        }
    }

    @Test func anAccountMadeFromTheShellLogsInWithScramAtOnce() async throws {
        try await withServer { server in
            let added = try await Programs.hearth([
                "user", "add", "ivy", "sh3ll-made-pass", "--data-dir", server.dataDirectory,
            ])
            #expect(added.status == 0, "\(added.output)")
            #expect(try await Self.credentials(server, "ivy")?.iterations == Scram.iterations)
            let c = try await Self.connect(server, nick: "ivy")
            #expect(try await Self.login(c, Client(user: "ivy", password: "sh3ll-made-pass")))
        }
    }

    @Test func aNewPasswordReplacesTheKeys() async throws {
        try await withServer { server in
            let nc = try await TestClient.user(server, "cid")
            let before = try await Self.credentials(server, "cid")
            try await nc.send("!passwd s3cret-pass n3w-s3cret-pass")
            try await nc.expect("Password changed")
            let after = try #require(try await Self.credentials(server, "cid"))
            #expect(after != before && after.salt != before?.salt)

            let c = try await Self.connect(server, nick: "cid_")
            #expect(try await !Self.login(c, Client(user: "cid", password: "s3cret-pass")))
            #expect(try await Self.login(c, Client(user: "cid", password: "n3w-s3cret-pass")))
        }
    }
}
