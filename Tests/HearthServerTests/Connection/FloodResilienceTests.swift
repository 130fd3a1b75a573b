import Foundation
import HearthTesting
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import HearthServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The second half of the send-queue requirement: 1,000 clients flooding at once do not stop
/// a well-behaved client's messages from arriving promptly (the first half, a client that
/// never reads being dropped, is `LimitTests.aClientThatNeverReadsIsDisconnected`).
///
/// One real server with flood control on. 1,000 cheap NIO connections (not `TestClient`s)
/// register, and 50 of them join #flood; then each writes 200 lines as fast as the socket
/// takes them — 950 flood a sink privately, 50 flood #flood, where the sink and the two
/// well-behaved clients sit. Once the flood is coming out of the server, alice and bob play
/// a 10-message ping-pong (private and in #flood) and alice PINGs. Checked: every good
/// message arrives; the exchange is over while most of the 200,000 flood lines still wait
/// (the server's own state shows them held per connection, each within its receive queue,
/// `ConnectionHandler.maxHeldBytes`); the flood then goes on at no more than flood control's rate, and the flooders
/// are throttled, not disconnected. With flood control off the same test fails: message 3
/// of the exchange does not arrive within 5 seconds.
///
/// Debug build, 2 cores, server and clients in one process: the first good message, sent
/// while the 1,000 bursts are being handled, takes 0.3–0.7 s; the others 5–60 ms.
@Suite struct FloodResilienceTests {
    static let flooders = 1000
    static let linesEach = 200
    /// Every 20th flooder floods #flood (50 of them); the others flood the sink privately.
    static let channelEvery = 20
    static var total: Int { flooders * linesEach }

    @Test func aThousandFloodersDoNotDelayAWellBehavedClient() async throws {
        let files = Self.raiseFileLimit()
        // Server and clients share this process: two descriptors per connection, plus some.
        try #require(
            files >= 2 * Self.flooders + 200, "RLIMIT_NOFILE is \(files) even after raising it to the hard limit")

        let server = try await TestServer.start { config in
            config.floodControl = true  // loopback skips flood control only when it is off
            config.maxConnectionsPerAddress = Self.flooders + 100
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let fixture = Fixture()
        do {
            try await run(server, group, fixture)
        } catch {
            await fixture.cleanUp(server, group)
            throw error
        }
        await fixture.cleanUp(server, group)
    }

    /// What must be closed at the end, whatever happens.
    final class Fixture: @unchecked Sendable {
        let lock = NIOLock()
        var flooders: [FloodConnection] = []
        var others: [FloodConnection] = []
        var clients: [TestClient] = []

        func add(_ connection: FloodConnection, flooder: Bool = true) {
            lock.withLock { if flooder { flooders.append(connection) } else { others.append(connection) } }
        }

        func add(_ client: TestClient) { lock.withLock { clients.append(client) } }

        /// Resets every flooder (a graceful close would leave the server answering what it
        /// holds of theirs, as for `printf … | nc`), closes the rest, and checks the server
        /// let every connection go.
        func cleanUp(_ server: TestServer, _ group: MultiThreadedEventLoopGroup) async {
            let (flooders, others, clients) = lock.withLock { (self.flooders, self.others, self.clients) }
            let resets = flooders.map { $0.reset() }
            try? await EventLoopFuture.andAllComplete(resets, on: group.next()).get()
            for other in others { try? await other.channel.close() }
            for client in clients { await client.close() }
            let core = server.server.core
            var left = core.chat.withLock { $0.clients.count }
            for _ in 0..<200 where left > 0 {
                try? await Task.sleep(for: .milliseconds(50))
                left = core.chat.withLock { $0.clients.count }
            }
            #expect(left == 0, "the server still holds \(left) connections after they all closed")
            try? await group.shutdownGracefully()
            await server.stop()
        }
    }

