import Foundation
import GRDB
import HearthStore
import HearthTesting
import Testing

/// What signals do to a `hearth serve` started with flags only (as scripts/serve starts it,
/// no configuration file): SIGHUP reloads what can be reloaded and says what, never ends the
/// server (issue 33: it died at once, with no log line); SIGTERM and SIGINT end it after
/// writing every line it had acknowledged.
@Suite struct SignalTests {
    /// Lines a speaker posts, each acknowledged, before the signal.
    static let lines = 20

    @Test func hangUpWithoutAConfigFileReloadsTheMOTDFile() async throws {
        let dir = TestServer.tempDirectory()
        let motd = dir + "/motd"
        try "Welcome, first edition".write(toFile: motd, atomically: true, encoding: .utf8)
        let (_, finished) = try await Programs.serving(dataDirectory: dir + "/data", ["--motd-file", motd]) {
            running, port in
            let stays = try await TestClient.connect(port: port)
            try await stays.send("NICK stays")
            try await stays.send("USER s 0 * :s")
            try await stays.expect("Welcome, first edition")
            running.hangUp()
            try await ReloadTests.waitFor("reloaded, nothing changed", in: running)
            try "Welcome, second edition".write(toFile: motd, atomically: true, encoding: .utf8)
            running.hangUp()
            try await ReloadTests.waitFor("reloaded: motd", in: running)
            try await stays.send("MOTD")
            try await stays.expect("Welcome, second edition")
            try await stays.sync()
            #expect(!stays.isClosed)
        }
        #expect(finished.status == 0, "\(finished.output)")
        #expect(finished.output.contains("Hearth stopped cleanly."), "\(finished.output)")
    }

    /// A SIGHUP at any moment of `hearth serve` — the store opening and migrating, the server
    /// starting, running, shutting down — is at worst ignored: until the reloader listened, it
    /// ended the process (exit 129, nothing logged).
    @Test func hangUpsFromStartToStopNeverEndTheServer() async throws {
        let dir = TestServer.tempDirectory()
        let arguments = [
            Programs.hearthBinary(), "serve", "--host", "127.0.0.1", "--irc-port", "0", "--http-port", "0",
            "--data-dir", dir + "/data",
        ]
        let (_, finished) = try await Programs.whileRunning(arguments) { running in
            // Its code runs (the loader, which no program can keep from dying of a SIGHUP, is
            // done) once it ignores SIGHUP; from then on, until it is up, it gets one after another.
            var ignoring = false
            let patience = ContinuousClock.now + Self.patience
            while !ignoring && ContinuousClock.now < patience {
                ignoring = Self.ignoresHangUp(running.pid)
                if !ignoring { try await Task.sleep(for: .milliseconds(1)) }
            }
            #expect(ignoring, "hearth serve did not ignore SIGHUP while starting: \(running.output)")
            while !running.output.contains(" is up: ") && ContinuousClock.now < patience {
                running.hangUp()
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(running.output.contains(" is up: "), "\(running.output)")
            // Up, it reloads on SIGHUP.
            let reloads = running.output.components(separatedBy: "reloaded").count - 1
            running.hangUp()
            try await ReloadTests.waitFor("reloaded", in: running, after: reloads)
            running.terminate()
            let stopping = ContinuousClock.now + Self.patience
            while !running.output.contains("Hearth stopped cleanly.") && ContinuousClock.now < stopping {
                running.hangUp()
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        #expect(finished.status == 0, "\(finished.output)")
        #expect(finished.output.contains("Hearth stopped cleanly."), "\(finished.output)")
    }

    /// How long the test looks again for what the process does: a bound for a busy machine
    /// (a debug build starting beside hundreds of tests), not a timing the test checks.
    static let patience = Duration.seconds(90)

    /// Whether the kernel says `pid` ignores or catches SIGHUP (its bit in SigIgn or SigCgt,
    /// /proc/PID/status): either way a SIGHUP no longer ends it. (Ignored from the start of
    /// `serve`, caught once the reloader listens: a poll may see either.)
    static func ignoresHangUp(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return ["SigIgn:", "SigCgt:"].contains { field in
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
                let mask = UInt64(line.dropFirst(field.count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & (1 << (UInt64(SIGHUP) - 1)) != 0
        }
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func acknowledgedLinesAreWrittenWhateverTheSignal(signal: Int32) async throws {
        let dir = TestServer.tempDirectory()
        let motd = dir + "/motd"
        try "Hello".write(toFile: motd, atomically: true, encoding: .utf8)
        let flags = ["--motd-file", motd, "--no-flood-control"]
        let (_, finished) = try await Programs.serving(dataDirectory: dir + "/data", flags) { running, port in
            let speaker = try await TestClient.connect(port: port)
            try await speaker.send("NICK speaker")
            try await speaker.send("USER s 0 * :s")
            try await speaker.expectNumeric("376")
            try await speaker.send("JOIN #keep")
            try await speaker.expectNumeric("366")
            for n in 1...Self.lines { try await speaker.send("PRIVMSG #keep :kept \(n)") }
            try await speaker.sync()  // every line handled: acknowledged
            running.send(signal)
            if signal == SIGHUP {
                try await ReloadTests.waitFor("reloaded", in: running)
                try await speaker.sync()
            } else {
                try await speaker.expect("Server shutting down")
                try await ReloadTests.waitFor("Hearth stopped cleanly.", in: running)
            }
        }
        #expect(finished.status == 0, "\(finished.output)")
        let database = try DatabaseQueue(path: dir + "/data/" + SQLiteStore.fileName)
        let kept = try await database.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM history WHERE text LIKE 'kept %'")
        }
        #expect(kept == Self.lines)
    }
}
