import Foundation
import HearthCrypto
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import ServiceLifecycle
import Testing

@testable import HearthServer

/// A real Hearth server on ephemeral ports with a temporary data directory.
final class TestServer: Sendable {
    let server: HearthServer
    let group: ServiceGroup
    let task: Task<Void, Error>
    let ircPort: Int
    let httpPort: Int
    let dataDirectory: String

    static func tempDirectory() -> String {
        let path = NSTemporaryDirectory() + "hearth-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Fast Argon2id parameters so tests don't spend 100 ms per hash.
    static let fastCost = PasswordHash.Cost(opsLimit: 1, memLimit: 8192 * 8)

    /// With `logs`, everything the server logs (from trace level up) is kept there.
    static func start(
        dataDirectory: String? = nil, logs: LogCapture? = nil, configure: (inout ServerConfig) -> Void = { _ in }
    ) async throws -> TestServer {
        var config = ServerConfig()
        config.host = "127.0.0.1"
        config.ircPort = 0
        config.httpPort = 0
        config.dataDirectory = dataDirectory ?? tempDirectory()
        config.serverName = "test.hearth"
        config.passwordCost = fastCost
        config.floodControl = false
        config.plainGreetingDelay = 30
        configure(&config)
        var logger =
            logs.map { capture in Logger(label: "test") { _ in LogCapture.Handler(capture: capture) } }
            ?? Logger(label: "test")
        logger.logLevel = logs == nil ? .warning : .trace
        let server = try HearthServer(config: config, logger: logger)
        let group = ServiceGroup(configuration: .init(services: server.services, logger: logger))
        let task = Task { try await group.run() }
        let (irc, http) = await server.ports()
        return TestServer(server: server, group: group, task: task, irc: irc, http: http, dir: config.dataDirectory)
    }

    private init(server: HearthServer, group: ServiceGroup, task: Task<Void, Error>, irc: Int, http: Int, dir: String) {
        self.server = server
        self.group = group
        self.task = task
        self.ircPort = irc
        self.httpPort = http
        self.dataDirectory = dir
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    func connect() async throws -> TestClient {
        try await TestClient.connect(port: ircPort)
    }
}

/// Runs `body` with a fresh server (configured by `configure`) and always stops it after,
/// whether `body` returns or throws: no server outlives its test.
func withServer<T>(
    dataDirectory: String? = nil, logs: LogCapture? = nil, configure: (inout ServerConfig) -> Void = { _ in },
    run body: (TestServer) async throws -> T
) async throws -> T {
    try await stopping(
        try await TestServer.start(dataDirectory: dataDirectory, logs: logs, configure: configure), run: body)
}

/// Runs `body` with a server started elsewhere and always stops it after.
func stopping<T>(_ server: TestServer, run body: (TestServer) async throws -> T) async throws -> T {
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Log lines of a test server, as text: level, message, metadata and attached error.
final class LogCapture: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])
    var text: String { lines.withLockedValue { $0.joined(separator: "\n") } }
    var count: Int { lines.withLockedValue { $0.count } }

    struct Handler: LogHandler {
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            var line = "\(event.level) \(event.source): \(event.message)"
            if !all.isEmpty {
                line += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }
            if let error = event.error { line += " error=\(error)" }
            capture.lines.withLockedValue { $0.append(line) }
        }
    }
}

struct TimeoutError: Error, CustomStringConvertible {
    let description: String
}

/// A line-oriented TCP client, like nc or an IRC client.
final class TestClient: Sendable {
    let channel: Channel
    let inbox: Inbox

    final class Inbox: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let state = NIOLockedValueBox<(lines: [String], read: Int, closed: Bool)>(([], 0, false))
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            var line = buffer.readString(length: buffer.readableBytes) ?? ""
            if line.hasSuffix("\r") { line.removeLast() }
            state.withLockedValue { $0.lines.append(line) }
        }
        func channelInactive(context: ChannelHandlerContext) {
            state.withLockedValue { $0.closed = true }
        }
    }

    /// Connects to `host` (IPv4 loopback by default), from the local address `from` if given.
    static func connect(port: Int, host: String = "127.0.0.1", from: String? = nil) async throws -> TestClient {
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
    static func connectTLS(
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

    private init(channel: Channel, inbox: Inbox) {
        self.channel = channel
        self.inbox = inbox
    }

    func send(_ line: String) async throws {
        try await sendRaw(Array((line + "\r\n").utf8))
    }

    func sendRaw(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    var isClosed: Bool { inbox.state.withLockedValue { $0.closed } }

    /// Waits for the next unread line that satisfies `match`; lines before it are consumed.
    @discardableResult
    func expect(
        _ what: String, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
        where match: @escaping (String) -> Bool
    ) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = inbox.state.withLockedValue { state -> String? in
                for index in state.read..<state.lines.count where match(state.lines[index]) {
                    state.read = index + 1
                    return state.lines[index]
                }
                return nil
            }
            if let found { return found }
            try await Task.sleep(for: .milliseconds(5))
        }
        let unread = inbox.state.withLockedValue { Array($0.lines[$0.read...]) }
        Issue.record("timed out waiting for \(what); unread lines: \(unread)", sourceLocation: sourceLocation)
        throw TimeoutError(description: "timed out waiting for \(what)")
    }

    @discardableResult
    func expect(_ substring: String, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        try await expect("a line containing \"\(substring)\"", timeout: timeout, sourceLocation: sourceLocation) {
            $0.contains(substring)
        }
    }

    /// Waits for a numeric reply (e.g. "433") addressed to us.
    @discardableResult
    func expectNumeric(_ code: String, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        try await expect("numeric \(code)", timeout: timeout, sourceLocation: sourceLocation) { line in
            let words = line.split(separator: " ")
            return words.count > 1 && words[0].hasPrefix(":") && words[1] == code
        }
    }

    /// Waits for a line containing `sentinel` and checks that no line containing `leak`
    /// arrived before it (call it right after the action that must not leak).
    func expectNoLine(
        containing leak: String, before sentinel: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let line = try await expect("\"\(sentinel)\"", sourceLocation: sourceLocation) {
            $0.contains(leak) || $0.contains(sentinel)
        }
        #expect(!line.contains(leak), "unexpected line: \(line)", sourceLocation: sourceLocation)
    }

    /// Lines not yet consumed, after letting the server answer what it has.
    func unread() -> [String] {
        inbox.state.withLockedValue { Array($0.lines[$0.read...]) }
    }

    /// Sends PING with a fresh token and waits for the PONG: everything sent before has been handled.
    func sync() async throws {
        let token = "sync\(UInt32.random(in: 0...UInt32.max))"
        try await send("PING \(token)")
        try await expect("PONG \(token)") { $0.contains("PONG") && $0.contains(token) }
    }

    /// IRC registration with NICK/USER; waits for the end of the MOTD.
    static func irc(_ server: TestServer, nick: String, extra: [String] = []) async throws -> TestClient {
        let client = try await server.connect()
        for line in extra { try await client.send(line) }
        try await client.send("NICK \(nick)")
        try await client.send("USER \(nick) 0 * :Test \(nick)")
        try await client.expectNumeric("376")
        return client
    }

    /// A plain-mode (nc) connection; waits for the greeting.
    static func plain(_ server: TestServer) async throws -> TestClient {
        let client = try await server.connect()
        try await client.send("/help")
        try await client.expect("Welcome to")
        try await client.expect("/quit [MESSAGE]")
        return client
    }

    func close() async {
        try? await channel.close()
    }
}
