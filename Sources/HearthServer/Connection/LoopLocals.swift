import NIOCore

/// Each event loop's batcher and sweeper, found by the loop's identity.
final class LoopLocals: Sendable {
    private let byLoop: [ObjectIdentifier: (FlushBatcher, LoopSweeper)]
    private let interval: TimeAmount
    private let metrics: ServerMetrics

    init(groups: [EventLoopGroup], sweepInterval: TimeAmount, metrics: ServerMetrics) {
        var map: [ObjectIdentifier: (FlushBatcher, LoopSweeper)] = [:]
        for loop in groups.flatMap({ Array($0.makeIterator()) }) {
            map[ObjectIdentifier(loop)] = (
                FlushBatcher(loop: loop, metrics: metrics), LoopSweeper(loop: loop, interval: sweepInterval)
            )
        }
        byLoop = map
        interval = sweepInterval
        self.metrics = metrics
    }

    func locals(for loop: EventLoop) -> (batcher: FlushBatcher, sweeper: LoopSweeper) {
        // Loops outside the group (none in practice) get their own.
        byLoop[ObjectIdentifier(loop)]
            ?? (FlushBatcher(loop: loop, metrics: metrics), LoopSweeper(loop: loop, interval: interval))
    }
}
