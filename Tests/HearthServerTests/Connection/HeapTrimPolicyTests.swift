import Testing

@testable import HearthServer

/// When the heap is trimmed: after a burst of at least `minChurn` connections opened or closed,
/// at the first look that finds the burst over; or, if it never ends, after `maxBusyChecks`.
@Suite struct HeapTrimPolicyTests {
    /// Whether each look (at the churn so far) trims.
    static func looks(_ churns: [Int]) -> [Bool] {
        var policy = HeapTrimPolicy()
        return churns.map { policy.check(churn: $0) }
    }

    @Test func aBurstBelowTheChurnLimitIsNotTrimmed() {
        let below = HeapTrimPolicy.minChurn - 1
        // Quiet, but too little happened to be worth a walk over every arena.
        #expect(Self.looks([below, below, below]) == [false, false, false])
    }

    @Test func aBurstAtTheChurnLimitIsTrimmedOnceItIsOver() {
        let limit = HeapTrimPolicy.minChurn
        // Still connecting: the look after it decides; then nothing more happened, so no
        // second trim; the next burst counts from the trim.
        #expect(
            Self.looks([limit, limit, limit, 2 * limit - 1, 2 * limit - 1, 2 * limit, 2 * limit])
                == [false, true, false, false, false, false, true])
    }

    @Test func aServerThatNeverQuietsIsTrimmedAfterTheBusyLimit() {
        let busy = (0...HeapTrimPolicy.maxBusyChecks).map { HeapTrimPolicy.minChurn + 10 * $0 }
        #expect(Self.looks(busy) == Array(repeating: false, count: HeapTrimPolicy.maxBusyChecks) + [true])
    }
}
