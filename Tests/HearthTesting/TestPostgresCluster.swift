import Foundation
import HearthStore
import PostgresNIO

extension TestPostgres {
    /// A PostgreSQL of one test's own (`scripts/test-postgres`), which the test may stop and
    /// start as an operator would: never the shared one, which other tests are using.
    public final class Cluster: Sendable {
        public let directory: String
        /// Its superuser's URL.
        public let url: DatabaseURL

        private init(directory: String, url: DatabaseURL) { (self.directory, self.url) = (directory, url) }

        public static func start() async throws -> Cluster {
            let directory = NSTemporaryDirectory() + "hearth-test-cluster-\(UUID().uuidString.prefix(8))"
            let started = try await script("start", directory)
            return Cluster(
                directory: directory,
                url: try DatabaseURL(parsing: started.split(separator: "\n").last.map(String.init) ?? ""))
        }

        /// `pg_ctl stop -m fast`: every connection is cut and new ones are refused.
        public func pause() async throws { _ = try await Self.script("pause", directory) }

        /// Starts again on the same port, with what it held.
        public func resume() async throws { _ = try await Self.script("resume", directory) }

        public func stop() async { _ = try? await Self.script("stop", directory) }

        /// A new, empty database on it, as a `--database` URL.
        public func freshDatabase(_ name: String) async throws -> String {
            try await TestPostgres.connected(to: url) { connection, logger in
                _ = try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
            }
            return "postgres://\(url.user):\(url.password ?? "")@\(url.host):\(url.port)/\(name)"
        }

        private static func script(_ action: String, _ directory: String) async throws -> String {
            let done = try await Programs.run(["bash", repo + "/scripts/test-postgres", action, directory])
            guard done.status == 0 else {
                throw TimeoutError(description: "test-postgres \(action) failed: \(done.output)")
            }
            return done.output
        }
    }
}
