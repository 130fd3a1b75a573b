import Foundation
import HearthTesting
import NIOSSL
import Testing

/// IRC over TLS with a certificate made by scripts/make-cert.
@Suite struct TLSTests {
    /// A server with IRC over TLS on a free port, with a certificate from scripts/make-cert.
    static func tlsServer(configure: (inout TestConfig) -> Void = { _ in }) async throws -> (TestServer, Int) {
        let dir = TestServer.tempDirectory()
        let made = try await Programs.run(["bash", BotScriptTests.repo.path + "/scripts/make-cert", dir + "/tls"])
        #expect(made.status == 0, "\(made.output)")
        let server = try await TestServer.start(dataDirectory: dir) { config in
            config.tlsCertificatePath = dir + "/tls/cert.pem"
            config.tlsKeyPath = dir + "/tls/key.pem"
            config.tlsPort = 0
            configure(&config)
        }
        return (server, try await server.server.tlsPort())
    }

    /// Whether a client can register over TLS with this configuration; false when the
    /// handshake is refused and the connection closes without a welcome.
    static func registers(port: Int, _ configure: (inout TLSConfiguration) -> Void) async throws -> Bool {
        let client = try await TestClient.connectTLS(port: port, configure: configure)
        try? await client.send("NICK v\(UInt16.random(in: 0...9999))")
        try? await client.send("USER v 0 * :v")
        for _ in 0..<200 {
            if client.unread().contains(where: { $0.contains(" 001 ") }) {
                await client.close()
                return true
            }
            if client.isClosed { return false }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("neither a welcome nor a closed connection")
        return false
    }

    /// RFC 8996: TLS 1.0 and 1.1 are refused, and so are TLS 1.2 suites without forward
    /// secrecy or AEAD; 1.2 with a modern suite and 1.3 work.
    @Test func onlyTLS12AndNewerWithModernCiphers() async throws {
        let (started, port) = try await Self.tlsServer()
        try await stopping(started) { server async throws in
            #expect(
                try await !Self.registers(port: port) {
                    $0.minimumTLSVersion = .tlsv1
                    $0.maximumTLSVersion = .tlsv1
                })
            #expect(
                try await !Self.registers(port: port) {
                    $0.minimumTLSVersion = .tlsv11
                    $0.maximumTLSVersion = .tlsv11
                })
            #expect(
                try await !Self.registers(port: port) {
                    $0.maximumTLSVersion = .tlsv12
                    $0.cipherSuiteValues = [.TLS_RSA_WITH_AES_128_CBC_SHA, .TLS_RSA_WITH_AES_256_GCM_SHA384]
                })
            #expect(
                try await Self.registers(port: port) {
                    $0.minimumTLSVersion = .tlsv12
                    $0.maximumTLSVersion = .tlsv12
                })
            #expect(try await Self.registers(port: port) { $0.minimumTLSVersion = .tlsv13 })
        }
    }

    @Test func tlsClientsRegisterAndChatWithPlainOnes() async throws {
        let (started, port) = try await Self.tlsServer()
        try await stopping(started) { server async throws in
            #expect(port > 0)
            let secure = try await TestClient.connectTLS(port: port)
            try await secure.send("NICK safe")
            try await secure.send("USER safe 0 * :Safe")
            try await secure.expectNumeric("001")
            try await secure.send("JOIN #tls")
            try await secure.expectNumeric("366")
            let plain = try await TestClient.irc(server, nick: "open")
            try await plain.send("JOIN #tls")
            try await plain.expectNumeric("366")
            try await plain.send("PRIVMSG #tls :hello over plain TCP")
            try await secure.expect(":open!~open@\(server.localHost) PRIVMSG #tls :hello over plain TCP")
            try await secure.send("PRIVMSG #tls :hello over TLS")
            try await plain.expect("PRIVMSG #tls :hello over TLS")
            // The TLS port speaks only TLS: plain text there gets nowhere.
            let confused = try await TestClient.connect(port: port)
            try? await confused.send("NICK nope")
            try? await confused.send("USER nope 0 * :n")
            try await confused.expectClosed()
            #expect(!confused.unread().contains { $0.contains(" 001 ") })
        }
    }
}

/// The web side over TLS: pages with Secure cookies and IRC over WebSocket as wss://.
@Suite struct HTTPSTests {
    @Test func pagesAndWebSocketsOverTLS() async throws {
        let dir = TestServer.tempDirectory()
        let made = try await Programs.run(["bash", BotScriptTests.repo.path + "/scripts/make-cert", dir + "/tls"])
        #expect(made.status == 0, "\(made.output)")
        let started = try await TestServer.start(dataDirectory: dir) { config in
            config.tlsCertificatePath = dir + "/tls/cert.pem"
            config.tlsKeyPath = dir + "/tls/key.pem"
            (config.tlsPort, config.httpsPort) = (0, 0)
        }
        try await stopping(started) { server in
            let port = try await server.server.httpsPort()
            #expect(port > 0)
            let irc = try await TestClient.irc(server, nick: "plainirc")
            let (web, _) = try await TestClient.connectWebSocket(port: port, path: "/irc", tls: true)
            try await web.send("NICK secureweb")
            try await web.send("USER s 0 * :s")
            try await web.expectNumeric("376")
            try await web.send("PRIVMSG plainirc :over wss")
            try await irc.expect(":secureweb!~s@\(server.localHost) PRIVMSG plainirc :over wss")
            // A page over HTTPS sets its cookies Secure; the plain port does not.
            let curl = try await Programs.run([
                "curl", "-sk", "-D", "-", "-o", "/dev/null", "https://127.0.0.1:\(port)/",
            ])
            #expect(curl.output.contains("HTTP/1.1 200"), "\(curl.output)")
            #expect(curl.output.contains("SameSite=Lax; HttpOnly; Secure"), "\(curl.output)")
            let plain = try await WebBrowser(server).get("/")
            #expect(plain.headers["set-cookie"]?.contains("Secure") == false)
        }
    }
}
