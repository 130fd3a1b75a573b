import NIOCore

/// Each event loop's batcher and sweeper, found by the loop's identity.
final class LoopLocals: Sendable {
    private let byLoop: [ObjectIdentifier: (FlushBatcher, LoopSweeper)]
    private let interval: TimeAmount

    init(group: EventLoopGroup, sweepInterval: TimeAmount) {
        var map: [ObjectIdentifier: (FlushBatcher, LoopSweeper)] = [:]
        for loop in group.makeIterator() {
            map[ObjectIdentifier(loop)] = (FlushBatcher(loop: loop), LoopSweeper(loop: loop, interval: sweepInterval))
        }
        byLoop = map
        interval = sweepInterval
    }

    func locals(for loop: EventLoop) -> (batcher: FlushBatcher, sweeper: LoopSweeper) {
        // Loops outside the group (none in practice) get their own.
        byLoop[ObjectIdentifier(loop)] ?? (FlushBatcher(loop: loop), LoopSweeper(loop: loop, interval: interval))
    }
}
