import Foundation
import HearthBot
import HearthCrypto
import HearthKit
import HearthServer
import HearthStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import ServiceLifecycle
import Testing

/// What a test sets: the server's configuration (its fields read and written directly, as
/// `config.floodControl = true`) and the apps'.
@dynamicMemberLookup
public struct TestConfig {
    public var server = ServerConfig()
    public var apps = AppsConfig()

    public subscript<T>(dynamicMember path: WritableKeyPath<ServerConfig, T>) -> T {
        get { server[keyPath: path] }
        set { server[keyPath: path] = newValue }
    }
}

/// A real Hearth server on ephemeral ports with a temporary data directory.
public final class TestServer: Sendable {
    public let server: HearthServer
    public let group: ServiceGroup
    public let task: Task<Void, Error>
    public let ircPort: Int
    public let httpPort: Int
    public let dataDirectory: String

    public static func tempDirectory() -> String {
        let path = NSTemporaryDirectory() + "hearth-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Fast Argon2id parameters so tests don't spend 100 ms per hash.
    public static let fastCost = PasswordHash.Cost(opsLimit: 1, memLimit: 8192 * 8)

    /// With `logs`, everything the server logs (from trace level up) is kept there.
    public static func start(
        dataDirectory: String? = nil, logs: LogCapture? = nil, configure: (inout TestConfig) -> Void = { _ in }
    ) async throws -> TestServer {
        var setup = TestConfig()
        var config = ServerConfig()
        config.host = "127.0.0.1"
        config.ircPort = 0
        config.httpPort = 0
        config.dataDirectory = dataDirectory ?? tempDirectory()
        config.serverName = "test.hearth"
        config.passwordCost = fastCost
        config.floodControl = false
        config.plainGreetingDelay = 30
        setup.server = config
        configure(&setup)
        config = setup.server
        var logger =
            logs.map { capture in Logger(label: "test") { _ in LogCapture.Handler(capture: capture) } }
            ?? Logger(label: "test")
        logger.logLevel = logs == nil ? .warning : .trace
        let server = try HearthServer(config: config, apps: HearthApps.builtIn(setup.apps), logger: logger)
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

    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    /// The server's store as SQLite, for tests that look at the rows themselves.
    public var sqlite: SQLiteStore { server.store as! SQLiteStore }

    public func connect() async throws -> TestClient {
        try await TestClient.connect(port: ircPort)
    }
}

/// Runs `body` with a fresh server (configured by `configure`) and always stops it after,
/// whether `body` returns or throws: no server outlives its test.
public func withServer<T>(
    dataDirectory: String? = nil, logs: LogCapture? = nil, configure: (inout TestConfig) -> Void = { _ in },
    run body: (TestServer) async throws -> T
) async throws -> T {
    try await stopping(
        try await TestServer.start(dataDirectory: dataDirectory, logs: logs, configure: configure), run: body)
}

/// Runs `body` with a server started elsewhere and always stops it after.
public func stopping<T>(_ server: TestServer, run body: (TestServer) async throws -> T) async throws -> T {
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
