import Dispatch
import Synchronization

#if os(Linux)
    import CEpoll
#endif

/// When to give the heap's free pages back to the system. A burst of connections (a thousand
/// clients registering at once, or leaving) frees what each one needed only while it lasted:
/// the welcome burst's output, parsed lines, timers. Those holes sit between the connections
/// that stay, so glibc cannot return them by shrinking the heap, and an idle server keeps
/// about 5 MB it no longer uses (0.5 KiB per client at 10,000). `malloc_trim` returns them.
struct HeapTrimPolicy {
    /// Connections opened or closed since the last trim before another is worth its cost
    /// (it walks every arena, holding each one's lock).
    static let minChurn = 1_000
    /// How often the churn is looked at; a look that finds no change since the last is the
    /// end of a burst.
    static let checkInterval = DispatchTimeInterval.milliseconds(500)
    /// Looks while the churn keeps changing before trimming anyway (a server that never
    /// quiets down still gives memory back).
    static let maxBusyChecks = 120

    private var lastSeen = 0
    private var trimmedAt = 0
    private var busyChecks = 0

    /// One look at the churn so far (connections opened plus closed); whether to trim now.
    mutating func check(churn: Int) -> Bool {
        defer { lastSeen = churn }
        guard churn - trimmedAt >= Self.minChurn else {
            busyChecks = 0
            return false
        }
        if churn != lastSeen && busyChecks < Self.maxBusyChecks {
            busyChecks += 1
            return false
        }
        trimmedAt = churn
        busyChecks = 0
        return true
    }
}

/// Counts connections opened and closed, process-wide, and trims the heap after a burst of
/// them, on a queue of its own (never an event loop). `@unchecked`: the timer is set once, in init.
final class HeapTrimmer: @unchecked Sendable {
    static let shared = HeapTrimmer()

    private static let churn = Atomic<Int>(0)
    private static let policy = Mutex(HeapTrimPolicy())
    private let timer: DispatchSourceTimer

    private init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "hearth.heap-trimmer", qos: .utility))
        timer.schedule(deadline: .now() + HeapTrimPolicy.checkInterval, repeating: HeapTrimPolicy.checkInterval)
        timer.setEventHandler {
            let now = HeapTrimmer.churn.load(ordering: .relaxed)
            if HeapTrimmer.policy.withLock({ $0.check(churn: now) }) { HeapTrimmer.trim() }
        }
        timer.activate()
    }

    /// A connection opened or closed (on its loop: one relaxed atomic add).
    func noteChurn() {
        Self.churn.add(1, ordering: .relaxed)
    }

    private static func trim() {
        #if os(Linux)
            _ = malloc_trim(0)
        #endif
    }
}
