import Synchronization

/// The name keys accounts hold, kept in memory so that registering under a nick no account
/// holds needs no query (every connection's registration asked the store: a read and two thread
/// hops). It may hold more keys than the store (a key goes in before the write that takes it and
/// stays if that write fails) but never fewer: a key in it only means "ask the store".
/// Unknown (nil) until loaded, and whenever another process may have written accounts.
public final class ReservedNameKeys: Sendable {
    private let keys = Mutex<Set<String>?>(nil)

    public init() {}

    /// True only when it is known, without a query, that no account holds `nameKey`.
    public func surelyFree(_ nameKey: String) -> Bool {
        keys.withLock { keys in keys.map { !$0.contains(nameKey) } ?? false }
    }

    /// Every key the store holds; called while no write of this process can run (in its writer).
    func load(_ all: some Sequence<String>) { keys.withLock { $0 = Set(all) } }

    /// Before a write that may take `nameKey`.
    func taking(_ nameKey: String) { _ = keys.withLock { $0?.insert(nameKey) } }

    /// In the writer, just before the commit that frees `nameKey`; `restore` puts it back if
    /// that write fails.
    func freeing(_ nameKey: String) { _ = keys.withLock { $0?.remove(nameKey) } }

    func restore(_ nameKey: String) { taking(nameKey) }

    /// Another process wrote: every nick asks the store until the keys are loaded again.
    func forget() { keys.withLock { $0 = nil } }
}
