import Foundation
import HearthServer
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
        try await Programs.serving(dataDirectory: dir, extra, body)
    }

    /// With either I/O layer on the IRC port.
    @Test(arguments: IOMode.allCases) func serveStartsAndStopsCleanlyOnSigterm(io: IOMode) async throws {
        let dir = TestServer.tempDirectory()
        let (_, finished) = try await Self.serving(
            dir, ["--server-name", "exec.hearth", "--description", "Executable test", "--io", io.rawValue]
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
        #expect(finished.output.contains("(I/O: \(io.rawValue))"), "\(finished.output)")
        #expect(FileManager.default.fileExists(atPath: dir + "/hearth.sqlite"))
    }
}

/// `--database` as an operator meets it: a mistake is one line and a non-zero exit.
@Suite struct DatabaseOptionTests {
    @Test func aWrongDatabaseIsOneLineAndANonZeroExit() async throws {
        let dir = TestServer.tempDirectory()
        let good = try await TestPostgres.freshDatabase("cli")
        var wrong = good
        wrong.password = "not-it"
        let cases: [([String], String)] = [
            (
                ["serve", "--irc-port", "0", "--http-port", "0", "--database", "mysql://u@h/d"],
                "must start with postgres://"
            ),
            (
                [
                    "user", "add", "bob", "s3cret-pass", "--database",
                    "postgres://\(wrong.user):not-it@\(wrong.host):\(wrong.port)/\(wrong.database)",
                ], "wrong password"
            ),
            (["backup", dir + "/b.sqlite", "--database", "postgres://u@h/d"], "use pg_dump"),
            (["restore", dir + "/b.sqlite", "--database", "postgres://u@h/d"], "use pg_restore"),
        ]
        for (arguments, message) in cases {
            let result = try await Programs.hearth(arguments + ["--data-dir", dir])
            let errors = result.output.split(separator: "\n").filter { $0.hasPrefix("Error:") }
            #expect(result.status != 0 && result.output.contains(message), "\(arguments): \(result.output)")
            // One line saying what is wrong; no usage dump, no stack trace.
            #expect(errors.count == 1 && !result.output.contains("USAGE") && !result.output.contains("Fatal error"))
        }
        // The same account command with the right URL works, on the database named.
        let url = "postgres://\(good.user):\(good.password ?? "")@\(good.host):\(good.port)/\(good.database)"
        let added = try await Programs.hearth([
            "user", "add", "bob", "s3cret-pass", "--database", url, "--data-dir", dir,
        ])
        #expect(added.status == 0 && added.output.contains("created account bob"), "\(added.output)")
        #expect(added.output.contains("PostgreSQL at"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/hearth.sqlite"))
    }
}
