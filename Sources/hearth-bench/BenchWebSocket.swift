import NIOCore
import NIOWebSocket

/// How the harness reaches the server: plain TCP, or IRC over WebSocket (`--websocket-port`).
/// Set once from the command line before any connection opens.
enum BenchTransport {
    nonisolated(unsafe) static var webSocket = false
}

/// The front of a WebSocket bench connection: sends the HTTP upgrade, holds the IRC lines
/// written meanwhile, and once the server answers 101 puts the frame codec and `FrameLines`
/// in its place, so `BenchConnection` above reads and writes lines as over TCP.
final class WebSocketHandshake: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private var received = ByteBuffer()
    private var held: [ByteBuffer] = []
    private var upgraded = false

    func channelActive(context: ChannelHandlerContext) {
        let request =
            "GET /irc HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: text.ircv3.net\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: request)), promise: nil)
        context.fireChannelActive()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if upgraded { return context.write(data, promise: promise) }
        held.append(unwrapOutboundIn(data))
        promise?.succeed()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if upgraded { return context.fireChannelRead(data) }  // until it is removed
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        let view = received.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        guard String(decoding: view.prefix(12), as: UTF8.self).hasSuffix("101") else {
            context.close(promise: nil)
            return
        }
        received.moveReaderIndex(to: end.upperBound)
        let rest = received
        do {
            let pipeline = context.pipeline.syncOperations
            let lines = FrameLines()
            try pipeline.addHandler(lines, position: .after(self))
            try pipeline.addHandler(
                ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 16)), position: .after(self))
            try pipeline.addHandler(WebSocketFrameEncoder(), position: .after(self))
            upgraded = true
            let above = try pipeline.context(handler: lines)
            for buffer in held { lines.write(context: above, data: NIOAny(buffer), promise: nil) }
            held = []
            context.flush()
            pipeline.removeHandler(context: context, promise: nil)
            if rest.readableBytes > 0 { context.fireChannelRead(NIOAny(rest)) }
        } catch {
            context.close(promise: nil)
        }
    }
}

/// Messages in become CRLF lines; written lines (several per buffer) become masked messages.
final class FrameLines: ChannelDuplexHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            var line = frame.unmaskedData
            line.writeString("\r\n")
            context.fireChannelRead(wrapInboundOut(line))
        case .connectionClose: context.close(promise: nil)
        default: break
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        let view = buffer.readableBytesView
        var start = view.startIndex
        while let newline = view[start...].firstIndex(of: 10) {
            var end = newline
            if end > start && view[end - 1] == 13 { end -= 1 }
            let frame = WebSocketFrame(
                fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(bytes: view[start..<end]))
            context.write(wrapOutboundOut(frame), promise: nil)
            start = newline + 1
        }
        promise?.succeed()
    }
}
