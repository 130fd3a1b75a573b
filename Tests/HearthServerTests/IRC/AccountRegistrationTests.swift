import Foundation
import HearthTesting
import Testing

/// `draft/account-registration`: REGISTER is `!register` from the client's own protocol.
@Suite struct AccountRegistrationTests {
    @Test func registerBeforeConnectLogsInAndGivesRecoveryCodes() async throws {
        try await withServer { server in
            let c = try await server.connect()
            try await c.send("CAP LS 302")
            try await c.expect("draft/account-registration=before-connect,custom-account-name ")
            try await c.send("CAP REQ :draft/account-registration standard-replies")
            try await c.send("NICK ann")
            try await c.send("REGISTER * * s3cret-pass")
            try await c.expect(" 900 ann ann!user@\(server.localHost) ann :You are now logged in as ann")
            try await c.expect("REGISTER SUCCESS ann :Welcome to Hearth, ann!")
            let note = try await c.expect("NOTE REGISTER RECOVERY_CODES ann :")
            let code = try #require(note.split(separator: " ").last.map(String.init))
            try await c.send("USER ann 0 * :Ann")
            try await c.send("CAP END")
            try await c.expectNumeric("001")

            // The codes are the account's own: one resets its password, as after !register.
            let other = try await TestClient.irc(server, nick: "stranger")
            try await other.send("PRIVMSG hearth :!recover ann \(code) n3w-s3cret-pass")
            try await other.expect("Password reset for ann; you are logged in. 7 recovery codes left.")
        }
    }

    @Test func registerKeepsTheRulesOfBangRegister() async throws {
        try await withServer(configure: {
            $0.floodControl = true  // (else loopback is exempt from the accounts-per-address limit)
            $0.registrationsPerAddress = 2
        }) { server in
            let c = try await TestClient.irc(server, nick: "bea")
            try await c.send("REGISTER * * short")
            try await c.expect("FAIL REGISTER WEAK_PASSWORD bea :register: passwords need at least")
            try await c.send("REGISTER root * s3cret-pass")
            try await c.expect("FAIL REGISTER ACCOUNT_EXISTS root :register: the name root is reserved")
            try await c.send("REGISTER b@d * s3cret-pass")
            try await c.expect("FAIL REGISTER BAD_ACCOUNT_NAME b@d :")
            try await c.send("REGISTER * not-an-address s3cret-pass")
            try await c.expect("FAIL REGISTER INVALID_EMAIL bea :")
            // Someone online holds the nick: not registered from under them.
            _ = try await TestClient.irc(server, nick: "cat")
            try await c.send("REGISTER cat * s3cret-pass")
            try await c.expect("FAIL REGISTER ACCOUNT_EXISTS cat :register: someone online is using the nick cat")
            // Any free name (custom-account-name), with an email address.
            try await c.send("REGISTER bea2 bea@example.org s3cret-pass")
            try await c.expect("REGISTER SUCCESS bea2 :")
            try await c.send("REGISTER * * s3cret-pass")
            try await c.expect("FAIL REGISTER ALREADY_AUTHENTICATED bea :")

            // The accounts-per-address limit counts REGISTER and !register alike.
            let d = try await TestClient.irc(server, nick: "dan")
            try await d.send("PRIVMSG hearth :!register dan s3cret-pass")
            try await d.expect("Welcome to Hearth, dan!")
            let e = try await TestClient.irc(server, nick: "eve")
            try await e.send("REGISTER * * s3cret-pass")
            try await e.expect("FAIL REGISTER TEMPORARILY_UNAVAILABLE eve :register: 2 accounts were made")
            try await e.send("REGISTER dan * s3cret-pass")
            try await e.expect("FAIL REGISTER ")
        }
    }

    @Test func operatorSettingsShapeTheCapAndTheRules() async throws {
        try await withServer(configure: {
            $0.registerBeforeConnect = false
            $0.registerEmailRequired = true
        }) { server in
            let c = try await server.connect()
            try await c.send("CAP LS 302")
            try await c.expect("draft/account-registration=custom-account-name,email-required ")
            try await c.send("NICK fay")
            try await c.send("REGISTER * fay@example.org s3cret-pass")
            try await c.expect("FAIL REGISTER COMPLETE_CONNECTION_REQUIRED fay :")
            try await c.send("USER fay 0 * :Fay")
            try await c.send("CAP END")
            try await c.expectNumeric("001")
            try await c.send("REGISTER * * s3cret-pass")
            try await c.expect("FAIL REGISTER INVALID_EMAIL fay :")
            // The bot's !register needs one too: the rule is the account service's.
            try await c.send("PRIVMSG hearth :!register fay s3cret-pass")
            try await c.expect("this server needs an email address for a new account")
            try await c.send("REGISTER * fay@example.org s3cret-pass")
            try await c.expect("REGISTER SUCCESS fay :")
            // Hearth sends no mail: nothing waits for a code.
            try await c.send("VERIFY fay 123456")
            try await c.expect("FAIL VERIFY INVALID_CODE fay :")
        }
    }
}
