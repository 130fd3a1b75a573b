import Synchronization

/// A function set once (or replaced) and called from any thread, e.g. the metrics' observers.
/// The function lives in a class: kept directly in a lock's generic storage (`Mutex<(T) -> ()>`),
/// a function value is wrapped in two more reabstraction thunks at every `withLock` (the inout
/// write-back), so each call grew slower than the last — pages fell to a few hundred a second.
public final class Hook<Argument>: @unchecked Sendable {
    private final class Body: @unchecked Sendable {
        let call: @Sendable (Argument) -> Void
        init(_ call: @escaping @Sendable (Argument) -> Void) { self.call = call }
    }

    private let body = Mutex<Body?>(nil)
    private let isSet = Atomic<Bool>(false)

    public init() {}

    public func set(_ call: @escaping @Sendable (Argument) -> Void) {
        body.withLock { $0 = Body(call) }
        isSet.store(true, ordering: .releasing)
    }

    /// Whether anything listens (a cheap check before measuring).
    public var isListening: Bool { isSet.load(ordering: .acquiring) }

    public func callAsFunction(_ argument: Argument) {
        guard isListening, let current = body.withLock({ $0 }) else { return }
        current.call(argument)
    }
}
