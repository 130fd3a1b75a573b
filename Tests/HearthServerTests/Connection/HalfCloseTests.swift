import HearthTesting
import Testing

@testable import HearthServer

/// A client whose last bytes and FIN arrive together (`printf '…' | nc` on a fast link) is
/// answered and then closed, on either I/O layer (issue 34: on `--io epoll` the read that
/// sees the end of input never ran, so the connection stayed until the ping timeout and a
/// ghost kept posting at flood-control pace). Many trials: it once failed one run in three.
@Suite struct HalfCloseTests {
    static let trials = 30

    @Test func aPipedOneLinerIsAnsweredThenClosed() async throws {
        try await withServer {
            $0.floodControl = true
        } run: { server in
            for trial in 1...Self.trials {
                let nc = try await server.connect()
                let script = "NICK piped\(trial)\r\nUSER a 0 * :a\r\nPING :trial\(trial)\r\n"
                try await nc.sendThenHalfClose(Array(script.utf8))
                try await nc.expect("PONG test.hearth :trial\(trial)")
                try await nc.expectClosed()
            }
        }
    }

    /// 200 lines and the FIN at once (`nc -q0`): as `ConnectionHandler.maxHeldLinesAfterInputClosed`
    /// says, more lines held after the half-close than that make a ghost, closed at once
    /// ("Excess Flood") after what flood control let through, instead of posting for a minute
    /// and staying online for ISON. Flood control's buckets refill on the server's clock, which
    /// stands still here but for a minute before each trial: on a loaded machine a bucket
    /// refilled by wall-clock time while the ghost's lines were read let a 17th through.
    @Test func aHalfClosedGhostGoesAtOnce() async throws {
        let clock = TestClock("2026-03-02T10:00:00Z")
        try await withServer {
            $0.floodControl = true
            $0.clock = clock.hearth
        } run: { server in
            let watcher = try await TestClient.irc(server, nick: "watcher")
            try await watcher.send("JOIN #room")
            try await watcher.expectNumeric("366")
            for trial in 1...Self.trials {
                let ghost = try await TestClient.irc(server, nick: "ghost\(trial)")
                try await ghost.send("JOIN #room")
                try await ghost.expectNumeric("366")
                try await watcher.expect("ghost\(trial)'s JOIN") {
                    $0.hasPrefix(":ghost\(trial)!") && $0.hasSuffix(" JOIN #room")
                }
                // Every bucket full again (the watcher's ISONs, the ghost's registration and JOIN).
                clock.set(Self.minutes(trial))
                let script = (1...200).map { "PRIVMSG #room :line \($0)\r\n" }.joined()
                try await ghost.sendThenHalfClose(Array(script.utf8))
                try await ghost.expect("ERROR :Closing Link: 127.0.0.1 (Excess Flood)")
                try await ghost.expectClosed()
                // What the channel saw of it: some lines, then its QUIT.
                var relayed = 0
                while true {
                    let line = try await watcher.expect("ghost\(trial)'s lines and QUIT") {
                        $0.contains("PRIVMSG #room :line") || $0.contains(" QUIT ")
                    }
                    if line.contains("PRIVMSG") {
                        relayed += 1
                        continue
                    }
                    #expect(line.hasPrefix(":ghost\(trial)!") && line.hasSuffix(" QUIT :Excess Flood"), "\(line)")
                    break
                }
                // No more than flood control let through at once (nio and epoll alike).
                #expect(relayed <= Int(FloodTiers.standard.burst), "\(relayed) lines relayed")
                // And gone: not online for ISON either.
                try await watcher.send("ISON ghost\(trial)")
                let ison = try await watcher.expectNumeric("303")
                #expect(ison.hasSuffix(" 303 watcher :"), "\(ison)")
            }
        }
    }

    /// A time `n` minutes after the clock's start.
    static func minutes(_ n: Int) -> String { "2026-03-02T\(10 + n / 60):\(String(format: "%02d", n % 60)):00Z" }
}
