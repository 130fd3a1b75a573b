import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import Testing

public struct TimeoutError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// A line-oriented TCP client, like nc or an IRC client.
public final class TestClient: Sendable {
    public let channel: Channel
    public let inbox: Inbox

    public final class Inbox: ChannelInboundHandler, Sendable {
        public typealias InboundIn = ByteBuffer
        public let state = NIOLockedValueBox<(lines: [String], read: Int, closed: Bool)>(([], 0, false))
        /// Those waiting for what comes next (a line or the close), by a number of their own. A
        /// waiter is woken by the line, not by a timer looking every few milliseconds: hundreds of
        /// clients polling at once took a share of CI's two cores from the servers they test.
        private let waiters = NIOLockedValueBox<(next: Int, waiting: [Int: Waiter])>((0, [:]))
        typealias Waiter = CheckedContinuation<Void, Never>

        public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            var line = buffer.readString(length: buffer.readableBytes) ?? ""
            if line.hasSuffix("\r") { line.removeLast() }
            state.withLockedValue { $0.lines.append(line) }
            wake()
        }
        public func channelInactive(context: ChannelHandlerContext) {
            state.withLockedValue { $0.closed = true }
            wake()
        }

        private func wake() {
            let woken = waiters.withLockedValue { box in
                defer { box.waiting.removeAll() }
                return Array(box.waiting.values)
            }
            for waiter in woken { waiter.resume() }
        }

