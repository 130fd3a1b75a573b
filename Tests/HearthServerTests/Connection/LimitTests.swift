import Foundation
import HearthProtocol
import HearthTesting
import NIOCore
import NIOPosix
import Testing

@testable import HearthServer

/// Limits that protect everyone from one connection (or one address).
@Suite struct LimitTests {
    @Test func connectionsPerAddressAreLimited() async throws {
        try await withServer { config in
            config.floodControl = true  // loopback is exempt only when flood control is off
            config.maxConnectionsPerAddress = 3
        } run: { server in
            var held: [TestClient] = []
            for _ in 0..<3 { held.append(try await TestClient.plain(server)) }
            let refused = try await server.connect()
            try await refused.expect(
                "ERROR :Closing Link: 127.0.0.1 (Too many connections from your address: the limit is 3)")
            // One leaves: a place opens, once the server has let go of the connection.
            try await held[0].send("/quit")
            try await held[0].expect("Bye!")
            try await held[0].expectClosed()
            try await waitUntil("a place to open") {
                let again = try await server.connect()
                try await again.send("!whoami")
                let answer = try await again.expect("an answer or the refusal") {
                    $0.contains("You are guest") || $0.contains("Too many connections")
                }
                await again.close()
                return answer.contains("You are guest")
            }
        }
    }

