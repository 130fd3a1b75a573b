#if os(Linux)
    import CEpoll
    import Glibc
    import HearthProtocol
    import NIOCore

    /// One plain-TCP IRC connection of `--io epoll`: its socket, read until drained on each edge
    /// into the loop's buffer and handed to the same `ConnectionHandler` NIO's pipeline feeds; and
    /// what the socket has not taken yet, written when it can take more. A peer that lets more
    /// than `IRCLimits.maxSendQueueBytes` pile up goes, as with NIO's write-buffer water mark.
    final class EpollConnection: EpollSocket, @unchecked Sendable {
        let fd: Int32
        unowned let loop: EpollLoop
        /// Let go when the connection closes (the handler's client refers back to this connection).
        private(set) var handler: ConnectionHandler?
        /// Bytes written but not yet taken by the socket.
        private var unsent = ByteBuffer()
        private(set) var isOpen = true
        private var inputClosed = false
        /// Made only when someone waits for the close (at shutdown): idle connections stay small.
        private var closedPromise: EventLoopPromise<Void>?

        /// What the loop watches for: input, edge-triggered; and room to write only while some
        /// output waits (every ACK would otherwise be an event).
        static let reading = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        static let readingAndWriting = reading | EPOLLOUT.rawValue

        /// Bytes asked for per read: IRC lines are short, so one read usually takes all there is.
        static let readSize = 16 * 1024

        init(fd: Int32, loop: EpollLoop, handler: ConnectionHandler) {
            self.fd = fd
            self.loop = loop
            self.handler = handler
        }

        /// Succeeds once the connection is closed.
        var closeFuture: EventLoopFuture<Void> {
            loop.flatSubmit {
                guard self.isOpen else { return self.loop.makeSucceededVoidFuture() }
                if self.closedPromise == nil { self.closedPromise = self.loop.makePromise() }
                return self.closedPromise!.futureResult
            }
        }

        /// Starts reading (on the loop). A socket epoll will not watch would never be read: it is
        /// closed at once, before the server hears of it, and the refusal logged and counted.
        func start(address: String) {
            do {
                try loop.watch(self, fd: fd, events: Self.reading)
            } catch {
                if let core = handler?.core {
                    core.metrics.ioRegistrationFailures.increment()
                    core.logger.error("could not watch a connection from \(address), closed: \(error)")
                }
                handler = nil
                return close()
            }
            handler?.start(socket: .epoll(self), eventLoop: loop, address: address, transport: .tcp)
        }

        /// Watches for other events; a socket epoll no longer watches goes (it could not be written
        /// or read again).
        private func watch(_ events: UInt32) {
            do { try loop.change(fd: fd, events: events) } catch {
                handler?.core.logger.error("could not change what is watched on a connection, closed: \(error)")
                close()
            }
        }

        override func ready(_ events: UInt32) {
            if events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
                readAll(toEnd: events & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue) != 0)
            }
            if isOpen && events & EPOLLOUT.rawValue != 0 && unsent.readableBytes > 0 { sendUnsent() }
            if isOpen && events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { close() }
        }

        /// Reads until the socket has nothing more (edge-triggered: the next event comes only
        /// when new bytes arrive). `toEnd`: the peer has closed its side, so read past a short
        /// read until the read that returns 0 — when the last bytes and the FIN came in one
        /// edge, no later event would ever report the end of input (`printf … | nc`).
        private func readAll(toEnd: Bool) {
            while isOpen && !inputClosed {
                var asked = 0
                var result = 0
                loop.withReadBuffer { buffer in
                    buffer.clear()
                    buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.readSize) { space in
                        asked = space.count
                        result = Glibc.read(fd, space.baseAddress, space.count)
                        return max(result, 0)
                    }
                    if result > 0 { handler?.received(&buffer) }
                }
                if result > 0 {
                    if result < asked && !toEnd { return }
                } else if result == 0 {
                    inputClosed = true
                    handler?.inputEnded()
                } else {
                    let code = errno
                    if code == EINTR { continue }
                    if code != EAGAIN && code != EWOULDBLOCK { close() }
                    return
                }
            }
        }

        /// Writes `bytes` (or queues them behind what the socket has not taken yet).
        func send(_ bytes: ByteBuffer) {
            guard isOpen else { return }
            if unsent.readableBytes > 0 {
                var bytes = bytes
                unsent.writeBuffer(&bytes)
                checkSendQueue()
                return
            }
            let (written, failed) = write(bytes)
            if failed {
                close()
            } else if written < bytes.readableBytes {
                unsent = bytes.getSlice(at: bytes.readerIndex + written, length: bytes.readableBytes - written)!
                watch(Self.readingAndWriting)
                checkSendQueue()
            }
        }

        private func checkSendQueue() {
            if unsent.readableBytes > IRCLimits.maxSendQueueBytes { handler?.sendQueueFull() }
        }

        private func sendUnsent() {
            let (written, failed) = write(unsent)
            if failed { return close() }
            unsent.moveReaderIndex(forwardBy: written)
            if unsent.readableBytes == 0 {
                unsent = ByteBuffer()
                watch(Self.reading)
            }
        }

        /// One `send`; how much the socket took, and whether the connection is broken.
        private func write(_ bytes: ByteBuffer) -> (Int, failed: Bool) {
            while true {
                let result = bytes.withUnsafeReadableBytes { raw in
                    Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                }
                if result >= 0 { return (result, false) }
                let code = errno
                if code == EINTR { continue }
                return (0, code != EAGAIN && code != EWOULDBLOCK)
            }
        }

        /// Writes `bytes`, then closes (a refusal's last words).
        func sendThenClose(_ bytes: ByteBuffer) {
            send(bytes)
            close()
        }

        /// Closes the socket (what the socket has not taken by now is lost, as with NIO's close)
        /// and tells the handler.
        func close() {
            guard isOpen else { return }
            isOpen = false
            if unsent.readableBytes > 0 { _ = write(unsent) }
            unsent = ByteBuffer()
            loop.unwatch(fd: fd)
            Glibc.close(fd)
            let handler = self.handler
            self.handler = nil
            handler?.ended()
            closedPromise?.succeed(())
        }
    }
#endif
