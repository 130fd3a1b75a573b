import Foundation
import HearthProtocol
import HearthTesting
import NIOCore
import Testing

@testable import HearthServer

/// The receive queue (security round two: "a pipe keeps a ghost talking for minutes"):
/// input held for flood control is bounded in bytes and a short piped one-liner is still
/// answered in full; a half-closed ghost is `HalfCloseTests.aHalfClosedGhostGoesAtOnce`.
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
            let atLimit = ConnectionHandler.maxHeldBytes / lineBytes
            try await patient.sendRaw(Array(Self.lines(atLimit, bytes: lineBytes, to: "sink").utf8))
            try await sink.expect("PRIVMSG sink :0 x")
            // Every byte read by the server (held, or gone through to sink), or the connection closed.
            let core = server.server.core
            let client = try #require(
                core.chat.withLock { state in state.clients.values.first { state[$0].nick == "patient" } })
            try await waitUntil("the server to read all the lines") {
                let held = try await client.eventLoop.submit { client.socket.handler?.heldBytes }.get()
                let through = 1 + sink.unread().filter { $0.contains("PRIVMSG sink :") }.count
                return held == nil || held! + through * lineBytes >= atLimit * lineBytes
            }
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
