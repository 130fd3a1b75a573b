import Foundation
import Testing

/// IRC over TLS with a certificate made by scripts/make-cert.
@Suite struct TLSTests {
    @Test func tlsClientsRegisterAndChatWithPlainOnes() async throws {
        let dir = TestServer.tempDirectory()
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["bash", BotScriptTests.repo.path + "/scripts/make-cert", dir + "/tls"]
        make.standardOutput = FileHandle.nullDevice
        try make.run()
        make.waitUntilExit()
        #expect(make.terminationStatus == 0)
        let server = try await TestServer.start(dataDirectory: dir) { config in
            config.tlsCertificatePath = dir + "/tls/cert.pem"
            config.tlsKeyPath = dir + "/tls/key.pem"
            config.tlsPort = 0
        }
        defer { Task { await server.stop() } }
        let port = await server.server.tlsPort()
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
        try await secure.expect(":open!~open@127.0.0.1 PRIVMSG #tls :hello over plain TCP")
        try await secure.send("PRIVMSG #tls :hello over TLS")
        try await plain.expect("PRIVMSG #tls :hello over TLS")
        // The TLS port speaks only TLS: plain text there gets nowhere.
        let confused = try await TestClient.connect(port: port)
        try? await confused.send("NICK nope")
        try? await confused.send("USER nope 0 * :n")
        var closed = false
        for _ in 0..<100 where !closed {
            try await Task.sleep(for: .milliseconds(50))
            closed = confused.isClosed
        }
        #expect(closed && !confused.unread().contains { $0.contains(" 001 ") })
    }
}