        /// Returns once the inbox differs from what was seen (`lines` lines, `closed`), or at `deadline`.
        func change(from lines: Int, closed: Bool, until deadline: NIODeadline, on loop: EventLoop) async {
            var timer: Scheduled<Void>?
            await withCheckedContinuation { (waiter: Waiter) in
                // Looked at again under the waiters' lock: a line that came after the caller looked
                // either is seen here or finds this waiter to wake.
                let id = waiters.withLockedValue { box -> Int? in
                    let changed = state.withLockedValue { $0.lines.count != lines || $0.closed != closed }
                    if changed { return nil }
                    box.next += 1
                    box.waiting[box.next] = waiter
                    return box.next
                }
                guard let id else { return waiter.resume() }
                timer = loop.scheduleTask(deadline: deadline) {
                    self.waiters.withLockedValue { $0.waiting.removeValue(forKey: id) }?.resume()
                }
            }
            timer?.cancel()
        }
    }

    /// Connects to `host` (IPv4 loopback by default), from the local address `from` if given.
    public static func connect(port: Int, host: String = "127.0.0.1", from: String? = nil) async throws -> TestClient {
        let inbox = Inbox()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let from { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: from, port: 0)) }
        let channel =
            try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: 1 << 20))
                    try channel.pipeline.syncOperations.addHandler(inbox)
                }
            }
            .connect(host: host, port: port).get()
        return TestClient(channel: channel, inbox: inbox)
    }

    /// A connection over TLS (the test's self-signed certificate is not verified).
    public static func connectTLS(
        port: Int, configure: (inout TLSConfiguration) -> Void = { _ in }
    ) async throws -> TestClient {
        let inbox = Inbox()
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        configure(&configuration)
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: nil))
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: 1 << 20))
                    try channel.pipeline.syncOperations.addHandler(inbox)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return TestClient(channel: channel, inbox: inbox)
    }

    init(channel: Channel, inbox: Inbox) {
        self.channel = channel
        self.inbox = inbox
    }

    public func send(_ line: String) async throws {
        try await sendRaw(Array((line + "\r\n").utf8))
    }

    public func sendRaw(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// Sends `bytes` and closes the sending side with the FIN in the same segment (as a fast
    /// `printf … | nc` may arrive): the socket is corked so the kernel tacks the FIN onto the
    /// unsent data instead of sending it after.
    public func sendThenHalfClose(_ bytes: [UInt8]) async throws {
        let cork = ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_CORK))
        try await channel.setOption(cork, value: 1)
        try await sendRaw(bytes)
        try await channel.close(mode: .output)
    }

    public var isClosed: Bool { inbox.state.withLockedValue { $0.closed } }

    /// Waits until the server has closed the connection (end of input seen).
    public func expectClosed(
        timeout: Double = TestClient.patience, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
        while true {
            let seen = inbox.state.withLockedValue { (lines: $0.lines.count, closed: $0.closed) }
            if seen.closed { return }
            guard NIODeadline.now() < deadline else { break }
            await inbox.change(from: seen.lines, closed: false, until: deadline, on: channel.eventLoop)
        }
        Issue.record("timed out waiting for the server to close the connection", sourceLocation: sourceLocation)
        throw TimeoutError(description: "timed out waiting for the close")
    }

    /// How long `expect` waits for a line by default. Generous: CI machines run two hundred
    /// servers' tests at once on two cores, and a wait that runs out is a failure, never a result.
    public static let patience: Double = 20

    /// Waits for the next unread line that satisfies `match`; lines before it are consumed.
    @discardableResult
    public func expect(
        _ what: String, timeout: Double = TestClient.patience, sourceLocation: SourceLocation = #_sourceLocation,
        where match: @escaping (String) -> Bool
    ) async throws -> String {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
        while true {
            let looked = take(where: match)
            if let found = looked.line { return found }
            guard NIODeadline.now() < deadline else { break }
            await inbox.change(from: looked.seen, closed: looked.closed, until: deadline, on: channel.eventLoop)
        }
        let unread = inbox.state.withLockedValue { Array($0.lines[$0.read...]) }
        Issue.record("timed out waiting for \(what); unread lines: \(unread)", sourceLocation: sourceLocation)
        throw TimeoutError(description: "timed out waiting for \(what)")
    }

    @discardableResult
    public func expect(
        _ substring: String, timeout: Double = TestClient.patience, sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws -> String
    {
        try await expect("a line containing \"\(substring)\"", timeout: timeout, sourceLocation: sourceLocation) {
            $0.contains(substring)
        }
    }

    /// Waits for a numeric reply (e.g. "433") addressed to us.
    @discardableResult
    public func expectNumeric(
        _ code: String, timeout: Double = TestClient.patience, sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws -> String
    {
        try await expect("numeric \(code)", timeout: timeout, sourceLocation: sourceLocation) { line in
            let words = line.split(separator: " ")
            return words.count > 1 && words[0].hasPrefix(":") && words[1] == code
        }
    }

    /// Waits for a line containing `sentinel` and checks that no line containing `leak`
    /// arrived before it (call it right after the action that must not leak).
    public func expectNoLine(
        containing leak: String, before sentinel: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let line = try await expect("\"\(sentinel)\"", sourceLocation: sourceLocation) {
            $0.contains(leak) || $0.contains(sentinel)
        }
        #expect(!line.contains(leak), "unexpected line: \(line)", sourceLocation: sourceLocation)
    }

    /// The next unread line that satisfies `match`, consumed with the lines before it; nil once
    /// the connection is closed (or `timeout` passes) without one. Not a failure: for clients of a
    /// server a test kills on purpose.
    public func next(timeout: Double = TestClient.patience, where match: (String) -> Bool) async -> String? {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
        while true {
            let looked = take(where: match)
            if let found = looked.line { return found }
            if looked.closed || NIODeadline.now() >= deadline { return nil }
            await inbox.change(from: looked.seen, closed: false, until: deadline, on: channel.eventLoop)
        }
    }

    /// Consumes lines up to the first unread one that satisfies `match`, if any; the lines seen,
    /// and whether the connection is closed.
    private func take(where match: (String) -> Bool) -> (line: String?, seen: Int, closed: Bool) {
        inbox.state.withLockedValue { state in
            for index in state.read..<state.lines.count where match(state.lines[index]) {
                state.read = index + 1
                return (state.lines[index], state.lines.count, false)
            }
            return (nil, state.lines.count, state.closed)
        }
    }

    /// Lines not yet consumed, after letting the server answer what it has.
    public func unread() -> [String] {
        inbox.state.withLockedValue { Array($0.lines[$0.read...]) }
    }

    /// Sends PING with a fresh token and waits for the PONG: everything sent before has been handled.
    public func sync() async throws {
        let token = "sync\(UInt32.random(in: 0...UInt32.max))"
        try await send("PING \(token)")
        try await expect("PONG \(token)") { $0.contains("PONG") && $0.contains(token) }
    }

    /// IRC registration with NICK/USER; waits for the end of the MOTD.
    public static func irc(_ server: TestServer, nick: String, extra: [String] = []) async throws -> TestClient {
        let client = try await server.connect()
        for line in extra { try await client.send(line) }
        try await client.send("NICK \(nick)")
        try await client.send("USER \(nick) 0 * :Test \(nick)")
        try await client.expectNumeric("376")
        return client
    }

    /// A plain-mode (nc) connection; waits for the greeting.
    public static func plain(_ server: TestServer) async throws -> TestClient {
        let client = try await server.connect()
        try await client.send("/help")
        try await client.expect("Welcome to")
        try await client.expect("/quit [MESSAGE]")
        return client
    }

    public func close() async {
        try? await channel.close()
    }
}
