import Foundation
import Logging
import NIOPosix
import PostgresNIO

/// The PostgreSQL engine: a pool of connections (postgres-nio's `PostgresClient`) to a database
/// several Hearth processes may share. `open` checks the server, the credentials and that the
/// database is Hearth's (or empty), and brings its schema up to date, before anything runs.
public final class PostgresStore: Sendable {
    public let url: DatabaseURL
    let client: PostgresClient
    let logger: Logger
    public let queryTimes = QueryTimes()
    /// How long one operation may wait (see `defaultOperationTimeout`).
    public let operationTimeout: Duration
    /// Connections this store keeps at most: a history batch is written on two at once only when it has two.
    public let poolSize: Int
    private let running: Task<Void, Never>

    /// Connections one process keeps at most (`--database-pool`).
    public static let defaultPoolSize = 20

    public var location: String { "PostgreSQL at \(url)" }

    /// Nodes of a network and `hearth user add` write accounts here too: every nick asks.
    public var reservedNames: ReservedNameKeys? { nil }

    private init(url: DatabaseURL, client: PostgresClient, logger: Logger, operationTimeout: Duration, poolSize: Int) {
        self.url = url
        self.operationTimeout = operationTimeout
        self.poolSize = poolSize
        self.client = client
        self.logger = logger
        running = Task { await client.run() }
    }

    /// Why the database cannot be used, in one line for the operator.
    public struct OpenProblem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    static func configuration(_ url: DatabaseURL) -> PostgresConnection.Configuration {
        .init(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: .disable)
    }

    /// Connects, checks and migrates. Every failure is one `OpenProblem` line. Tests that crowd
    /// two cores with hundreds of others pass a longer `operationTimeout`.
    public static func open(
        _ url: DatabaseURL, poolSize: Int = defaultPoolSize, operationTimeout: Duration = defaultOperationTimeout,
        logger: Logger = Logger(label: "hearth.store")
    ) async throws(OpenProblem) -> PostgresStore {
        // One plain connection first: it fails at once, with the server's reason.
        let probe: PostgresConnection
        do {
            probe = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration(url), id: 0,
                logger: logger)
        } catch {
            throw OpenProblem(description: explain(error, url))
        }
        do {
            try await PostgresMigrations.migrate(probe, logger: logger)
        } catch let problem as OpenProblem {
            try? await probe.close()
            throw problem
        } catch {
            try? await probe.close()
            throw OpenProblem(description: "could not prepare \(url): \(explain(error, url))")
        }
        try? await probe.close()
        var options = PostgresClient.Configuration.Options()
        options.maximumConnections = max(1, poolSize)
        // The server gives up on a statement the client has stopped waiting for.
        let timeout = Int(operationTimeout.components.seconds * 1000)
        options.additionalStartupParameters = [("statement_timeout", "\(timeout)")]
        var config = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: .disable)
        config.options = options
        return PostgresStore(
            url: url, client: PostgresClient(configuration: config, backgroundLogger: logger),
            logger: logger, operationTimeout: operationTimeout, poolSize: options.maximumConnections)
    }

    /// Stops the pool.
    public func close() async {
        running.cancel()
        _ = await running.value
    }

    /// One line for what went wrong talking to the server.
    static func explain(_ error: any Error, _ url: DatabaseURL) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        let state = error.serverInfo?[.sqlState]
        let message = error.serverInfo?[.message] ?? ""
        switch state {
        case "28P01", "28000":
            return "PostgreSQL at \(url.host):\(url.port) refused user \(url.user): wrong password, or no such user"
        case "3D000":
            return "PostgreSQL at \(url.host):\(url.port) has no database \(url.database); create it with "
                + "`createdb -O \(url.user) \(url.database)`"
        case let state?:
            return "PostgreSQL said: \(message) (\(state))"
        case nil:
            break
        }
        switch error.code {
        case .connectionError:
            let reason = error.underlying.map { "\($0)" } ?? "no answer"
            return
                "cannot reach PostgreSQL at \(url.host):\(url.port) (\(reason)); is it running, and is the URL right?"
        case .authMechanismRequiresPassword:
            return "PostgreSQL at \(url.host):\(url.port) wants a password for \(url.user); put it in the URL"
        default:
            return "PostgreSQL at \(url.host):\(url.port): \(error.code)"
        }
    }
}

extension PostgresStore: Store {}