    func run(_ server: TestServer, _ group: MultiThreadedEventLoopGroup, _ fixture: Fixture) async throws {
        let clock = ContinuousClock()
        let core = server.server.core

        // The sink counts every flood line that comes out of the server (privately or in #flood).
        let sink = try await FloodConnection.open(port: server.ircPort, nick: "sink", join: "#flood", group: group)
        fixture.add(sink, flooder: false)
        let alice = try await TestClient.irc(server, nick: "alice")
        fixture.add(alice)
        let bob = try await TestClient.irc(server, nick: "bob")
        fixture.add(bob)
        for c in [alice, bob] {
            try await c.send("JOIN #flood")
            try await c.expectNumeric("366")
        }

        // The flooders: registered (and in #flood for some), at most 100 connecting at once.
        let opening = clock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            var next = 0
            func start(_ i: Int) {
                tasks.addTask {
                    let join = i % Self.channelEvery == 0 ? "#flood" : nil
                    let connection = try await FloodConnection.open(
                        port: server.ircPort, nick: "f\(i)", join: join, group: group)
                    fixture.add(connection)
                }
            }
            while next < 100 {
                start(next)
                next += 1
            }
            for try await _ in tasks where next < Self.flooders {
                start(next)
                next += 1
            }
        }
        let flooders = fixture.lock.withLock { fixture.flooders }
        try #require(flooders.count == Self.flooders)
        let inChannel = Self.flooders / Self.channelEvery
        let (connected, members) = core.chat.withLock {
            ($0.clients.count, $0.channels["#flood"]?.members.count ?? 0)
        }
        #expect(connected == Self.flooders + 3 && members == inChannel + 3)
        print("flood: \(Self.flooders) flooders registered in \(Self.ms(clock.now - opening)) ms")

        // The flood: every flooder writes all its lines at once, in chunks, without waiting.
        let written = NIOLockedValueBox(0)
        let floodStart = clock.now
        let (toSink, toChannel) = (FloodConnection.chunk(to: "sink"), FloodConnection.chunk(to: "#flood"))
        for flooder in flooders {
            flooder.flood(flooder.join == nil ? toSink : toChannel, times: Self.linesEach / 20).whenSuccess {
                written.withLockedValue { $0 += Self.linesEach }
            }
        }
        // The exchange starts once the flood is coming out of the server.
        var processed = sink.floodLines
        for _ in 0..<500 where processed < Self.flooders {
            try await Task.sleep(for: .milliseconds(10))
            processed = sink.floodLines
        }
        let processedAtStart = processed
        #expect(processedAtStart >= Self.flooders, "the flood never got going")

        // alice and bob: 10 messages, each sent when the previous one arrived; odd ones
        // privately (alice → bob), even ones in #flood (bob → alice, amid the flood there).
        let exchangeStart = clock.now
        var latencies: [Duration] = []
        for n in 1...10 {
            let (sender, receiver, target) = n % 2 == 1 ? (alice, bob, "bob") : (bob, alice, "#flood")
            let text = "good message \(n) of 10"
            let sent = clock.now
            try await sender.send("PRIVMSG \(target) :\(text)")
            try await receiver.expect("message \(n)", timeout: 5) { $0.hasSuffix("PRIVMSG \(target) :\(text)") }
            latencies.append(clock.now - sent)
        }
        let exchange = clock.now - exchangeStart
        let processedAfterExchange = sink.floodLines
        let writtenAfterExchange = written.withLockedValue { $0 }
        let sinceFlood = clock.now - floodStart
        // What the server holds at that moment: lines read and waiting for flood control, on
        // how many connections, and the fullest receive queue (all input is read at once).
        let (held, holding, largest) = try await Self.heldLines(core)

        // The server answers PING at once as well.
        let pingSent = clock.now
        try await alice.send("PING :still-there")
        try await alice.expect("PONG", timeout: 5) { $0.contains(" PONG ") && $0.hasSuffix("still-there") }
        let ping = clock.now - pingSent

