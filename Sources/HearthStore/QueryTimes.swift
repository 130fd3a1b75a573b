import Synchronization

/// Tells whoever listens (the server's metrics) how long each database statement took, on
/// either engine: SQLite's profile of each statement, PostgreSQL's round trip per query or
/// transaction. Nobody listening costs one lock-free check.
public final class QueryTimes: Sendable {
    private let observer = Mutex<(@Sendable (Duration) -> Void)?>(nil)
    private let listening = Atomic<Bool>(false)

    public init() {}

    public func observe(_ body: @escaping @Sendable (Duration) -> Void) {
        observer.withLock { $0 = body }
        listening.store(true, ordering: .releasing)
    }

    var isListening: Bool { listening.load(ordering: .acquiring) }

    func took(_ duration: Duration) {
        guard isListening, let observe = observer.withLock({ $0 }) else { return }
        observe(duration)
    }

    /// Times `body` (PostgreSQL: a query's or a transaction's round trip).
    func time<T>(_ body: () async throws -> T) async rethrows -> T {
        guard isListening else { return try await body() }
        let started = ContinuousClock.now
        defer { took(.now - started) }
        return try await body()
    }
}
