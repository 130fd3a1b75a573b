import Foundation
import HearthTesting
import NIOConcurrencyHelpers
import Testing

/// The `hearth` executable as an operator runs it: `serve` with flags, and a clean stop on SIGTERM.
@Suite struct ExecutableTests {
    /// Runs `hearth serve` on `dir` with free ports while `body` runs with it and its IRC port;
    /// then stops it with SIGTERM, waits for it and says how it ended.
    static func serving<T: Sendable>(
        _ dir: String, _ extra: [String] = [], _ body: (Programs.Running, Int) async throws -> T
    ) async throws -> (T, Programs.Finished) {
        let arguments = [
            Programs.hearthBinary(), "serve", "--host", "127.0.0.1", "--irc-port", "0", "--http-port", "0",
            "--data-dir", dir,
        ]
        return try await Programs.whileRunning(arguments + extra) { running in
            var port: Int?
            for _ in 0..<2000 {
                if let range = running.output.range(of: "nc localhost ") {
                    port = Int(running.output[range.upperBound...].prefix { $0.isNumber })
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            return try await body(running, try #require(port, "server did not report its port: \(running.output)"))
        }
    }

    @Test func serveStartsAndStopsCleanlyOnSigterm() async throws {
        let dir = TestServer.tempDirectory()
        let (_, finished) = try await Self.serving(
            dir, ["--server-name", "exec.hearth", "--description", "Executable test"]
        ) { running, ircPort in
            let client = try await TestClient.connect(port: ircPort)
            try await client.send("NICK exec")
            try await client.send("USER exec 0 * :Exec")
            try await client.expect(":exec.hearth 001 exec")
            try await client.send("WHOIS exec")
            try await client.expect(" 312 exec exec exec.hearth :Executable test")
            running.terminate()
            try await client.expect("ERROR :Closing Link: 127.0.0.1 (Server shutting down)")
        }
        #expect(finished.status == 0)
        #expect(finished.output.contains("Hearth stopped cleanly."), "\(finished.output)")
        #expect(FileManager.default.fileExists(atPath: dir + "/hearth.sqlite"))
    }
}
