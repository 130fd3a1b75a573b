import Foundation
import NIOConcurrencyHelpers
import Testing

/// The `hearth` executable as an operator runs it: `serve` with flags, and a clean stop on SIGTERM.
@Suite struct ExecutableTests {
    /// Starts `hearth serve` on `dir` with free ports; returns it, its output so far and its IRC port.
    static func serve(_ dir: String, _ extra: [String] = []) async throws -> (Process, NIOLockedValueBox<String>, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AccountTests.hearthBinary())
        process.arguments =
            ["serve", "--host", "127.0.0.1", "--irc-port", "0", "--http-port", "0", "--data-dir", dir] + extra
        let output = NIOLockedValueBox("")
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.withLockedValue { $0 += text }
        }
        try process.run()
        var port: Int?
        for _ in 0..<2000 {
            let text = output.withLockedValue { $0 }
            if let range = text.range(of: "nc localhost ") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return (process, output, try #require(port, "server did not report its port: \(output.withLockedValue { $0 })"))
    }

    @Test func serveStartsAndStopsCleanlyOnSigterm() async throws {
        let dir = TestServer.tempDirectory()
        let (process, output, ircPort) = try await Self.serve(
            dir, ["--server-name", "exec.hearth", "--description", "Executable test"])
        let client = try await TestClient.connect(port: ircPort)
        try await client.send("NICK exec")
        try await client.send("USER exec 0 * :Exec")
        try await client.expect(":exec.hearth 001 exec")
        try await client.send("WHOIS exec")
        try await client.expect(" 312 exec exec exec.hearth :Executable test")
        process.terminate()  // SIGTERM
        try await client.expect("ERROR :Closing Link: 127.0.0.1 (Server shutting down)")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output.withLockedValue { $0 }.contains("Hearth stopped cleanly."))
        #expect(FileManager.default.fileExists(atPath: dir + "/hearth.sqlite"))
    }
}
