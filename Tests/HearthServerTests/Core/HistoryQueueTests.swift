import Testing

@testable import HearthServer

/// The history writer's batching rule: one flush scheduled at a time, and after a batch of
/// `busyHistoryBatch` lines or more the next collects longer (fewer SQLite transactions while a
/// channel is busy). What is stored is the same either way (HistoryTests, on both engines).
@Suite struct HistoryQueueTests {
    @Test func aBusyBatchMakesTheNextCollectLonger() {
        var queue = HistoryQueue()
        #expect(queue.takeFlush() == Core.historyFlushDelay)
        #expect(queue.takeFlush() == nil)
        queue.flushScheduled = false
        queue.lastBatch = Core.busyHistoryBatch - 1
        #expect(queue.takeFlush() == Core.historyFlushDelay)
        queue.flushScheduled = false
        queue.lastBatch = Core.busyHistoryBatch
        #expect(queue.takeFlush() == Core.busyHistoryFlushDelay)
    }
}
