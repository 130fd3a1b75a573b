import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Monotonic nanoseconds, comparable across the harness's threads.
@inline(__always) func nowNanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// One IRC connection of the load generator. It registers (NICK/USER, answering PING),
/// then hands every other line to `onLine` on its own event loop. Lines are split by hand
/// from the read buffer so the harness stays cheaper than the servers it measures.
final class BenchConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let nick: String
    let registered: EventLoopPromise<Void>
    /// A line: its bytes, valid only during the call.
    var onLine: ((BenchConnection, UnsafeRawBufferPointer) -> Void)?
    /// When the read being handled arrived (one clock reading per read, not per line).
    private(set) var readAt: UInt64 = 0
    var channel: Channel!
    private var pending = ByteBuffer()
    private var out = ByteBuffer()
    private var isRegistered = false
    /// Reads are WebSocket frames, not lines (set once the handshake is answered).
    var webSocket = false
    /// When `connect()` was called, the socket connected (the handshake done: the server's kernel
    /// holds it, accepted or not) and 001 arrived; 0 until then.
    private(set) var connectCalledAt: UInt64 = 0
    private(set) var connectedAt: UInt64 = 0
    private(set) var registeredAt: UInt64 = 0

    init(nick: String, eventLoop: EventLoop) {
        self.nick = nick
        self.registered = eventLoop.makePromise()
    }

    func channelActive(context: ChannelHandlerContext) {
        connectedAt = nowNanos()
        channel = context.channel
        send("NICK \(nick)\r\nUSER \(nick) 0 * :bench\r\n")
        flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        registered.fail(ChannelError.ioOnClosedChannel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        readAt = nowNanos()
        prependPartial(&pending, to: &buffer)
        // Lines are handed over as raw bytes valid during the call: no buffer copies or
        // reference counting per line (the harness must stay cheaper than the servers).
        let used = buffer.withUnsafeReadableBytes { bytes -> Int in
            if webSocket { return frames(bytes, context: context) }
            guard let base = bytes.baseAddress else { return 0 }
            var start = 0
            while start < bytes.count, let found = memchr(base + start, 10, bytes.count - start) {
                let newline = base.distance(to: UnsafeRawPointer(found))
                var end = newline
                if end > start && bytes[end - 1] == 13 { end -= 1 }
                handle(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = newline + 1
            }
            return start
        }
        buffer.moveReaderIndex(forwardBy: used)
        // A copy: a slice would keep NIO's whole receive buffer alive.
        if buffer.readableBytes > 0 { pending = ByteBuffer(bytes: buffer.readableBytesView) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flush()
        // A slow reader: the next read waits (its lines pile up in the socket meanwhile).
        if isRegistered && BenchTransport.readEveryMs > 0 {
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .milliseconds(BenchTransport.readEveryMs)) { channel.read() }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// Over WebSocket (after the handshake): each whole server frame is a line, parsed from the
    /// read as lines are over TCP (a frame layer that copied them into lines cost the harness
    /// half again per delivery, on the cores the server runs on). Returns the bytes used.
    private func frames(_ bytes: UnsafeRawBufferPointer, context: ChannelHandlerContext) -> Int {
        var start = 0
        while bytes.count - start >= 2 {
            var length = Int(bytes[start + 1] & 0x7f)
            var header = 2
            if length == 126 {
                guard bytes.count - start >= 4 else { break }
                (length, header) = (Int(bytes[start + 2]) << 8 | Int(bytes[start + 3]), 4)
            } else if length == 127 {
                guard bytes.count - start >= 10 else { break }
                length = (2..<10).reduce(0) { $0 << 8 | Int(bytes[start + $1]) }
                header = 10
            }
            guard bytes.count - start >= header + length else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(start + header)..<(start + header + length)])
            switch bytes[start] & 0x0f {
            case 0x1, 0x2: handle(payload)
            case 0x8: context.close(promise: nil)
            default: break
            }
            start += header + length
        }
        return start
    }

    private func handle(_ line: UnsafeRawBufferPointer) {
        if line.starts(with: "PING ".utf8) {
            send("PONG " + String(decoding: line.dropFirst(5), as: UTF8.self) + "\r\n")
            return
        }
        if !isRegistered {
            if let command = Self.command(of: line), command.elementsEqual("001".utf8) {
                isRegistered = true
                registeredAt = readAt
                if BenchTransport.readEveryMs > 0 { _ = channel.setOption(ChannelOptions.autoRead, value: false) }
                registered.succeed(())
            } else if let command = Self.command(of: line),
                command.elementsEqual("433".utf8) || command.elementsEqual("ERROR".utf8)
            {
                registered.fail(ChannelError.ioOnClosedChannel)
            }
            return
        }
        onLine?(self, line)
    }

    /// The command word of a line with a source prefix.
    static func command(of line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let firstSpace = line.firstIndex(of: 32) else { return nil }
        let rest = line[(firstSpace + 1)...]
        let end = rest.firstIndex(of: 32) ?? rest.endIndex
        return UnsafeRawBufferPointer(rebasing: rest[rest.startIndex..<end])
    }

    /// The text after " :" (the trailing parameter).
    static func trailing(of line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var index = 1
        while index < line.count - 1 {
            if line[index] == 32 && line[index + 1] == 58 {
                return UnsafeRawBufferPointer(rebasing: line[(index + 2)...])
            }
            index += 1
        }
        return nil
    }

    /// Parses the last space-separated word as an unsigned integer.
    static func lastNumber(of line: UnsafeRawBufferPointer) -> UInt64? {
        var value: UInt64 = 0
        var multiplier: UInt64 = 1
        var index = line.count
        var digits = 0
        while index > 0 {
            index -= 1
            let byte = line[index]
            if byte >= 48 && byte <= 57 {
                value += UInt64(byte - 48) * multiplier
                multiplier *= 10
                digits += 1
            } else {
                break
            }
        }
        return digits > 0 ? value : nil
    }

    /// Queues a line (written on the next flush). Must run on the channel's event loop.
    func send(_ text: String) {
        out.writeString(text)
    }

    func flush() {
        guard out.readableBytes > 0, let channel else { return }
        channel.writeAndFlush(out, promise: nil)
        out = channel.allocator.buffer(capacity: 256)
    }

    /// Connects and registers; the future completes after 001.
    static func open(
        host: String, port: Int, nick: String, group: EventLoopGroup, localAddress: String? = nil
    ) -> EventLoopFuture<BenchConnection> {
        let loop = group.next()
        let handler = BenchConnection(nick: nick, eventLoop: loop)
        var bootstrap = ClientBootstrap(group: loop)
            .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .connectTimeout(.seconds(30))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if BenchTransport.webSocket { try channel.pipeline.syncOperations.addHandler(WebSocketHandshake()) }
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        if let localAddress, let address = try? SocketAddress(ipAddress: localAddress, port: 0) {
            bootstrap = bootstrap.bind(to: address)
        }
        // An address is connected to straight away: by name, NIO would first resolve it on
        // another thread (harness time inside the figure, and CPU beside the server's).
        handler.connectCalledAt = nowNanos()
        let connected =
            if let address = try? SocketAddress(ipAddress: host, port: port) {
                bootstrap.connect(to: address)
            } else {
                bootstrap.connect(host: host, port: port)
            }
        return connected.flatMap { _ in
            handler.registered.futureResult.map { handler }
        }
    }
}

/// Puts what was left of the last read (a line cut in two) in front of this read.
func prependPartial(_ partial: inout ByteBuffer, to buffer: inout ByteBuffer) {
    guard partial.readableBytes > 0 else { return }
    partial.writeBuffer(&buffer)
    buffer = partial
    partial = ByteBuffer()
}

extension ByteBufferView {
    func starts(with prefix: String.UTF8View) -> Bool {
        guard count >= prefix.count else { return false }
        return zip(self, prefix).allSatisfy { $0 == $1 }
    }
}

/// Opens `count` registered connections keeping at most `inflight` registrations pending
/// (ngIRCd listens with a backlog of 10; InspIRCd registers on a 1-second timer).
func openMany(
    count: Int, inflight: Int, host: String, ports: [Int], prefix: String, group: EventLoopGroup,
    latencies: NIOLockedValueBox<[UInt64]>? = nil, failed: NIOLockedValueBox<Int>? = nil
) async throws -> [BenchConnection] {
    var result: [BenchConnection] = []
    result.reserveCapacity(count)
    var next = 0
    try await withThrowingTaskGroup(of: BenchConnection?.self) { tasks in
        func start(_ i: Int) {
            // Past ~25,000 connections one source address runs out of ephemeral ports.
            let local = count > 20_000 ? "127.0.0.\(2 + i / 20_000)" : nil
            tasks.addTask {
                let began = nowNanos()
                let opened = BenchConnection.open(
                    host: host, port: ports[i % ports.count], nick: "\(prefix)\(i)", group: group, localAddress: local)
                let connection: BenchConnection
                do { connection = try await opened.get() } catch {
                    // Counted when asked (a server that lets connects time out), else the run fails.
                    guard let failed else { throw error }
                    failed.withLockedValue { $0 += 1 }
                    return nil
                }
                latencies?.withLockedValue { $0.append(nowNanos() - began) }
                return connection
            }
        }
        while next < min(inflight, count) {
            start(next)
            next += 1
        }
        for try await connection in tasks {
            if let connection { result.append(connection) }
            if next < count {
                start(next)
                next += 1
            }
        }
    }
    return result
}

/// Runs `body` on every connection's event loop and waits.
func onLoops(_ connections: [BenchConnection], _ body: @escaping @Sendable (BenchConnection) -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        for connection in connections {
            tasks.addTask { try await connection.channel.eventLoop.submit { body(connection) }.get() }
        }
        try await tasks.waitForAll()
    }
}
