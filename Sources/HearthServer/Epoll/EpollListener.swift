#if os(Linux)
    import CEpoll
    import Dispatch
    import Glibc
    import Logging
    import NIOCore
    import NIOPosix
    import Synchronization

    /// The threads of `--io epoll`: one `EpollLoop` each, for the plain-TCP IRC port only (TLS,
    /// HTTP and WebSocket stay on NIO's loops).
    final class EpollGroup: EventLoopGroup, @unchecked Sendable {
        let loops: [EpollLoop]
        private let turn = Atomic<Int>(0)

        init(threads: Int, logger: Logger = Logger(label: "hearth.epoll")) throws {
            loops = try (0..<max(1, threads)).map { try EpollLoop(name: "hearth-epoll-\($0)", logger: logger) }
        }

        func next() -> EventLoop { nextLoop() }

        /// The loop for the next connection, in turn.
        func nextLoop() -> EpollLoop {
            loops[turn.add(1, ordering: .relaxed).newValue % loops.count]
        }

        func makeIterator() -> EventLoopIterator { EventLoopIterator(loops) }

        func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable (Error?) -> Void) {
            queue.async {
                self.stop()
                callback(nil)
            }
        }

        func stop() { for loop in loops { loop.stop() } }
    }

    /// The plain-TCP IRC port of `--io epoll`: a listening socket on the first loop; each accepted
    /// connection goes to the loops in turn. A trusted load balancer's connections (PROXY header)
    /// are handed to NIO, whose handler reads the header.
    final class EpollListener: EpollSocket, @unchecked Sendable {
        let fd: Int32
        let port: Int
        private let group: EpollGroup
        private let core: Core
        private let handOver: (Int32, String) -> Bool
        private var accepting = true

        /// Connections taken per wake-up: the rest wait for the next (the listener is level-triggered).
        static let acceptsPerWake = 64
        /// When the process is out of descriptors, accepting pauses this long (instead of spinning).
        static let pauseWhenFull: TimeAmount = .milliseconds(100)

        /// Binds and listens (`start` then accepts); `handOver` takes connections NIO must serve
        /// (true when taken).
        init(host: String, port: Int, group: EpollGroup, core: Core, handOver: @escaping (Int32, String) -> Bool) throws
        {
            let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
            let family = address.protocol.rawValue
            let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
            // Linux gives each accepted socket the listening socket's options: set once here, not
            // twice per connection (two system calls of the few a registration makes).
            Self.set(ListenerOptions.listening + ListenerOptions.accepted, on: fd)
            let bound = address.withSockAddr { pointer, size in bind(fd, pointer, socklen_t(size)) }
            guard bound == 0, listen(fd, ListenerOptions.backlog) == 0 else {
                let code = errno
                Glibc.close(fd)
                throw IOError(errnoCode: code, reason: "bind \(host):\(port)")
            }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            self.fd = fd
            self.port = Self.address(storage)?.port ?? port
            self.group = group
            self.core = core
            self.handOver = handOver
            super.init()
        }

        /// Starts accepting on the first loop; throws (and closes the socket) when epoll refuses
        /// to watch it.
        func start() async throws {
            let loop = group.loops[0]
            do {
                try await loop.submit { try loop.watch(self, fd: self.fd, events: EPOLLIN.rawValue) }.get()
            } catch {
                await close()
                throw error
            }
        }

        /// Sets each option to 1 on `fd`.
        static func set(_ options: [ListenerOptions.Option], on fd: Int32) {
            var one: Int32 = 1
            for option in options {
                _ = setsockopt(
                    fd, option.level.rawValue, option.name.rawValue, &one, socklen_t(MemoryLayout<Int32>.size))
            }
        }

        /// Accepting waits until this pass's reads are handled (a task runs after them): a
        /// registration already read finishes before the next connections are taken, so early
        /// clients are not held behind late ones. The listener is level-triggered: the next wait
        /// reports what is left.
        override func ready(_ events: UInt32) {
            guard !acceptPosted else { return }
            acceptPosted = true
            group.loops[0].execute { self.acceptWaiting() }
        }

        private var acceptPosted = false

        /// Takes up to `acceptsPerWake` connections and hands each loop its share in one task.
        private func acceptWaiting() {
            acceptPosted = false
            guard accepting else { return }
            var shares: [ObjectIdentifier: (loop: EpollLoop, taken: [(Int32, String)])] = [:]
            defer {
                let core = self.core
                for (loop, taken) in shares.values {
                    loop.execute {
                        for (fd, address) in taken {
                            EpollConnection(fd: fd, loop: loop, handler: ConnectionHandler(core: core)).start(
                                address: address)
                        }
                    }
                }
            }
            for _ in 0..<Self.acceptsPerWake {
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let connection = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        accept4(fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                    }
                }
                guard connection >= 0 else {
                    let code = errno
                    if code == EINTR || code == ECONNABORTED || code == EPROTO { continue }
                    if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM { pause() }
                    return
                }
                let address = HearthServer.peerAddress(Self.address(storage)) ?? "unknown"
                if handOver(connection, address) { continue }
                let loop = group.nextLoop()
                shares[ObjectIdentifier(loop), default: (loop, [])].taken.append((connection, address))
            }
        }

        /// Out of descriptors: stop watching for a moment, so the loop does not spin on a
        /// connection it cannot take.
        private func pause() {
            let loop = group.loops[0]
            loop.unwatch(fd: fd)
            loop.scheduleTask(in: Self.pauseWhenFull) {
                guard self.accepting else { return }
                do { try loop.watch(self, fd: self.fd, events: EPOLLIN.rawValue) } catch {
                    // Nothing more would be accepted: say so, and try again after the next pause.
                    self.core.logger.error("IRC listener: could not watch the listening socket again: \(error)")
                    self.pause()
                }
            }
        }

        /// Stops listening (connections already taken go on).
        func close() async {
            let loop = group.loops[0]
            try? await loop.submit {
                self.accepting = false
                loop.unwatch(fd: self.fd)
                Glibc.close(self.fd)
            }.get()
        }

        static func address(_ storage: sockaddr_storage) -> SocketAddress? {
            var storage = storage
            switch Int32(storage.ss_family) {
            case AF_INET:
                return withUnsafeBytes(of: &storage) { SocketAddress($0.load(as: sockaddr_in.self)) }
            case AF_INET6:
                return withUnsafeBytes(of: &storage) { SocketAddress($0.load(as: sockaddr_in6.self)) }
            default:
                return nil
            }
        }
    }
#endif
