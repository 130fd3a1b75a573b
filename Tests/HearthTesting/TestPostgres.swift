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
        var url = try await superuserURL()
        url.database = name(purpose)
        try await asSuperuser("CREATE DATABASE \(url.database)")
        return url
    }

    private static func name(_ purpose: String) -> String {
        "hearth_\(purpose.lowercased().filter { $0.isLetter || $0.isNumber })_\(getpid())_"
            + "\(counter.add(1, ordering: .relaxed).newValue)"
    }

    private static let template = Mutex<Task<String, any Error>?>(nil)

    /// A new database with Hearth's schema already in it: a copy of one database this process
    /// migrates once. Two hundred server tests each migrating their own database at once kept
    /// PostgreSQL busy for half a minute, long enough for a test's ten-second wait to run out.
    public static func migratedDatabase(_ purpose: String = "test") async throws -> DatabaseURL {
        let task = template.withLock { task in
            if let task { return task }
            let made = Task { try await makeTemplate() }
            task = made
            return made
        }
        let source = try await task.value
        var url = try await superuserURL()
        url.database = name(purpose)
        try await asSuperuser("CREATE DATABASE \(url.database) TEMPLATE \(source)")
        return url
    }

    private static func makeTemplate() async throws -> String {
        let url = try await freshDatabase("template")
        let store = try await PostgresStore.open(url, poolSize: 1)
        await store.close()
        // A copy needs the template to itself: wait until its last session has gone.
        for _ in 0..<100 {
            if try await sessions(on: url.database) == 0 { return url.database }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TimeoutError(description: "the template database \(url.database) still has sessions after 5 s")
    }

    private static func sessions(on database: String) async throws -> Int {
        try await asSuperuser { connection, logger in
            let rows = try await connection.query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = \(database)", logger: logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    /// Runs one statement as the test server's superuser.
    public static func asSuperuser(_ sql: String) async throws {
        try await asSuperuser { connection, logger in
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    /// Runs `body` on a new connection to the test server as its superuser.
    static func asSuperuser<T>(_ body: (PostgresConnection, Logger) async throws -> T) async throws -> T {
        try await connected(to: try await superuserURL(), body)
    }

    /// Runs `body` on a new connection to `admin` (a superuser's URL).
    static func connected<T>(
        to admin: DatabaseURL, _ body: (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "test-postgres")
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(),
            configuration: .init(
                host: admin.host, port: admin.port, username: admin.user, password: admin.password,
                database: admin.database, tls: .disable),
            id: 2, logger: logger)
        defer { Task { try? await connection.close() } }
        return try await body(connection, logger)
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
