import NIOCore

/// Runs the timeout checks of one loop's connections from one repeated task, instead of
/// a timer per connection (which costs memory and timer-heap work per idle client).
final class LoopSweeper: @unchecked Sendable {
    let loop: EventLoop
    let interval: TimeAmount
    private var handlers: [ObjectIdentifier: ConnectionHandler] = [:]
    private var task: RepeatedTask?

    init(loop: EventLoop, interval: TimeAmount) {
        self.loop = loop
        self.interval = interval
    }

    func add(_ handler: ConnectionHandler) {
        handlers[ObjectIdentifier(handler)] = handler
        if task == nil {
            task = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in self.sweep() }
        }
    }

    func remove(_ handler: ConnectionHandler) {
        handlers[ObjectIdentifier(handler)] = nil
    }

    private func sweep() {
        for handler in handlers.values { handler.checkTimeouts() }
    }
}
