import Foundation
import HearthTesting
import Testing

/// SIGHUP and REHASH read the configuration file again: the MOTD, operators and the TLS pair
/// change while everyone stays connected; what needs a restart is said; a bad file changes
/// nothing. A real `hearth serve` process, as systemd's `ExecReload=kill -HUP` reaches it.
@Suite struct ReloadTests {
    /// The SHA-256 fingerprint of a PEM certificate, or of the one a TLS port presents.
    static func fingerprint(file: String) async throws -> String {
        try await Programs.run(["openssl", "x509", "-in", file, "-noout", "-fingerprint", "-sha256"]).output
    }

    static func fingerprint(port: Int) async throws -> String {
        let script =
            "openssl s_client -connect 127.0.0.1:\(port) </dev/null 2>/dev/null | "
            + "openssl x509 -noout -fingerprint -sha256"
        return try await Programs.run(["bash", "-c", script]).output
    }

    static func makeCert(_ directory: String) async throws {
        let made = try await Programs.run(["bash", BotScriptTests.repo.path + "/scripts/make-cert", directory])
        #expect(made.status == 0, "\(made.output)")
    }

    static func waitFor(_ text: String, in running: Programs.Running, after count: Int = 0) async throws {
        try await waitUntil("the server to log \(text): \(running.output)") {
            running.output.components(separatedBy: text).count - 1 > count
        }
    }

    @Test func hangUpAndRehashReloadWhileClientsStayConnected() async throws {
        let dir = TestServer.tempDirectory()
        try await Self.makeCert(dir + "/tls")
        let config = dir + "/hearth.yaml"
        func write(_ text: String) throws { try text.write(toFile: config, atomically: true, encoding: .utf8) }
        // TLS on free ports and the MOTD file, and what a step adds.
        func write(adding extra: String) throws {
            let tls = "tls-cert: \(dir)/tls/cert.pem\ntls-key: \(dir)/tls/key.pem\ntls-port: 0\nhttps-port: 0\n"
            try write(tls + "motd-file: \(dir)/motd\n" + extra)
        }
        try "Welcome, first edition".write(toFile: dir + "/motd", atomically: true, encoding: .utf8)
        try write(adding: "")
        let first = try await Self.fingerprint(file: dir + "/tls/cert.pem")
        let (_, finished) = try await Programs.serving(dataDirectory: dir + "/data", ["--config", config]) {
            running, port in
            // The TLS listener may say so after the "is up" line the harness waits for.
            try await Self.waitFor("IRC over TLS listening on 127.0.0.1:", in: running)
            let output = running.output
            let tlsLine = try #require(output.range(of: "IRC over TLS listening on 127.0.0.1:"), "\(output)")
            let tlsPort = try #require(Int(output[tlsLine.upperBound...].prefix { $0.isNumber }))
            #expect(try await Self.fingerprint(port: tlsPort) == first)
            let stays = try await TestClient.connect(port: port)
            try await stays.send("NICK stays")
            try await stays.send("USER s 0 * :s")
            try await stays.expect("Welcome, first edition")

            // New MOTD, a new operator, a new certificate and key (same paths, as a renewal
            // does) and a port change that needs a restart.
            try "Welcome, second edition".write(toFile: dir + "/motd", atomically: true, encoding: .utf8)
            try await Self.makeCert(dir + "/tls")
            let second = try await Self.fingerprint(file: dir + "/tls/cert.pem")
            #expect(second != first)
            try write(adding: "oper: [root:r00t-pass]\nserver-name: renamed.hearth\n")
            running.hangUp()
            try await Self.waitFor("reloaded: oper, motd; needs a restart: server-name", in: running)
            try await stays.send("MOTD")
            try await stays.expect("Welcome, second edition")
            try await stays.send("OPER root r00t-pass")
            try await stays.expectNumeric("381")
            #expect(try await Self.fingerprint(port: tlsPort) == second)

            // A bad file: nothing changes, and the operator is told why.
            try write("motd-file: \(dir)/motd\noper: [root:r00t-pass]\nfloood: 1\n")
            try "Welcome, third edition".write(toFile: dir + "/motd", atomically: true, encoding: .utf8)
            try await stays.send("REHASH")
            try await stays.expectNumeric("382")
            try await stays.expect("REHASH: nothing changed: \(config):3: unknown key floood")
            running.hangUp()
            try await Self.waitFor("reload refused, nothing changed", in: running, after: 1)
            try await stays.send("MOTD")
            try await stays.expect("Welcome, second edition")
            #expect(try await Self.fingerprint(port: tlsPort) == second)

            // Fixed, REHASH takes it; the new name still waits for a restart (it is not taken
            // by the reload before, so it is still a change).
            try write(adding: "oper: [root:r00t-pass]\nserver-name: renamed.hearth\n")
            try await stays.send("REHASH")
            try await stays.expect("REHASH: reloaded: motd; needs a restart: server-name")
            // Back to the name it runs with: nothing waits any more.
            try write(adding: "oper: [root:r00t-pass]\n")
            try await stays.send("REHASH")
            try await stays.expect("REHASH: reloaded, nothing changed")
            try await stays.send("MOTD")
            try await stays.expect("Welcome, third edition")

            // Only operators may.
            let other = try await TestClient.connect(port: port)
            try await other.send("NICK other")
            try await other.send("USER o 0 * :o")
            try await other.expectNumeric("001")
            try await other.send("REHASH")
            try await other.expectNumeric("481")
            try await stays.send("PING :still-here")
            try await stays.expect("PONG")
            #expect(!stays.isClosed)
        }
        #expect(finished.status == 0, "\(finished.output)")
    }

    @Test func aServerWithoutAFileSaysSoOnRehash() async throws {
        let server = try await TestServer.start { $0.server.operators = ["root": "r00t-pass"] }
        let client = try await MetricsTests.irc(server, "opal")
        try await client.send("OPER root r00t-pass")
        try await client.expectNumeric("381")
        try await client.send("REHASH")
        try await client.expectNumeric("382")
        try await client.expect("started without a configuration file")
    }
}