    /// A client that never reads is dropped once its send queue passes the limit; the
    /// others keep getting their messages meanwhile.
    @Test func aClientThatNeverReadsIsDisconnected() async throws {
        try await withServer { server in
            // The sleeper: registers, joins, then never reads again (tiny receive buffer).
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            defer { Task { try? await group.shutdownGracefully() } }
            let sleeper = try await ClientBootstrap(group: group)
                .channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: 4096)
                .channelOption(ChannelOptions.autoRead, value: false)
                .connect(host: "127.0.0.1", port: server.ircPort).get()
            try await sleeper.writeAndFlush(ByteBuffer(string: "NICK sleepy\r\nUSER s 0 * :s\r\nJOIN #busy\r\n"))
            let talker = try await TestClient.irc(server, nick: "talker")
            let watcher = try await TestClient.irc(server, nick: "watcher")
            for c in [talker, watcher] {
                try await c.send("JOIN #busy")
                try await c.expectNumeric("366")
            }
            var inChannel = false
            for _ in 0..<50 where !inChannel {
                try await talker.send("NAMES #busy")
                inChannel = try await talker.expectNumeric("353").contains("sleepy")
                if !inChannel { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(inChannel)
            let text = String(repeating: "x", count: 400)
            var disconnected = false
            for round in 0..<200 {
                for i in 0..<100 { try await talker.send("PRIVMSG #busy :\(round)-\(i) \(text)") }
                try await talker.sync()
                // The watcher keeps up the whole time.
                try await watcher.expect("PRIVMSG #busy :\(round)-99 ")
                if watcher.unread().contains(where: { $0.contains("QUIT :SendQ exceeded") }) {
                    disconnected = true
                    break
                }
                try await talker.send("NAMES #busy")
                let names = try await talker.expectNumeric("353")
                if !names.contains("sleepy") {
                    disconnected = true
                    break
                }
            }
            #expect(disconnected, "the sleeper was never dropped")
            #expect(IRCLimits.maxSendQueueBytes == 1024 * 1024)
        }
    }
}

@Suite struct HTTPLimitTests {
    /// A client that opens an HTTP connection and trickles half a request is closed once the
    /// idle timeout passes (set short here), and the server keeps answering others.
    @Test func stalledHTTPClientsAreClosed() async throws {
        try await withServer {
            $0.httpIdleTimeout = 0.5
        } run: { server in
            let stalled = try await TestClient.connect(port: server.httpPort)
            // And never the rest. On a starved machine the idle timeout may close it before this
            // line is written, which is what the test waits for anyway.
            try? await stalled.send("GET /health HTTP/1.1")
            try await stalled.expectClosed()
            // The server still serves. (A few tries: on a starved machine a request may itself
            // wait past the 0.5 s idle timeout and be closed unanswered, as it should.)
            var answered = false
            for _ in 0..<5 where !answered {
                guard
                    let (status, text) = try? await HTTPHardeningTests.raw(
                        server.httpPort, "GET /health HTTP/1.1\r\nHost: 127.0.0.1")
                else { continue }
                answered = status == 200 && text.contains("\"status\":\"ok\"")
            }
            #expect(answered)
        }
    }
}

/// Request targets and headers at their limits and past them, paths that try to leave the
/// media directory, and the headers every answer carries.
@Suite struct HTTPHardeningTests {
    /// Sends `head` (a request line and headers, without the blank line) as raw bytes; returns
    /// the status code and the whole answer.
    static func raw(_ port: Int, _ head: String) async throws -> (Int, String) {
        let request = Data((head + "\r\nConnection: close\r\n\r\n").utf8)
        let answer = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, Error>) in
            Thread { continuation.resume(with: Result { try RawHTTP.exchange(port: port, request) }) }.start()
        }
        let text = String(decoding: answer, as: UTF8.self)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }

    @Test func targetsAndHeadersAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let port = server.httpPort
            func target(_ bytes: Int) -> String { "/i/" + String(repeating: "a", count: bytes - 3) }
            #expect(try await Self.raw(port, "GET \(target(HTTPLimits.maxTargetBytes)) HTTP/1.1\r\nHost: x").0 == 404)
            let (long, longText) = try await Self.raw(
                port, "GET \(target(HTTPLimits.maxTargetBytes + 1)) HTTP/1.1\r\nHost: x")
            #expect(long == 414 && longText.contains("the limit is \(HTTPLimits.maxTargetBytes) bytes"))

            // Header bytes count names and values: "Connection" + "close" + the filler (HTTP
            // types carry Host as the request's authority, not as a header field).
            let fixed = "Connection".count + "close".count + "X-Filler".count
            func filler(_ total: Int) -> String { "X-Filler: " + String(repeating: "f", count: total - fixed) }
            #expect(
                try await Self.raw(port, "GET /health HTTP/1.1\r\nHost: x\r\n\(filler(HTTPLimits.maxHeaderBytes))").0
                    == 200)
            let (big, bigText) = try await Self.raw(
                port, "GET /health HTTP/1.1\r\nHost: x\r\n\(filler(HTTPLimits.maxHeaderBytes + 1))")
            #expect(big == 431 && bigText.contains("the limit is \(HTTPLimits.maxHeaderBytes) bytes"))
            // Far past both, NIO's parser refuses the request head before any handler runs.
            #expect(try await Self.raw(port, "GET /health HTTP/1.1\r\nHost: x\r\n\(filler(200_000))").0 == 400)
            #expect(try await Self.raw(port, "GET \(target(200_000)) HTTP/1.1\r\nHost: x").0 == 400)
            #expect(try await Self.raw(port, "GET /health HTTP/1.1\r\nHost: x").0 == 200)
        }
    }

    @Test func pathsCannotLeaveTheMediaDirectory() async throws {
        try await withServer { server in
            try Data("top secret".utf8).write(to: URL(fileURLWithPath: server.dataDirectory + "/media/secret.png"))
            let attempts = [
                "/i/../hearth.sqlite", "/i/..%2fhearth.sqlite", "/i/%2e%2e%2fhearth.sqlite",
                "/i/%2e%2e/%2e%2e/etc/passwd",
                "/i/....//hearth.sqlite", "/i/secret.png", "/i/..%5chearth.sqlite", "/i/%00.png",
                "/i/.%2e/media/secret.png",
                "/upload/../i/secret.png", "/i/hearth.sqlite",
            ]
            for path in attempts {
                let (status, text) = try await Self.raw(server.httpPort, "GET \(path) HTTP/1.1\r\nHost: x")
                #expect(status == 404 || status == 400, "\(path): \(status)")
                #expect(
                    !text.contains("SQLite format") && !text.contains("top secret") && !text.contains("root:"),
                    "\(path)")
            }
        }
    }

    @Test func everyAnswerSaysNosniffAndItsContentType() async throws {
        try await withServer { server in
            for (path, type) in [
                ("/health", "application/json"), ("/i/nothing.png", "text/plain; charset=utf-8"),
                ("/upload/" + String(repeating: "0", count: 32), "text/plain; charset=utf-8"),
            ] {
                let (_, text) = try await Self.raw(server.httpPort, "GET \(path) HTTP/1.1\r\nHost: x")
                let head = text.lowercased()
                #expect(head.contains("x-content-type-options: nosniff"), "\(path)")
                #expect(head.contains("content-security-policy: default-src 'none'"), "\(path)")
                #expect(head.contains("content-type: \(type)"), "\(path): \(text)")
            }
        }
    }
}
