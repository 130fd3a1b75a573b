import Foundation
import HearthStore
import Logging
import NIOPosix
import PostgresNIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// PostgreSQL for tests: the one `scripts/test` started (`HEARTH_TEST_DATABASE_URL`), or, when
/// the tests run without it, one this process starts with `scripts/test-postgres` on first use
/// and stops when it exits. Each caller gets a new, empty database of its own. Never skipped:
/// without PostgreSQL the test fails and says why.
public enum TestPostgres {
    /// The repository (this file is Tests/HearthTesting/TestPostgres.swift).
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized.path

    private static let server = Mutex<Task<DatabaseURL, any Error>?>(nil)
    private static let counter = Atomic<Int>(0)

    /// The superuser URL of the test server, starting one if needed.
    public static func superuserURL() async throws -> DatabaseURL {
        let task = server.withLock { task in
            if let task { return task }
            let started = Task { try await start() }
            task = started
            return started
        }
        return try await task.value
    }

    private static func start() async throws -> DatabaseURL {
        if let url = ProcessInfo.processInfo.environment["HEARTH_TEST_DATABASE_URL"], !url.isEmpty {
            return try DatabaseURL(parsing: url)
        }
        let dir = NSTemporaryDirectory() + "hearth-test-postgres-\(getpid())"
        let started = try await Programs.run(["bash", repo + "/scripts/test-postgres", "start", dir])
        guard started.status == 0 else {
            throw TimeoutError(description: "could not start a test PostgreSQL: \(started.output)")
        }
        ownCluster.withLock { $0 = dir }
        atexit { TestPostgres.stopOwnCluster() }
        return try DatabaseURL(parsing: started.output.split(separator: "\n").last.map(String.init) ?? "")
    }

    private static let ownCluster = Mutex<String?>(nil)

    /// At exit: stops the cluster this process started (posix_spawn: no Foundation at exit).
    static func stopOwnCluster() {
        guard let dir = ownCluster.withLock({ $0 }) else { return }
        let arguments = ["bash", repo + "/scripts/test-postgres", "stop", dir]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        if posix_spawnp(&pid, "bash", nil, nil, &argv, environ) == 0 {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// A new, empty database on the test server, named for the caller.
    public static func freshDatabase(_ purpose: String = "test") async throws -> DatabaseURL {
        let admin = try await superuserURL()
        let name =
            "hearth_\(purpose.lowercased().filter { $0.isLetter || $0.isNumber })_\(getpid())_"
            + "\(counter.add(1, ordering: .relaxed).newValue)"
        try await asSuperuser("CREATE DATABASE \(name)")
        var url = admin
        url.database = name
        return url
    }

    /// Runs one statement as the test server's superuser.
    public static func asSuperuser(_ sql: String) async throws {
        let admin = try await superuserURL()
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(),
            configuration: .init(
                host: admin.host, port: admin.port, username: admin.user, password: admin.password,
                database: admin.database, tls: .disable),
            id: 2, logger: Logger(label: "test-postgres"))
        defer { Task { try? await connection.close() } }
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test-postgres"))
    }

    /// Like a database restarting, for one database: new connections refused, open ones cut.
    public static func cutOff(_ database: String) async throws {
        try await asSuperuser("ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
        try await asSuperuser(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'")
    }

    /// The database is back.
    public static func letIn(_ database: String) async throws {
        try await asSuperuser("ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
    }
}
