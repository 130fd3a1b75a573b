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

    /// Lines leave as written (often several in one buffer): one frame each.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var buffer = unwrapOutboundIn(data)
        var frames: [WebSocketFrame] = []
        while let end = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = end - buffer.readerIndex
            var line = buffer.readSlice(length: length + 1)!
            var trimmed = length
            if trimmed > 0, line.getInteger(at: line.readerIndex + trimmed - 1, as: UInt8.self) == UInt8(ascii: "\r") {
                trimmed -= 1
            }
            line = line.getSlice(at: line.readerIndex, length: trimmed)!
            frames.append(WebSocketFrame(fin: true, opcode: binary ? .binary : .text, data: line))
        }
        if buffer.readableBytes > 0 {
            frames.append(WebSocketFrame(fin: true, opcode: binary ? .binary : .text, data: buffer))
        }
        guard let last = frames.popLast() else {
            promise?.succeed()
            return
        }
        for frame in frames { context.write(wrapOutboundOut(frame), promise: nil) }
        context.write(wrapOutboundOut(last), promise: promise)
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
