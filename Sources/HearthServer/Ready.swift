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

/// A value set once, awaited by anyone.
final class Ready: Sendable {
    private let state = Mutex<(value: Int?, waiters: [CheckedContinuation<Int, Never>])>((nil, []))

    func set(_ value: Int) {
        let waiters = state.withLock { s -> [CheckedContinuation<Int, Never>] in
            s.value = value
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value if it is set already.
    var now: Int? { state.withLock { $0.value } }

    func wait() async -> Int {
        await withCheckedContinuation { continuation in
            let value = state.withLock { s -> Int? in
                if let value = s.value { return value }
                s.waiters.append(continuation)
                return nil
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}
