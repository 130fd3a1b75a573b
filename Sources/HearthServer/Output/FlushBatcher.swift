import NIOCore

/// Coalesces output: messages for a connection during one event-loop tick are appended to
/// its output buffer and go out in one write at the end of the tick, instead of one
/// pipeline write and one system call per message. One batcher per event loop, touched
/// only on that loop.
final class FlushBatcher: @unchecked Sendable {
    let loop: EventLoop
    private var pending: [Client] = []
    private var scheduled = false
    /// The client of this loop whose labeled command is running, if any.
    var capturing: Client?

    /// Writes handed over by other loops, drained by one task: under load many messages
    /// share one wake-up of this loop instead of one task (and one context switch) each.
    private let inboxLock = AdaptiveLock()
    private var inbox: (writes: [Outbox.Delivery], scheduled: Bool) = ([], false)

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// From another loop (under `Core.lock`, so order is the order state changed).
    func handOver(_ delivery: Outbox.Delivery) {
        let schedule = inboxLock.withLock { () -> Bool in
            inbox.writes.append(delivery)
            defer { inbox.scheduled = true }
            return !inbox.scheduled
        }
        if schedule { loop.execute { self.drainInbox() } }
    }

    private func drainInbox() {
        let writes = inboxLock.withLock { () -> [Outbox.Delivery] in
            inbox.scheduled = false
            defer { inbox.writes.removeAll(keepingCapacity: true) }
            return inbox.writes
        }
        for delivery in writes { delivery.write() }
    }

    /// Appends `bytes` to the connection's output; it is written at the end of this tick.
    func write(_ client: Client, _ bytes: ByteBuffer) {
        var bytes = bytes
        client.output.writeBuffer(&bytes)
        if !client.flushPending {
            client.flushPending = true
            pending.append(client)
        }
        if !scheduled {
            scheduled = true
            loop.execute { self.flushAll() }
        }
    }

    /// Writes what the connection has pending, then closes it (so a final ERROR arrives).
    /// Runs on the connection's loop; queued behind writes other loops already handed over.
    func close(_ client: Client) {
        loop.execute {
            client.closing = true
            self.flush(client)
            client.channel.close(promise: nil)
        }
    }

    private func flush(_ client: Client) {
        let written = client.output.readableBytes
        guard written > 0 else { return }
        client.channel.writeAndFlush(client.output, promise: nil)
        // Anything written meanwhile (by a handler the write triggered) stays queued.
        client.output.moveReaderIndex(forwardBy: written)
        guard client.output.readableBytes == 0 else { return }
        // The socket usually took it all at once, so NIO let go and the same memory serves
        // the next tick (no allocation per message). Large buffers (a welcome burst, a
        // history replay) are let go, so idle connections stay small.
        if client.output.capacity <= Self.keptOutputCapacity {
            client.output.clear()
        } else {
            client.output = ByteBuffer()
        }
    }

    /// The largest output buffer a connection keeps between ticks.
    static let keptOutputCapacity = 512

    private func flushAll() {
        let clients = pending
        pending.removeAll(keepingCapacity: true)
        scheduled = false
        for client in clients {
            client.flushPending = false
            flush(client)
        }
    }
}
