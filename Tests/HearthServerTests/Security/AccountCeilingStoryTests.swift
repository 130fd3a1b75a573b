import HearthAccounts
import HearthTesting
import Testing

/// Past an account's ceiling (issue 34 item 2, reviewed): fresh addresses share a small
/// budget, an address that logged in any way (a resume token too) is still let in, a password
/// reset forgets a thief's address, and operator passwords are never let past their ceiling.
extension SecretsTests {
    /// Wrong passwords on NAME: `perNetwork` from one address in each of `networks` (127.0.N.1).
    static func guess(_ server: TestServer, _ name: String, networks: Range<Int>, perNetwork: Int) async throws {
        for network in networks {
            let attacker = try await Self.plain(server, from: "127.0.\(network).1")
            for _ in 0..<perNetwork {
                try await attacker.send("!login \(name) wrong-pass")
                try await attacker.expect("an answer", where: Self.loginAnswer)
            }
            try await attacker.send("/quit")
        }
    }

    /// Takes NAME past its ceiling (17 networks × 3) and spends its fresh guesses.
    static func spend(_ server: TestServer, _ name: String) async throws {
        try await guess(server, name, networks: 10..<27, perNetwork: LoginThrottle.freeFailures)
        let networks = LoginThrottle.freshGuessesPerAccount / LoginThrottle.freshFailuresPastCeiling
        try await guess(
            server, name, networks: 30..<(30 + networks), perNetwork: LoginThrottle.freshFailuresPastCeiling)
    }

    static func login(_ server: TestServer, from address: String, _ line: String) async throws -> TestClient {
        let client = try await Self.plain(server, from: address)
        try await client.send(line)
        return client
    }

    @Test func aTokenMakesItsAddressKnownAndAPasswordResetForgetsAThiefs() async throws {
        try await withServer { server in
            let token = try await AuthorizationTests.account(server, "ivy", "s3cret-pass")
            let thief = try await Self.login(server, from: "127.0.4.1", "!login ivy s3cret-pass")
            try await thief.expect("You are logged in as ivy.")
            let owner = try await Self.login(server, from: "127.0.3.1", "!resume \(token)")
            try await owner.expect("Welcome back, ivy")
            try await Self.spend(server, "ivy")
            // A fresh address now waits, even with the right password.
            let fresh = try await Self.login(server, from: "127.0.200.1", "!login ivy s3cret-pass")
            try await fresh.expect("too many failed attempts")
            // The address the owner used a token from is known: the password goes through there.
            let again = try await Self.login(server, from: "127.0.3.1", "!login ivy s3cret-pass")
            try await again.expect("You are logged in as ivy.")
            // A password reset forgets the thief's address: guessing from it now waits.
            try await again.send("!passwd s3cret-pass n3w-s3cret-pass")
            try await again.expect("Password changed.")
            let back = try await Self.login(server, from: "127.0.4.1", "!login ivy s3cret-pass")
            try await back.expect("too many failed attempts")
            let home = try await Self.login(server, from: "127.0.3.1", "!login ivy n3w-s3cret-pass")
            try await home.expect("You are logged in as ivy.")
        }
    }

    @Test func operatorPasswordsAreNeverLetPastTheirCeiling() async throws {
        try await withServer {
            $0.operators = ["root": "t0p-secret"]
            $0.clock = TestClock().hearth
        } run: { server in
            var tries = 0
            func oper(from address: String, _ password: String) async throws -> String {
                tries += 1
                let client = try await TestClient.connect(port: server.ircPort, from: address)
                try await client.send("NICK op\(tries)")
                try await client.send("USER op 0 * :op")
                try await client.expectNumeric("376")
                try await client.send("OPER root \(password)")
                return try await client.expect("an answer") { $0.contains(" 464 ") || $0.contains(" 381 ") }
            }
            for network in 10..<27 {
                for _ in 0..<LoginThrottle.freeFailures { _ = try await oper(from: "127.0.\(network).1", "wrong") }
            }
            let fresh = try await oper(from: "127.0.100.1", "t0p-secret")
            #expect(fresh.contains("Too many failed OPER attempts"), "\(fresh)")
        }
    }
}
