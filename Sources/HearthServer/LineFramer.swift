import HearthProtocol
import NIOCore

/// What the framer hands up: a line, or notice that an over-long line was dropped.
enum InboundLine {
    case line(ByteBuffer)
    case tooLong
}

/// Splits the byte stream on LF (dropping a CR before it). A line longer than
/// `IRCLimits.maxLineBytes` is discarded up to its end and reported once, so the
/// connection lives on and memory stays bounded.
struct LineFramer: ByteToMessageDecoder {
    typealias InboundOut = InboundLine
    var discarding = false

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        if let newline = view.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            if discarding {
                buffer.moveReaderIndex(forwardBy: length + 1)
                discarding = false
                return .continue
            }
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if line.readableBytesView.last == UInt8(ascii: "\r") {
                line = line.getSlice(at: line.readerIndex, length: line.readableBytes - 1)!
            }
            if line.readableBytes > IRCLimits.maxLineBytes {
                context.fireChannelRead(wrapInboundOut(.tooLong))
            } else {
                context.fireChannelRead(wrapInboundOut(.line(line)))
            }
            return .continue
        }
        if buffer.readableBytes > IRCLimits.maxLineBytes {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            if !discarding {
                discarding = true
                context.fireChannelRead(wrapInboundOut(.tooLong))
            }
        }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
