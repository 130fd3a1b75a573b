import Synchronization

/// Transactions that write at the same time and commit one after another, all or none: each
/// commits only once every one has written without error and the one before it has committed.
/// A reader never sees a later part without the earlier ones (history cursors are row ids).
/// The only partial outcome is a connection lost between two commits.
final class CommitTurns: Sendable {
    private struct State {
        var written = 0
        var committed = 0
        var failed = false
        var waiting: [(turn: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    struct Abandoned: Error {}

    private let parts: Int
    private let state = Mutex(State())

    init(parts: Int) { self.parts = parts }

    /// A part wrote everything it holds (its transaction still open).
    func wrote() { update { $0.written += 1 } }

    /// Part `turn` committed.
    func committed(_ turn: Int) { update { $0.committed = turn + 1 } }

    /// A part failed, or gave up waiting: every part still waiting rolls back.
    func fail() { update { $0.failed = true } }

    /// Returns when part `turn` may commit; throws when another part failed or this wait was cancelled.
    func awaitTurn(_ turn: Int) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                update { $0.waiting.append((turn, continuation)) }
            }
        } onCancel: {
            fail()
        }
    }

    /// Changes the state and wakes the waiters it decides.
    private func update(_ change: (inout State) -> Void) {
        let woken = state.withLock { state -> [(CheckedContinuation<Void, any Error>, Bool)] in
            change(&state)
            let parts = self.parts
            func decided(_ turn: Int) -> Bool? {
                if state.failed { return false }
                return state.written == parts && state.committed == turn ? true : nil
            }
            var woken: [(CheckedContinuation<Void, any Error>, Bool)] = []
            state.waiting.removeAll { waiter in
                guard let go = decided(waiter.turn) else { return false }
                woken.append((waiter.continuation, go))
                return true
            }
            return woken
        }
        for (continuation, go) in woken {
            if go { continuation.resume() } else { continuation.resume(throwing: Abandoned()) }
        }
    }
}