        // The exchange was over while most of the flood still waited.
        print(
            "flood: exchange of 10 took \(Self.ms(exchange)) ms (each: "
                + "\(latencies.map { "\(Self.ms($0))" }.joined(separator: " ")) ms), "
                + "PING \(Self.ms(ping)) ms; "
                + "flood lines out at its start \(processedAtStart), at its end \(processedAfterExchange) of "
                + "\(Self.total) "
                + "(\(writtenAfterExchange) written by then, \(Self.ms(sinceFlood)) ms after the flood began); "
                + "the server held \(held) lines on \(holding) connections, at most \(largest) bytes on one")
        #expect(largest <= ConnectionHandler.maxHeldBytes)
        #expect(processedAfterExchange < Self.total / 2, "the good exchange only finished after most of the flood")
        #expect(
            holding >= Self.flooders * 9 / 10 && held >= Self.flooders * 20,
            "the flood was not being held: \(held) lines on \(holding)")
        // A generous bound for a loaded machine; the flood's own progress above is the real measure.
        #expect(latencies.allSatisfy { $0 < .seconds(3) } && ping < .seconds(3), "latencies \(latencies), PING \(ping)")

        // Then the flood goes on, no faster than flood control lets it (each flooder: its
        // burst, then its rate), and nobody is disconnected for flooding.
        try await Task.sleep(for: .seconds(2))
        let later = sink.floodLines
        let elapsed = clock.now - floodStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let allowed = Int(Double(Self.flooders) * (FloodTiers.standard.burst + FloodTiers.standard.rate * seconds))
        print(
            "flood: \(later) of \(Self.total) flood lines out after \(Self.ms(elapsed)) ms (flood control "
                + "allows at most \(allowed))"
        )
        #expect(later > processedAfterExchange, "the flood stopped")
        #expect(later <= allowed, "more flood lines went through than flood control allows")
        #expect(later < Self.total)
        let gone = flooders.filter { $0.isClosed || $0.error != nil }
        #expect(gone.isEmpty, "\(gone.count) flooders were disconnected, e.g. \(gone.first?.error ?? "closed")")
        let stillConnected = core.chat.withLock { $0.clients.count }
        #expect(stillConnected == Self.flooders + 3)

        // And the good pair still talk.
        try await alice.send("PRIVMSG bob :last one")
        try await bob.expect("the last message", timeout: 5) { $0.hasSuffix("PRIVMSG bob :last one") }
    }

    static func ms(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// Lines the server's connections hold for flood control (read, not yet handled), the
    /// connections holding any, and the most bytes one holds; asked on each event loop.
    static func heldLines(_ core: Core) async throws -> (lines: Int, connections: Int, largest: Int) {
        let clients = core.chat.withLock { Array($0.clients.values) }
        var total = (lines: 0, connections: 0, largest: 0)
        for onLoop in Dictionary(grouping: clients, by: { ObjectIdentifier($0.eventLoop) }).values {
            let counts = try await onLoop[0].eventLoop.submit {
                var counts = (lines: 0, connections: 0, largest: 0)
                for client in onLoop {
                    guard let handler = client.socket.handler else { continue }
                    let held = handler.held.count
                    counts.lines += held
                    counts.connections += held > 0 ? 1 : 0
                    counts.largest = max(counts.largest, handler.heldBytes)
                }
                return counts
            }.get()
            total.lines += counts.lines
            total.connections += counts.connections
            total.largest = max(total.largest, counts.largest)
        }
        return total
    }

    /// Raises the soft limit on open files to the hard limit; returns the soft limit.
    static func raiseFileLimit() -> Int {
        var limit = rlimit()
        #if os(Linux)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        getrlimit(resource, &limit)
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            // "Unlimited" (all ones) is not a valid soft limit for open files.
            raised.rlim_cur = limit.rlim_max == rlim_t.max ? 1 << 20 : limit.rlim_max
            if setrlimit(resource, &raised) != 0 {
                raised.rlim_cur = rlim_t(65536)
                _ = setrlimit(resource, &raised)
            }
            getrlimit(resource, &limit)
        }
        return limit.rlim_cur == rlim_t.max ? Int.max : Int(limit.rlim_cur)
    }
}

