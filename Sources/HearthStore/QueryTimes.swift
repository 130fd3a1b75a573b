/// Tells whoever listens (the server's metrics) how long each database statement took, on
/// either engine: SQLite's profile of each statement, PostgreSQL's round trip per query or
/// transaction. Nobody listening costs one lock-free check.
public final class QueryTimes: Sendable {
    public let observer = Hook<Duration>()

    public init() {}

    func took(_ duration: Duration) { observer(duration) }

    /// Times `body` (PostgreSQL: a query's or a transaction's round trip).
    func time<T>(_ body: () async throws -> T) async rethrows -> T {
        guard observer.isListening else { return try await body() }
        let started = ContinuousClock.now
        defer { took(.now - started) }
        return try await body()
    }
}
