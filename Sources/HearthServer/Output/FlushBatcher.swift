import HearthProtocol
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
    private var inbox: (writes: [Handed], bytes: ByteBuffer, scheduled: Bool) = ([], ByteBuffer(), false)
    /// What the last drain took, emptied and swapped back in at the next (no allocation per drain).
    private var spare: (writes: [Handed], bytes: ByteBuffer) = ([], ByteBuffer())

    /// What another loop handed over: a delivery, or a line for one client written into the
    /// inbox's own bytes (the relay's fast path: no buffer of its own per message).
    enum Handed {
        case delivery(Outbox.Delivery)
        case line(Client, length: Int)
    }

    /// Relayed messages and their deliveries on this loop, added to the metrics once per tick:
    /// an atomic add per message on counters both loops share costs ~5 % of the relay.
    private var relayed = (privmsgs: 0, notices: 0, deliveries: 0)
    private let metrics: ServerMetrics?

    init(loop: EventLoop, metrics: ServerMetrics? = nil) {
        self.loop = loop
        self.metrics = metrics
        #if os(Linux)
            epollLoop = loop as? EpollLoop
        #endif
    }

    #if os(Linux)
        /// Set on `--io epoll`'s loops: the flush waits until the loop has nothing more to read.
        private let epollLoop: EpollLoop?
    #endif

    /// Counts a message the fast path relayed (on this loop).
    func countRelayed(_ command: RelayLine.Command, deliveries: Int) {
        if command == .privmsg { relayed.privmsgs += 1 } else { relayed.notices += 1 }
        relayed.deliveries += deliveries
        scheduleFlush()
    }

    private func publishCounts() {
        guard let metrics, relayed.privmsgs + relayed.notices > 0 else { return }
        if relayed.privmsgs > 0 { metrics.privmsgsIn.increment(by: relayed.privmsgs) }
        if relayed.notices > 0 { metrics.noticesIn.increment(by: relayed.notices) }
        metrics.deliveries.increment(by: relayed.deliveries)
        relayed = (0, 0, 0)
    }

    /// From another loop (inside the chat lock, so order is the order state changed).
    func handOver(_ delivery: Outbox.Delivery) {
        let schedule = inboxLock.withLock { () -> Bool in
            inbox.writes.append(.delivery(delivery))
            defer { inbox.scheduled = true }
            return !inbox.scheduled
        }
        if schedule { loop.execute { self.drainInbox() } }
    }

    /// From another loop (inside the chat lock): a relayed message for `client`, with the tags `variant`.
    /// The sender's loop `origin` owes this loop the wake, which its own sockets usually save.
    func handOver(to client: Client, _ message: RelayedMessage, variant: TagMask, from origin: EventLoop) {
        let schedule = inboxLock.withLock { () -> Bool in
            let before = inbox.bytes.writerIndex
            message.write(into: &inbox.bytes, variant: variant)
            inbox.writes.append(.line(client, length: inbox.bytes.writerIndex - before))
            defer { inbox.scheduled = true }
            return !inbox.scheduled
        }
        if schedule { loop.execute({ self.drainInbox() }, wakeBy: origin) }
    }

    private func drainInbox() {
        inboxLock.withLock {
            inbox.scheduled = false
            swap(&inbox.writes, &spare.writes)
            swap(&inbox.bytes, &spare.bytes)
        }
        for handed in spare.writes {
            switch handed {
            case .delivery(let delivery):
                delivery.write()
            case .line(let client, let length):
                var line = spare.bytes.readSlice(length: length)!
                if let framing = client.framing {
                    framing.append(lines: line, to: &client.output)
                } else {
                    client.output.writeBuffer(&line)
                }
                queueFlush(client)
            }
        }
        spare.writes.removeAll(keepingCapacity: true)
        // Large bursts are let go, as a connection's output is.
        if spare.bytes.capacity > Self.keptInboxCapacity { spare.bytes = ByteBuffer() }
        spare.bytes.clear()
    }

    /// The largest hand-over buffer a loop keeps between drains.
    static let keptInboxCapacity = 64 * 1024

    /// Appends `bytes` to the connection's output; it is written at the end of this tick.
    func write(_ client: Client, _ bytes: ByteBuffer) {
        if let framing = client.framing {
            framing.append(lines: bytes, to: &client.output)
        } else {
            var bytes = bytes
            client.output.writeBuffer(&bytes)
        }
        queueFlush(client)
    }

    /// Appends `bytes` to the output of each of `clients` (all of this loop) but `except`: one
    /// channel message to its members here. The loop copies the bytes and nothing else per member
    /// (no buffer handed around, no flush scheduled each time): with slow readers a tick carries
    /// many lines per member, and this copy is most of the server's user time.
    func write(_ clients: [Client], _ bytes: ByteBuffer, except: Client?) {
        bytes.withUnsafeReadableBytes { line in
            for client in clients where client !== except {
                if let framing = client.framing {
                    framing.append(lines: bytes, to: &client.output)
                } else {
                    client.output.writeBytes(line)
                }
                if !client.flushPending {
                    client.flushPending = true
                    pending.append(client)
                }
            }
        }
        scheduleFlush()
    }

    /// Writes a relayed message with the tags `variant` into the connection's output.
    func write(_ client: Client, _ message: RelayedMessage, variant: TagMask) {
        if let framing = client.framing {
            scratch.clear()
            message.write(into: &scratch, variant: variant)
            framing.append(lines: scratch, to: &client.output)
        } else {
            message.write(into: &client.output, variant: variant)
        }
        queueFlush(client)
    }

    /// Where a relayed line for a WebSocket client is written before it is framed.
    private var scratch = ByteBuffer()

    /// The connection's output is written at the end of this tick.
    private func queueFlush(_ client: Client) {
        if !client.flushPending {
            client.flushPending = true
            pending.append(client)
        }
        scheduleFlush()
    }

    /// On NIO's loops the flush is a task, run once this tick's reads are handled; on an epoll
    /// loop it is idle work, so lines from sockets that became ready meanwhile share its writes.
    private func scheduleFlush() {
        guard !scheduled else { return }
        scheduled = true
        #if os(Linux)
            if let epollLoop { return epollLoop.whenIdle { self.flushAll() } }
        #endif
        loop.execute { self.flushAll() }
    }

    /// Writes what the connection has pending, then closes it (so a final ERROR arrives).
    /// Runs on the connection's loop; queued behind writes other loops already handed over.
    func close(_ client: Client) {
        loop.execute {
            client.closing = true
            self.flush(client)
            client.socket.close()
        }
    }

    private func flush(_ client: Client) {
        let written = client.output.readableBytes
        guard written > 0 else { return }
        client.socket.send(client.output)
        // Anything written meanwhile (by a handler the write triggered) stays queued.
        client.output.moveReaderIndex(forwardBy: written)
        guard client.output.readableBytes == 0 else { return }
        // The socket usually took it all at once, so nothing else holds it and the same memory serves
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
        publishCounts()
        let clients = pending
        pending.removeAll(keepingCapacity: true)
        scheduled = false
        for client in clients {
            client.flushPending = false
            flush(client)
        }
    }
}
