import NIOConcurrencyHelpers

/// Work given until a deadline. A task group cannot do this: it returns only once every child
/// has, and a database call stuck on a connection the server dropped may never notice it was
/// cancelled (issue 37: a node's publisher waited on one for good after a PostgreSQL restart,
/// and the node went silent). Here the caller has its answer at the deadline whatever the work does.
public enum Deadline {
    /// `work`'s result, or nil when `deadline` passes first. With `cancelling`, the work is
    /// cancelled then (and when the caller is); without, it goes on unawaited (a claim granted
    /// late must still be seen, to be given back).
    public static func first<T: Sendable>(
        before deadline: ContinuousClock.Instant, cancelling: Bool = true,
        _ work: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error>? {
        let task = Task { try await work() }
        let done = NIOLockedValueBox(false)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>?, Never>) in
                @Sendable func finish(_ value: Result<T, any Error>?) {
                    let first = done.withLockedValue { done in
                        defer { done = true }
                        return !done
                    }
                    if first { continuation.resume(returning: value) }
                }
                let timer = Task {
                    guard (try? await Task.sleep(until: deadline)) != nil else { return }
                    finish(nil)
                }
                Task {
                    finish(await task.result)
                    timer.cancel()
                }
            }
        } onCancel: {
            if cancelling { task.cancel() }
        }
        if case .none = outcome, cancelling { task.cancel() }
        return outcome
    }
}
