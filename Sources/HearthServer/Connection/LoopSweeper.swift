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
        HeapTrimmer.shared.noteChurn()
        if task == nil {
            task = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in self.sweep() }
        }
    }

    func remove(_ handler: ConnectionHandler) {
        guard handlers.removeValue(forKey: ObjectIdentifier(handler)) != nil else { return }
        HeapTrimmer.shared.noteChurn()
    }

    private func sweep() {
        let open = handlers.values.filter { $0.client.map { !$0.closing } ?? false }
        guard let core = open.first?.core else { return }
        // One lock for the loop's connections, not one each.
        let users = core.chat.withLock { state in open.map { (state[$0.client].registered, state[$0.client].mode) } }
        for (handler, (registered, mode)) in zip(open, users) {
            handler.checkTimeouts(registered: registered, mode: mode)
        }
    }
}