/// A cheap IRC connection for the flood: registers (and joins), then writes what it is told
/// and only counts what it receives. Until it is registered it reads every line; after that
/// it only counts flood lines (PRIVMSG from f0…f999) with memchr, so that 1,000 of them and
/// the sink cost the test process little next to the server. Touched on its event loop; the
/// counters are read under a lock.
final class FloodConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let nick: String
    let join: String?
    let ready: EventLoopPromise<Void>
    var channel: Channel!
    private var partial = ByteBuffer()
    private var isReady = false
    /// The last bytes received, to tell why the server closed the connection if it does.
    private var last = ByteBuffer()
    private struct Counts {
        var floodLines = 0
        var error: String?
        var closed = false
    }
    private let counts = NIOLockedValueBox(Counts())

    var floodLines: Int { counts.withLockedValue { $0.floodLines } }
    var error: String? { counts.withLockedValue { $0.error } }
    var isClosed: Bool { counts.withLockedValue { $0.closed } }

    init(nick: String, join: String?, eventLoop: EventLoop) {
        self.nick = nick
        self.join = join
        ready = eventLoop.makePromise()
    }

    /// Connects, registers and joins; returns once the server said 001 (and 366).
    static func open(port: Int, nick: String, join: String?, group: EventLoopGroup) async throws -> FloodConnection {
        let loop = group.next()
        let handler = FloodConnection(nick: nick, join: join, eventLoop: loop)
        _ = try await ClientBootstrap(group: loop)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await handler.ready.futureResult.get()
        return handler
    }

    func channelActive(context: ChannelHandlerContext) {
        channel = context.channel
        var hello = "NICK \(nick)\r\nUSER \(nick) 0 * :flood\r\n"
        if let join { hello += "JOIN \(join)\r\n" }
        context.writeAndFlush(NIOAny(ByteBuffer(string: hello)), promise: nil)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let tail = last.readableBytesView.suffix(300)
        counts.withLockedValue {
            $0.closed = true
            if $0.error == nil { $0.error = "closed after: " + String(decoding: tail, as: UTF8.self) }
        }
        if !isReady {
            isReady = true
            ready.fail(ChannelError.ioOnClosedChannel)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// 20 lines of flood to one target, built once (the connections share the bytes).
    static func chunk(to target: String) -> ByteBuffer {
        ByteBuffer(string: String(repeating: "PRIVMSG \(target) :flood flood flood flood flood\r\n", count: 20))
    }

    /// Writes `chunks` chunks, as fast as the socket takes them; the future completes
    /// when the last one is written.
    func flood(_ chunk: ByteBuffer, times chunks: Int) -> EventLoopFuture<Void> {
        let channel = self.channel!
        return channel.eventLoop.flatSubmit {
            var last = channel.eventLoop.makeSucceededVoidFuture()
            for _ in 0..<chunks { last = channel.writeAndFlush(chunk) }
            return last
        }
    }

    /// Closes with a reset, so the server drops whatever of ours it still holds.
    func reset() -> EventLoopFuture<Void> {
        let channel = self.channel!
        let linger =
            (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            ?? channel.eventLoop.makeSucceededVoidFuture()
        return linger.flatMap { channel.close() }.recover { _ in }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        last = buffer
        if partial.readableBytes > 0 {
            partial.writeBuffer(&buffer)
            buffer = partial
            partial = ByteBuffer()
        }
        let (consumed, floodLines) = buffer.withUnsafeReadableBytes { bytes -> (Int, Int) in
            guard let base = bytes.baseAddress else { return (0, 0) }
            var start = 0
            var floodLines = 0
            while start < bytes.count, let newline = memchr(base + start, 10, bytes.count - start) {
                let end = base.distance(to: UnsafeRawPointer(newline))
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                if Self.isFloodLine(line) {
                    floodLines += 1
                } else if !isReady || line.starts(with: "PING ".utf8) {
                    handle(String(decoding: line, as: UTF8.self), context: context)
                }
                start = end + 1
            }
            return (start, floodLines)
        }
        buffer.moveReaderIndex(forwardBy: consumed)
        if buffer.readableBytes > 0 { partial = buffer }
        if floodLines > 0 { counts.withLockedValue { $0.floodLines += floodLines } }
    }

    /// ":f<digits>!… PRIVMSG …": a line of the flood (flooders ask for no caps, so no tags).
    static func isFloodLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count > 3, line[0] == UInt8(ascii: ":"), line[1] == UInt8(ascii: "f"),
            let space = line.firstIndex(of: 32)
        else { return false }
        return line[(space + 1)...].starts(with: "PRIVMSG ".utf8)
    }

    /// A line before registration ended, or a PING.
    private func handle(_ line: String, context: ChannelHandlerContext) {
        let words = line.split(separator: " ", maxSplits: 2)
        guard let first = words.first else { return }
        if first == "PING" {
            context.writeAndFlush(NIOAny(ByteBuffer(string: "PONG " + line.dropFirst(5) + "\n")), promise: nil)
            return
        }
        guard !isReady, words.count > 1 else { return }
        if words[1] == (join == nil ? "001" : "366") {
            isReady = true
            ready.succeed(())
        } else if first == "ERROR" || words[1] == "433" || words[1] == "432" {
            isReady = true
            counts.withLockedValue { $0.error = line }
            ready.fail(TimeoutError(description: "\(nick) was refused: \(line)"))
        }
    }
}
