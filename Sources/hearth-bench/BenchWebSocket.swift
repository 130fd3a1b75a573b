import NIOCore

/// How the harness reaches the server: plain TCP, or IRC over WebSocket (`--websocket-port`).
/// Set once from the command line before any connection opens.
enum BenchTransport {
    nonisolated(unsafe) static var webSocket = false
    /// Slow readers (`--read-every-ms`): after registering, each connection reads once per this
    /// many milliseconds (a read takes up to 64 KiB); 0 reads as soon as bytes come.
    nonisolated(unsafe) static var readEveryMs: Int64 = 0
}

/// The front of a WebSocket bench connection: sends the HTTP upgrade, holds the IRC lines
/// written meanwhile, and once the server answers 101 puts `FrameLines` in its place for what
/// `BenchConnection` writes, and has it read frames.
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
            try pipeline.handler(type: BenchConnection.self).webSocket = true
            let lines = FrameLines()
            try pipeline.addHandler(lines, position: .after(self))
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

/// Written lines (several per buffer) become masked messages; frames in are read by
/// `BenchConnection` itself.
final class FrameLines: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        let view = buffer.readableBytesView
        var out = context.channel.allocator.buffer(capacity: buffer.readableBytes + 64)
        var start = view.startIndex
        while let newline = view[start...].firstIndex(of: 10) {
            var end = newline
            if end > start && view[end - 1] == 13 { end -= 1 }
            // A masked text frame (clients must mask); a zero key leaves the bytes as they are.
            out.writeInteger(UInt8(0x81))
            let count = end - start
            if count < 126 {
                out.writeInteger(UInt8(0x80 | count))
            } else {
                out.writeInteger(UInt8(0x80 | 126))
                out.writeInteger(UInt16(count))
            }
            out.writeInteger(UInt32(0))
            out.writeBytes(view[start..<end])
            start = newline + 1
        }
        context.write(wrapOutboundOut(out), promise: promise)
    }
}
