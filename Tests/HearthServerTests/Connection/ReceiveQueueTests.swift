import Foundation
import HearthProtocol
import HearthTesting
import NIOCore
import Testing

@testable import HearthServer

/// The receive queue (security round two: "a pipe keeps a ghost talking for minutes"):
/// input held for flood control is bounded in bytes, a half-closed client cannot keep
/// posting on its own, and a short piped one-liner is still answered in full.
extension LimitCrossingTests {
    /// `count` lines of exactly `bytes` bytes each, CR LF included.
    static func lines(_ count: Int, bytes: Int, to target: String) -> String {
        (0..<count).map { index in
            let head = "PRIVMSG \(target) :\(index) "
            return head + String(repeating: "x", count: bytes - 2 - head.utf8.count) + "\r\n"
        }.joined()
    }

    static func registered(_ server: TestServer, _ nick: String) async throws -> TestClient {
        try await TestClient.irc(server, nick: nick)
    }

    @Test func receiveQueueAtItsLimitAndOnePast() async throws {
        // loopback is exempt otherwise
        try await withServer {
            $0.floodControl = true
        } run: { server in
            let sink = try await Self.registered(server, "sink")
            let lineBytes = 64
            // At the limit: everything sent fits the queue even if no line went through at once.
            let patient = try await Self.registered(server, "patient")
            try await patient.sendRaw(
                Array(Self.lines(ConnectionHandler.maxHeldBytes / lineBytes, bytes: lineBytes, to: "sink").utf8))
            try await sink.expect("PRIVMSG sink :0 x")
            try await Task.sleep(for: .milliseconds(300))
            #expect(!patient.isClosed && !patient.unread().contains { $0.contains("Excess Flood") })
            await patient.close()

            // One past: whatever flood control lets through at once (its burst and one more),
            // the rest is one byte more than the queue holds.
            let pushy = try await Self.registered(server, "pushy")
            let through = Int(FloodTiers.standard.burst) + 1
            let count = ConnectionHandler.maxHeldBytes / lineBytes + through
            let flood = Self.lines(count, bytes: lineBytes, to: "sink") + "PING :x\r\n"
            #expect(flood.utf8.count - through * lineBytes == ConnectionHandler.maxHeldBytes + 9)
            try await pushy.sendRaw(Array(flood.utf8))
            try await pushy.expect("ERROR :Closing Link: 127.0.0.1 (Excess Flood)")
            let witness = try await Self.registered(server, "witness")
            try await witness.send("ISON pushy patient sink")
            try await witness.expect(" 303 witness :sink")
        }
    }

    /// `JOIN`, 200 lines and `QUIT`, then a half-close (`nc -q0`): the ghost goes at once
    /// with Excess Flood instead of posting for 50 seconds; the channel sees its QUIT.
    @Test func aHalfClosedGhostDoesNotKeepPosting() async throws {
        try await withServer {
            $0.floodControl = true
        } run: { server in
            let watcher = try await Self.registered(server, "watcher")
            try await watcher.send("JOIN #room")
            try await watcher.expectNumeric("366")
            let ghost = try await Self.registered(server, "ghost")
            try await ghost.send("JOIN #room")
            try await ghost.expectNumeric("366")
            let script = (1...200).map { "PRIVMSG #room :line \($0)\r\n" }.joined() + "QUIT :done\r\n"
            try await ghost.sendThenHalfClose(Array(script.utf8))
            try await ghost.expect("ERROR :Closing Link: 127.0.0.1 (Excess Flood)")
            try await watcher.expect(":ghost!~ghost@\(server.localHost) QUIT :Excess Flood")
            try await watcher.send("ISON ghost")
            try await watcher.expect(" 303 watcher :")
            let relayed = watcher.unread().filter { $0.contains("PRIVMSG #room :line") }.count
            #expect(relayed < ConnectionHandler.maxHeldLinesAfterInputClosed, "\(relayed) lines relayed")
        }
    }

    /// A plain-mode one-liner of a few dozen lines piped into nc is answered in full, even
    /// with flood control pacing it (`printf '…' | nc host 6667`).
    @Test func aPipedOneLinerIsStillAnsweredInFull() async throws {
        try await withServer {
            $0.floodControl = true
        } run: { server in
            let friend = try await Self.registered(server, "friend")
            let count = 30
            let nc = try await server.connect()
            let script = (1...count).map { "/msg friend note \($0)\n" }.joined()
            try await nc.sendThenHalfClose(Array(script.utf8))
            try await friend.expect("PRIVMSG friend :note \(count)")
            try await nc.expectClosed()
            #expect(!nc.unread().contains { $0.contains("Excess Flood") })
        }
    }
}
