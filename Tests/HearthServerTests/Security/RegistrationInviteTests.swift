import HearthAccounts
import HearthTesting
import Testing

/// Issue 33 item 8: an operator's invite code (`hearth invite`, made while the server runs)
/// lets N accounts register past the accounts-per-address limit; a code is claimed before the
/// account is made, so registrations racing with one code cannot both skip the limit.
extension SecretsTests {
    static func register(_ server: TestServer, _ line: String) async throws -> TestClient {
        let nc = try await Self.plain(server, from: "127.0.0.8")
        try await nc.send(line)
        return nc
    }

    @Test func anOperatorsInviteLetsItsUsesRegisterPastTheLimit() async throws {
        try await withServer {
            $0.floodControl = true
            $0.registrationsPerAddress = 1
        } run: { server in
            let dir = server.dataDirectory
            for bad in [
                ["--uses", "0"], ["--uses", "\(AccountService.maxRegistrationInviteUses + 1)"], ["--expires", "0"],
            ] {
                let refused = try await Programs.hearth(["invite"] + bad + ["--data-dir", dir])
                #expect(refused.status != 0 && refused.output.contains("must be 1 to"), "\(refused.output)")
            }
            let made = try await Programs.hearth(["invite", "--uses", "2", "--expires", "3", "--data-dir", dir])
            #expect(made.status == 0, "\(made.output)")
            let code = try FamilyTests.code(in: made.output)
            let amy = try await Self.register(server, "!register amy s3cret-pass")
            try await amy.expect("Welcome to Hearth, amy!")
            try await amy.send("/quit")
            try await amy.expect("Bye!")
            let ben = try await Self.register(server, "!register ben s3cret-pass")
            let refusal = try await ben.expect("were made from your address this hour")
            #expect(refusal.hasSuffix("(or register with an invite code)"))
            // A name taken: nothing made, and the code's use is given back.
            try await ben.send("!register amy s3cret-pass \(code)")
            try await ben.expect("the name amy is taken")
            try await ben.send("!register ben s3cret-pass \(code.lowercased())")
            try await ben.expect("Welcome to Hearth, ben!")
            try await (try await Self.register(server, "!register cy s3cret-pass \(code)")).expect(
                "Welcome to Hearth, cy!")
            let dot = try await Self.register(server, "!register dot s3cret-pass \(code)")
            try await dot.expect("that invite code is unknown, used or expired")
            #expect(try await server.sql.int("SELECT COUNT(*) FROM account") == 3)
            // Only the keyed hash is kept, and joining no family.
            let stored = try await server.sql.int(
                "SELECT COUNT(*) FROM registrationInvite WHERE usesLeft = 0 AND codeHash LIKE 'k1:%'")
            #expect(stored == 1)
            #expect(try await server.sql.int("SELECT COUNT(*) FROM familyMember") == 0)
        }
    }

    /// Two registrations at once with one family invite code: one skips the limit and joins,
    /// the other is refused and nothing is made for it.
    @Test func registrationsRacingWithOneFamilyCodeSkipTheLimitOnce() async throws {
        try await withServer {
            $0.floodControl = true
            $0.registrationsPerAddress = 1
        } run: { server in
            let ann = try await Self.register(server, "!register ann s3cret-pass")
            try await ann.expect("Welcome to Hearth, ann!")
            try await ann.send("!tree new Home")
            let code = try FamilyTests.code(in: try await ann.expect("Invite code for Home: "))
            var racers: [TestClient] = []
            for _ in 0..<2 { racers.append(try await Self.plain(server, from: "127.0.0.8")) }
            let answers = try await Self.together(racers, { "!register racer\($0) s3cret-pass \(code)" }) {
                $0.contains("Welcome to Hearth") || $0.contains("unknown, used or expired")
            }
            #expect(answers.filter { $0.contains("Welcome to Hearth") }.count == 1, "\(answers)")
            #expect(try await server.sql.int("SELECT COUNT(*) FROM account WHERE nameKey LIKE 'racer%'") == 1)
            #expect(try await server.sql.int("SELECT COUNT(*) FROM familyMember") == 2)
        }
    }
}
