import Foundation
import HearthTesting
import NIOSSL
import Testing

/// SASL EXTERNAL: the TLS port asks for a client certificate, a logged-in user adds its
/// fingerprint with `!cert add`, and that certificate then logs in to the account alone.
@Suite struct SaslExternalTests {
    /// A self-signed client certificate made now, and its SHA-256 fingerprint as openssl shows it.
    static func clientCertificate() async throws -> (configure: (inout TLSConfiguration) -> Void, fingerprint: String) {
        let dir = TestServer.tempDirectory() + "/client"
        let made = try await Programs.run(["bash", BotScriptTests.repo.path + "/scripts/make-cert", dir])
        #expect(made.status == 0, "\(made.output)")
        let shown = try await Programs.run(
            ["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", dir + "/cert.pem"])
        // "sha256 Fingerprint=AB:CD:…"
        let fingerprint = String(shown.output.split(separator: "=").last ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: ":", with: "").lowercased()
        #expect(fingerprint.count == 64, "\(shown.output)")
        let chain = try NIOSSLCertificate.fromPEMFile(dir + "/cert.pem")
        let key = try NIOSSLPrivateKey(file: dir + "/key.pem", format: .pem)
        return (
            { configuration in
                configuration.certificateChain = chain.map { .certificate($0) }
                configuration.privateKey = .privateKey(key)
            }, fingerprint
        )
    }

    /// CAP, then AUTHENTICATE EXTERNAL with an empty authzid; returns the numeric that ended it.
    static func external(_ client: TestClient, authzid: String = "+") async throws -> String {
        try await client.send("CAP REQ :sasl")
        try await client.expect("CAP * ACK :sasl")
        try await client.send("AUTHENTICATE EXTERNAL")
        try await client.expect("AUTHENTICATE +")
        try await client.send("AUTHENTICATE \(authzid)")
        return try await client.expect("903 or 904") { $0.contains(" 903 ") || $0.contains(" 904 ") }
    }

    @Test func aCertificateAddedToAnAccountLogsInToIt() async throws {
        let (started, port) = try await TLSTests.tlsServer()
        try await stopping(started) { server async throws in
            let (withCertificate, fingerprint) = try await Self.clientCertificate()
            try await TestClient.register(server, "ann", "s3cret-pass")
            try await TestClient.register(server, "bob", "s3cret-pass")

            // Nobody has added it yet: it logs in to nothing.
            let early = try await TestClient.connectTLS(port: port, configure: withCertificate)
            try await early.send("CAP LS 302")
            try await early.expect("EXTERNAL")
            #expect(try await Self.external(early).contains("no account has this certificate"))

            // ann, logged in over TLS with it, adds this connection's certificate.
            let ann = try await TestClient.connectTLS(port: port, configure: withCertificate)
            try await ann.send("NICK annie")
            try await ann.send("USER ann 0 * :Ann")
            try await ann.expectNumeric("001")
            try await ann.send("PRIVMSG hearth :!cert add")
            try await ann.expect("you need to log in first")
            try await ann.send("PRIVMSG hearth :!login ann s3cret-pass")
            try await ann.expect("You are now logged in as ann")
            try await ann.send("PRIVMSG hearth :!cert add")
            try await ann.expect("Added \(fingerprint)")
            try await ann.send("PRIVMSG hearth :!cert list")
            try await ann.expect("  \(fingerprint)")

            // The certificate now logs in as ann, before registration completes.
            let phone = try await TestClient.connectTLS(port: port, configure: withCertificate)
            #expect(try await Self.external(phone).contains(" 903 "))
            try await phone.send("NICK ann")
            try await phone.send("USER ann 0 * :Ann")
            try await phone.send("CAP END")
            try await phone.expectNumeric("001")
            try await phone.send("PRIVMSG hearth :!whoami")
            try await phone.expect("logged in as ann")

            // An authzid naming another account, no certificate, or plain TCP: 904.
            let asBob = try await TestClient.connectTLS(port: port, configure: withCertificate)
            let bob = Data("bob".utf8).base64EncodedString()
            #expect(try await Self.external(asBob, authzid: bob).contains("belongs to another account"))
            let bare = try await TestClient.connectTLS(port: port)
            #expect(try await Self.external(bare).contains("no client certificate"))
            let plain = try await server.connect()
            #expect(try await Self.external(plain).contains("no client certificate"))

            // Another account cannot take it; once removed it logs in to nobody.
            let bobTLS = try await TestClient.connectTLS(port: port, configure: withCertificate)
            try await bobTLS.send("NICK bobby")
            try await bobTLS.send("USER bob 0 * :Bob")
            try await bobTLS.expectNumeric("001")
            try await bobTLS.send("PRIVMSG hearth :!login bob s3cret-pass")
            try await bobTLS.expect("You are now logged in as bob")
            try await bobTLS.send("PRIVMSG hearth :!cert add")
            try await bobTLS.expect("belongs to another account")
            try await ann.send("PRIVMSG hearth :!cert del \(fingerprint.uppercased())")
            try await ann.expect("Removed")
            let late = try await TestClient.connectTLS(port: port, configure: withCertificate)
            #expect(try await Self.external(late).contains("no account has this certificate"))
        }
    }
}
