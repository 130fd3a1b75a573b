import Foundation
import HearthCrypto
import HearthKit
import HearthProtocol
import HearthStore
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle
import Synchronization

/// A value set once, awaited by anyone — or a failure, for a start that ended before its value came: a
/// waiter is never left waiting for a listener that will not come up.
public final class Ready: Sendable {
    private let state = Mutex<(result: Result<Int, any Error>?, waiters: [CheckedContinuation<Int, any Error>])>(
        (nil, []))

    public init() {}

    /// Sets the value; the first of `set` and `fail` wins.
    public func set(_ value: Int) { finish(.success(value)) }

    /// Fails every waiter, now and later, unless the value is set already.
    public func fail(_ error: any Error) { finish(.failure(error)) }

    private func finish(_ result: Result<Int, any Error>) {
        let waiters = state.withLock { s -> [CheckedContinuation<Int, any Error>] in
            guard s.result == nil else { return [] }
            s.result = result
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// The value if it is set already.
    public var now: Int? { state.withLock { s in (try? s.result?.get()) ?? nil } }

    public func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLock { s -> Result<Int, any Error>? in
                if let result = s.result { return result }
                s.waiters.append(continuation)
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }
}
