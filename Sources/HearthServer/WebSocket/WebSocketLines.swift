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
/// added, so the connection's line framer, limits and flood control apply unchanged); what the
/// connection writes is already framed (`WebSocketFraming`, as its lines were appended) and
/// passes straight to the socket. Pings are answered.
final class WebSocketLineBridge: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    private var closing = false

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

    /// The frame encoder's context: the connection's frames are written past it (it takes one
    /// `WebSocketFrame` at a time, two buffers and an allocation per line).
    private var encoder: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        encoder = try? context.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) { encoder = nil }

    /// The connection's output: frames already, as many as a tick wrote.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let encoder else {  // the upgrade adds the encoder before this handler: not expected
            promise?.fail(ChannelError.ioOnClosedChannel)
            return context.close(promise: nil)
        }
        encoder.write(data, promise: promise)
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
