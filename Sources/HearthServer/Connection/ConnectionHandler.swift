import Foundation
import HearthProtocol
import NIOCore
import NIOSSL

/// One per connection: feeds lines to the core in order, holds lines while async work
/// (the bot, SQL, Argon2id) runs or while flood control makes the client wait, closes a
/// client whose held input passes its receive queue, and runs the registration and ping timers.
final class ConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    /// The receive queue: bytes of input read and held (waiting for flood control or async
    /// work) that a client may have before it is closed with "Excess Flood", as InspIRCd's
    /// recvq. Input is always read, never left in the socket, so a client cannot park
    /// megabytes in the kernel to be relayed for half an hour.
    static let maxHeldBytes = 16 * 1024
    /// A client that closed its sending side (`printf … | nc`) is answered in full if it
    /// sent at most this many lines more than flood control lets through at once; past that
    /// it is a ghost posting on its own, and goes ("Excess Flood").
    static let maxHeldLinesAfterInputClosed = 64

    let core: Core
    var client: Client!
    var framer = LineFramer()
    /// Lines read but not yet run, oldest first. A ring buffer, so lines already run are let
    /// go at once: a client that keeps a standing backlog cannot make it grow. It starts with
    /// room for one line (NIO's default of 16 was half a kilobyte per idle connection).
    var held = CircularBuffer<InboundLine>(initialCapacity: 1)
    /// Bytes of the lines in `held`.
    var heldBytes = 0
    var waiting = false
    var flood = FloodControl()
    /// The flood tier as the last line's one read of the chat state found it (nil: read it for
    /// the next line). Kept so a line takes the chat lock once before its handler, not twice.
    var floodTier: FloodControl.Tier?
    var sweeper: LoopSweeper?
    var greetTimer: Scheduled<Void>?
    /// The client closed its sending side (`printf … | nc`): answer what it sent, then close.
    var inputClosed = false
    /// Whether a line has been handled yet (the first one is checked for HTTP).
    var sawFirstLine = false

    /// The client's address as a trusted load balancer reported it (PROXY protocol), if so.
    let reportedAddress: String?

    /// A WebSocket connection (IRC from the start, no plain mode): how its lines are framed.
    let framing: WebSocketFraming?
    var webSocket: Bool { framing != nil }

    /// How the connection came (for the metrics); set when it begins.
    private var transport: ServerMetrics.Transport?

    init(core: Core, address: String? = nil, webSocket framing: WebSocketFraming? = nil) {
        self.core = core
        self.reportedAddress = address
        self.framing = framing
    }

    /// Added after a PROXY header or a WebSocket upgrade, to a connection that is already up.
    func handlerAdded(context: ChannelHandlerContext) {
        if reportedAddress != nil && context.channel.isActive { begin(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        begin(context: context)
        context.fireChannelActive()
    }

    private func begin(context: ChannelHandlerContext) {
        let address = reportedAddress ?? HearthServer.peerAddress(context.channel.remoteAddress) ?? "unknown"
        let tls = (try? context.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)) != nil
        start(
            socket: .channel(context.channel), eventLoop: context.eventLoop, address: address,
            transport: webSocket ? .websocket : tls ? .tls : .tcp)
    }

    /// The connection is up (a NIO channel's, or an `--io epoll` socket's).
    func start(socket: ClientSocket, eventLoop: EventLoop, address: String, transport: ServerMetrics.Transport) {
        let locals = core.loops.locals(for: eventLoop)
        client = Client(
            id: core.newClientID(), socket: socket, eventLoop: eventLoop, address: address,
            host: core.shownHost(for: address), batcher: locals.batcher, framing: framing)
        sweeper = locals.sweeper
        self.transport = transport
        core.metrics.connectionsOpened[transport]?.increment()
        core.metrics.connectionsOpen[transport]?.increment()
        core.logEvent("connected", client, ["address": "\(address)", "transport": "\(transport.rawValue)"])
        refreshFlood()
        guard core.add(client, exempt: !flood.enabled) else {
            let limit = core.config.maxConnectionsPerAddress
            let refusal =
                "ERROR :Closing Link: \(address) (Too many connections from your address: the limit is \(limit))\r\n"
            client.closing = true
            let bytes = ByteBuffer(string: refusal)
            socket.sendThenClose(framing?.framed(bytes) ?? bytes)
            return
        }
        let client = self.client!
        let core = self.core
        locals.sweeper.add(self)
        if webSocket {
            core.chat.withLock { state in state[client].mode = .irc }
            return
        }
        greetTimer = eventLoop.scheduleTask(in: .milliseconds(Int64(core.config.plainGreetingDelay * 1000))) {
            // Someone who connected and said nothing is probably a person with nc: greet them.
            if core.chat.withLock({ state in state[client].mode == .undecided }) { core.startPlainMode(client) }
        }
    }

    /// The client stopped reading and its send queue passed the limit: it goes, so that
    /// nobody else waits and the server holds no more for it.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable { sendQueueFull() }
        context.fireChannelWritabilityChanged()
    }

    func sendQueueFull() {
        guard !client.closing else { return }
        client.closing = true
        core.metrics.sendQueueDrops.increment()
        core.remove(client, reason: "SendQ exceeded")
        client.socket.close()
    }

    func channelInactive(context: ChannelHandlerContext) {
        ended()
        context.fireChannelInactive()
    }

    /// The connection is closed.
    func ended() {
        let wasClosing = client.closing
        client.closing = true
        sweeper?.remove(self)
        greetTimer?.cancel()
        if let transport {
            core.metrics.connectionsOpen[transport]?.decrement()
            core.logEvent("disconnected", client, ["reason": "\(wasClosing ? "quit" : "connection closed")"])
        }
        transport = nil
        core.remove(client, reason: wasClosing ? "Quit" : "Connection closed")
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received(&bytes)
    }

    /// Bytes read from the connection.
    func received(_ bytes: inout ByteBuffer) {
        if greetTimer != nil {
            greetTimer?.cancel()
            greetTimer = nil
        }
        client.lastInput = .now()
        client.pingOutstanding = false
        framer.feed(&bytes) { line in
            // Closed (Excess Flood, an HTTP request): the rest of this read is not kept.
            guard !client.closing else { return }
            if waiting || !held.isEmpty {
                hold(line)
            } else {
                process(line)
            }
        }
    }

    private func hold(_ line: InboundLine) {
        held.append(line)
        heldBytes += line.byteCount
        checkReceiveQueue()
    }

    /// Closes a client past its receive queue.
    private func checkReceiveQueue() {
        guard !client.closing else { return }
        if heldBytes > Self.maxHeldBytes || (inputClosed && held.count > Self.maxHeldLinesAfterInputClosed) {
            held.removeAll()
            heldBytes = 0
            close(reason: "Excess Flood")
        }
    }

    /// Flood control's settings as of the last reload (read once per reload, not per line).
    private func refreshFlood() {
        let config = core.config
        flood.tiers = config.flood
        flood.enabled = config.floodControl || !HearthServer.isLoopback(client.address)
        flood.generation = core.configGeneration.load(ordering: .relaxed)
    }

    private func process(_ line: InboundLine) {
        guard !client.closing else { return }
        if flood.generation != core.configGeneration.load(ordering: .relaxed) { refreshFlood() }
        if let wait = flood.take(floodTier ?? core.floodTier(client), now: .uptimeNanoseconds(core.ticks())) {
            core.metrics.floodDelays.increment()
            held.prepend(line)
            heldBytes += line.byteCount
            waiting = true
            client.eventLoop.scheduleTask(in: wait) {
                self.waiting = false
                self.drain()
            }
            return
        }
        switch line {
        case .tooLong:
            if core.chat.withLock({ state in state[client].isPlain }) {
                core.plainSay(client, ["error: that line is too long; nothing was sent."])
            } else {
                let tags = IRCLimits.maxClientTagBytes + 2
                core.reply(
                    client, .inputTooLong,
                    "Input line was too long (the limit is \(IRCLimits.maxBodyBytes) bytes, plus \(tags) of tags)")
            }
        case .line(let bytes):
            if !sawFirstLine {
                sawFirstLine = true
                if HTTPProbe.looksLikeHTTP(bytes.readableBytesView) {
                    // Nothing of it runs; lines after it in the same read see `closing`.
                    close(reason: "HTTP requests are not accepted on the IRC port")
                    return
                }
            }
            let route = core.handleLine(client, bytes)
            // A line sent before registration may complete it, and async work (SASL, the bot's
            // `!set bot on`) may change the tier: the next line reads it again.
            floodTier = route.registered && client.pending == nil ? route.tier : nil
        }
        if client.pending == nil { core.finishLabel(client) }
        waitForPending()
    }

    private func waitForPending() {
        guard let pending = client.pending else { return }
        waiting = true
        pending.whenComplete { _ in
            if self.client.pending === pending { self.client.pending = nil }
            self.waiting = false
            if self.client.pending != nil {
                self.waitForPending()
            } else {
                self.core.finishLabel(self.client)
                self.drain()
            }
        }
    }

    private func drain() {
        while !waiting, let next = held.popFirst() {
            heldBytes -= next.byteCount
            process(next)
        }
        closeIfFinished()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { inputEnded() }
        context.fireUserInboundEventTriggered(event)
    }

    /// The client closed its sending side.
    func inputEnded() {
        inputClosed = true
        checkReceiveQueue()
        closeIfFinished()
    }

    /// After a half-close, once every line sent has been answered.
    private func closeIfFinished() {
        guard inputClosed, !waiting, held.isEmpty, client.pending == nil, !client.closing else { return }
        client.closing = true
        core.remove(client, reason: "Connection closed")
        client.batcher.close(client)
    }

    /// `registered` and `mode`: the client's, read by the sweeper for all its connections at once.
    func checkTimeouts(registered: Bool, mode: ClientMode) {
        guard let client, !client.closing else { return }
        let config = core.config
        let idle = Double((NIODeadline.now() - client.lastInput).nanoseconds) / 1e9
        if !registered {
            if Date().timeIntervalSince(client.connectedAt) > config.registrationTimeout {
                close(reason: "Registration timed out")
            }
            return
        }
        guard mode == .irc else { return }
        if client.pingOutstanding {
            if idle > config.pingInterval + config.pingTimeout {
                close(reason: "Ping timeout: \(Int(idle)) seconds")
            }
        } else if idle > config.pingInterval {
            client.pingOutstanding = true
            core.withState { $1.send(client, IRCMessage(command: "PING", params: [core.serverName])) }
        }
    }

    private func close(reason: String) {
        client.closing = true
        core.withState {
            $1.send(client, IRCMessage(command: "ERROR", params: ["Closing Link: \(client.address) (\(reason))"]))
        }
        core.remove(client, reason: reason)
        client.batcher.close(client)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
