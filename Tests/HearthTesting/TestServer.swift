import Foundation
import HearthApps
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
    /// SQLite even when the tests run on PostgreSQL: for what only SQLite has (`hearth backup`).
    public var sqliteOnly = false
    /// This PostgreSQL database whatever the tests run on (several servers may share one).
    public var database: DatabaseURL?
    /// PostgreSQL connections the server keeps at most.
    public var databasePool = PostgresStore.defaultPoolSize
    /// A store call's limit as the store's own tests have it on a crowded CI machine (40 servers on one
    /// PostgreSQL and two cores): the default 5 s once timed out a server's startup reads there. A test
    /// of the limit itself sets the server's default back.
    public var operationTimeout: Duration = .seconds(30)

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
    /// Raw SQL against the store, on whichever engine runs.
    public let sql: TestSQL

    public static func tempDirectory() -> String {
        let path = NSTemporaryDirectory() + "hearth-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Fast Argon2id parameters so tests don't spend 100 ms per hash; SCRAM at RFC 7677's floor.
    public static let fastCost = PasswordHash.Cost(
        opsLimit: 1, memLimit: 8192 * 8, scramIterations: Scram.minIterations)

    /// With `logs`, everything the server logs (from trace level up) is kept there.
    public static func start(
        dataDirectory: String? = nil, logs: LogCapture? = nil, configure: (inout TestConfig) -> Void = { _ in }
    ) async throws -> TestServer {
        var setup = TestConfig()
        var config = ServerConfig()
        config.host = "127.0.0.1"
        config.ircPort = 0
        config.httpPort = 0
        config.httpsPort = 0  // used only with a TLS certificate, but never a fixed port in tests
        config.dataDirectory = dataDirectory ?? tempDirectory()
        config.serverName = "test.hearth"
        config.passwordCost = fastCost
        config.floodControl = false
        config.plainGreetingDelay = 30
        // Pages render every time, unless a test turns the visitors' cache on to test it.
        config.pageCacheSeconds = 0
        config.io = io
        setup.server = config
        configure(&setup)
        config = setup.server
        var logger =
            logs.map { capture in Logger(label: "test") { _ in LogCapture.Handler(capture: capture) } }
            ?? Logger(label: "test")
        logger.logLevel = logs == nil ? .warning : .trace
        var database = setup.database
        if database == nil && !setup.sqliteOnly { database = try await Self.database(for: config.dataDirectory) }
        let store = try await StoreEngine.open(
            database: database, dataDirectory: config.dataDirectory, poolSize: setup.databasePool,
            operationTimeout: setup.operationTimeout, logger: logger)
        let server = try HearthServer(
            config: config, apps: BuiltInApps.builtIn(setup.apps), store: store, logger: logger)
        let group = ServiceGroup(configuration: .init(services: try server.services, logger: logger))
        let task = Task {
            do { try await group.run() } catch {
                server.startEnded(error)
                throw error
            }
            server.startEnded(StoppedBeforeStart())
        }
        // Throws, naming why, when the server ended before its ports were up (a startup read past the
        // store's time limit, a port taken): such a start once left a test waiting for ever.
        let (irc, http) = try await server.ports()
        return TestServer(
            server: server, group: group, task: task, irc: irc, http: http, dir: config.dataDirectory,
            sql: TestSQL(store: store, postgres: database))
    }

    /// The IRC port's I/O the tests run on: the server's default (Hearth's own epoll loops), or
    /// another with HEARTH_TEST_IO (nio: SwiftNIO's pipeline).
    public static var io: IOMode {
        guard let name = ProcessInfo.processInfo.environment["HEARTH_TEST_IO"] else { return ServerConfig().io }
        // A misspelt value must not quietly test the default twice.
        guard let io = IOMode(rawValue: name) else { preconditionFailure("HEARTH_TEST_IO must be nio or epoll") }
        return io
    }

    /// The engine the server tests run on: SQLite, or PostgreSQL with HEARTH_TEST_ENGINE=postgres.
    public static var onPostgres: Bool { ProcessInfo.processInfo.environment["HEARTH_TEST_ENGINE"] == "postgres" }

    /// On PostgreSQL, the database that belongs to a data directory: made for its first
    /// server, the same one again when a test restarts a server on that directory.
    static func database(for dataDirectory: String) async throws -> DatabaseURL? {
        guard onPostgres else { return nil }
        let file = (dataDirectory as NSString).appendingPathComponent(".test-database-url")
        if let saved = try? String(contentsOfFile: file, encoding: .utf8) { return try DatabaseURL(parsing: saved) }
        let url = try await TestPostgres.migratedDatabase("server")
        var full = "postgres://\(url.user)"
        if let password = url.password { full += ":\(password)" }
        full += "@\(url.host):\(url.port)/\(url.database)"
        try full.write(toFile: file, atomically: true, encoding: .utf8)
        return url
    }

    /// How long a graceful stop may take before its test fails: far past any store call's limit.
    static let stopLimit: Duration = .seconds(120)

    struct StoppedBeforeStart: Error, CustomStringConvertible {
        var description: String { "the server's services stopped before its ports were up" }
    }

    private init(
        server: HearthServer, group: ServiceGroup, task: Task<Void, Error>, irc: Int, http: Int, dir: String,
        sql: TestSQL
    ) {
        self.server = server
        self.group = group
        self.task = task
        self.ircPort = irc
        self.httpPort = http
        self.dataDirectory = dir
        self.sql = sql
    }

    /// The host other users see for a test's client (connected from 127.0.0.1): its cloak,
    /// or the address itself with `cloakHosts` off.
    public var localHost: String { server.shownHost(for: "127.0.0.1") }

    public func stop() async {
        await group.triggerGracefulShutdown()
        // A stop that never ends fails its test by name after `stopLimit` (the test then goes on, the
        // server left behind), instead of holding the whole pass until CI's own limit.
        let stopped = Ready()
        let task = self.task
        Task {
            _ = try? await task.value
            stopped.set(0)
        }
        let timer = Task {
            try? await Task.sleep(for: Self.stopLimit)
            stopped.fail(CancellationError())
        }
        if (try? await stopped.wait()) == nil {
            Issue.record("the server did not stop within \(Self.stopLimit)")
        }
        timer.cancel()
    }

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
