import Foundation
import HearthProtocol
import NIOCore
import NIOPosix
import Testing

/// Limits that protect everyone from one connection (or one address).
@Suite struct LimitTests {
    @Test func connectionsPerAddressAreLimited() async throws {
        let server = try await TestServer.start { config in
            config.floodControl = true  // loopback is exempt only when flood control is off
            config.maxConnectionsPerAddress = 3
        }
        defer { Task { await server.stop() } }
        var held: [TestClient] = []
        for _ in 0..<3 { held.append(try await TestClient.plain(server)) }
        let refused = try await server.connect()
        try await refused.expect("ERROR :Closing Link: 127.0.0.1 (Too many connections from your address: the limit is 3)")
        // One leaves: a place opens.
        try await held[0].send("/quit")
        try await held[0].expect("Bye!")
        try await Task.sleep(for: .milliseconds(200))
        let again = try await TestClient.plain(server)
        try await again.send("!whoami")
        try await again.expect("You are guest")
    }

    /// A client that never reads is dropped once its send queue passes the limit; the
    /// others keep getting their messages meanwhile.
    @Test func aClientThatNeverReadsIsDisconnected() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
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
            if watcher.unread().contains(where: { $0.contains("QUIT :SendQ exceeded") }) { disconnected = true; break }
            try await talker.send("NAMES #busy")
            let names = try await talker.expectNumeric("353")
            if !names.contains("sleepy") { disconnected = true; break }
        }
        #expect(disconnected, "the sleeper was never dropped")
        #expect(IRCLimits.maxSendQueueBytes == 1024 * 1024)
    }
}

@Suite struct HTTPLimitTests {
    /// A client that opens an HTTP connection and trickles half a request is closed once the
    /// idle timeout passes (set short here), and the server keeps answering others.
    @Test func stalledHTTPClientsAreClosed() async throws {
        let server = try await TestServer.start { $0.httpIdleTimeout = 0.5 }
        defer { Task { await server.stop() } }
        let stalled = try await TestClient.connect(port: server.httpPort)
        try await stalled.send("GET /health HTTP/1.1")  // and never the rest
        var closed = false
        for _ in 0..<60 where !closed {
            try await Task.sleep(for: .milliseconds(100))
            closed = stalled.isClosed
        }
        #expect(closed)
        let (body, response) = try await MemeTests.fetch(URL(string: "http://127.0.0.1:\(server.httpPort)/health")!)
        #expect(response.statusCode == 200 && String(decoding: body, as: UTF8.self).contains("\"status\":\"ok\""))
    }
}
