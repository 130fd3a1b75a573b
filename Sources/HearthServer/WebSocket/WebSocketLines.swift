import HearthProtocol
import NIOCore
import NIOWebSocket

/// IRC over WebSocket (IRCv3 `text.ircv3.net` / `binary.ircv3.net`): one IRC line per message.
enum WebSocketIRC {
    /// Subprotocols in the order Hearth prefers them when a client offers both ways; the first
    /// one the client lists wins. Without one, a connection is text (as InspIRCd's default).
    static let subprotocols = ["binary.ircv3.net", "text.ircv3.net"]
    /// Paths of the HTTP port that take an upgrade (a bare `ws://host:port` asks for `/`).
    static let paths: Set<String> = ["/", "/irc"]
    /// A message carries one IRC line: no more than a line with its tags may hold.
    static let maxMessageBytes = IRCLimits.maxLineBytes
    /// Fragments one message may come in.
    static let maxFragments = 16

    /// The subprotocol to answer a `Sec-WebSocket-Protocol` request with: the client's first
    /// that Hearth speaks, or nil (text, no header).
    static func choose(_ offered: [String]) -> String? {
        let names = offered.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        return names.first { subprotocols.contains($0) }
    }
}

/// Between WebSocket frames and the IRC connection: each message in is one line (a CRLF is
/// added, so the connection's line framer, limits and flood control apply unchanged); each
/// line out is one message, as text or binary frames as negotiated. Pings are answered.
final class WebSocketLineBridge: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    let binary: Bool
    private var closing = false

    init(binary: Bool) { self.binary = binary }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            var line = frame.unmaskedData
            // One line per message; a client that ends it with CRLF anyway gets no empty line.
            if line.readableBytesView.last != UInt8(ascii: "\n") { line.writeStaticString("\r\n") }
            context.fireChannelRead(wrapInboundOut(line))
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            close(context, code: .normalClosure)
        default:
            break
        }
    }

    /// The frame encoder's context: lines are framed here, all of a write into one buffer, and
    /// written past the encoder (which would take two buffers and an allocation per line).
    private var encoder: ChannelHandlerContext?
    private var out = ByteBuffer()

    func handlerAdded(context: ChannelHandlerContext) {
        encoder = try? context.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) { encoder = nil }

    /// Lines leave as written (often several in one buffer): one unmasked frame each.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        let view = buffer.readableBytesView
        // The same memory serves every write once the socket has taken the last one (as the
        // connection's output buffer does); a buffer still queued is copied, not overwritten.
        if out.capacity > FlushBatcher.keptOutputCapacity * 8 { out = ByteBuffer() } else { out.clear() }
        out.reserveCapacity(buffer.readableBytes + 64)
        let opcode: UInt8 = 0x80 | (binary ? 0x2 : 0x1)  // FIN and the negotiated data opcode
        var start = view.startIndex
        while start < view.endIndex {
            let newline = view[start...].firstIndex(of: UInt8(ascii: "\n"))
            var end = newline ?? view.endIndex
            if newline != nil, end > start, view[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            Self.writeFrame(opcode: opcode, payload: view[start..<end], into: &out)
            start = newline.map { $0 + 1 } ?? view.endIndex
        }
        guard let encoder else {  // the upgrade adds the encoder before this handler: not expected
            promise?.fail(ChannelError.ioOnClosedChannel)
            return context.close(promise: nil)
        }
        encoder.write(NIOAny(out), promise: promise)
    }

    /// RFC 6455 §5.2: FIN and opcode, then the length in 7, 16 or 64 bits; servers do not mask.
    static func writeFrame(opcode: UInt8, payload: ByteBufferView, into out: inout ByteBuffer) {
        out.writeInteger(opcode)
        switch payload.count {
        case ..<126: out.writeInteger(UInt8(payload.count))
        case ..<65536:
            out.writeInteger(UInt8(126))
            out.writeInteger(UInt16(payload.count))
        default:
            out.writeInteger(UInt8(127))
            out.writeInteger(UInt64(payload.count))
        }
        out.writeBytes(payload)
    }

    /// A message past the limits (`WebSocketIRC.maxMessageBytes`, `maxFragments`) or broken
    /// fragments: closed with the matching code (1009 or 1002), as RFC 6455 asks.
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch error as? NIOWebSocketFrameAggregator.Error {
        case .accumulatedFrameSizeIsTooLarge?, .tooManyFragments?: close(context, code: .messageTooLarge)
        case .some: close(context, code: .protocolError)
        case nil: context.fireErrorCaught(error)
        }
    }

    func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !closing else { return }
        closing = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in context.close(promise: nil) }
    }
}
