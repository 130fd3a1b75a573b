import Foundation
import HearthTesting
import Synchronization
import Testing

@testable import HearthStore

/// An operation bounded by the store's timeout answers at the timeout even when the work never
/// notices it was cancelled, as a PostgreSQL call on a connection the server dropped during a
/// restart once did (issue 37: a node's publisher then waited on it for good, and the node's
/// events and channel changes stopped reaching the others).
@Suite struct DeadlineTests {
    /// Work that waits for `open` and ignores cancellation.
    final class Gate: Sendable {
        private let waiting = Mutex<(open: Bool, continuations: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let now = waiting.withLock { state -> Bool in
                    if !state.open { state.continuations.append(continuation) }
                    return state.open
                }
                if now { continuation.resume() }
            }
        }

        func open() {
            let waiters = waiting.withLock { state in
                state.open = true
                defer { state.continuations = [] }
                return state.continuations
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    @Test func anOperationStuckPastTheTimeoutFailsAtTheTimeout() async throws {
        let url = try await TestPostgres.freshDatabase("deadline")
        let store = try await PostgresStore.open(url, operationTimeout: .milliseconds(300))
        let gate = Gate()
        // A bound that waited for its work would have its answer only once this opens the gate.
        let late = Task {
            try? await Task.sleep(for: .seconds(10))
            gate.open()
        }
        var answer = "none"
        do {
            answer = try await store.bounded {
                await gate.wait()
                return "the work's, after the gate opened"
            }
        } catch {
            answer = "\(error)"
        }
        #expect(answer.contains("did not answer within"), "\(answer)")
        late.cancel()
        gate.open()
        await store.close()
    }

    @Test func workDoneBeforeTheDeadlineGivesItsResult() async throws {
        let result = await Deadline.first(before: .now + .seconds(30)) { 42 }
        #expect(try result?.get() == 42)
        let failed = await Deadline.first(before: .now + .seconds(30)) { () async throws -> Int in
            throw CancellationError()
        }
        #expect(throws: CancellationError.self) { try failed?.get() }
    }
}
