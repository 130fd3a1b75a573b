import HearthProtocol
import NIOCore

/// What the framer hands up: a line, or notice that an over-long line was dropped.
enum InboundLine {
    case line(ByteBuffer)
    case tooLong

    /// What the line costs in the receive queue (a dropped line counts as its end).
    var byteCount: Int {
        switch self {
        case .line(let bytes): bytes.readableBytes + 2
        case .tooLong: 2
        }
    }
}

/// Splits the byte stream on LF (dropping a CR before it). A line longer than
/// `IRCLimits.maxLineBytes` is discarded up to its end and reported once, so the
/// connection lives on and memory stays bounded. Used inside `ConnectionHandler`, so a
/// line costs no extra pipeline hop or boxing.
struct LineFramer {
    private var pending = ByteBuffer()
    private var discarding = false

    mutating func feed(_ input: inout ByteBuffer, _ emit: (InboundLine) -> Void) {
        if pending.readableBytes > 0 {
            pending.writeBuffer(&input)
            input = pending
            pending = ByteBuffer()
        }
        while true {
            let view = input.readableBytesView
            guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else { break }
            let length = newline - view.startIndex
            if discarding {
                input.moveReaderIndex(forwardBy: length + 1)
                discarding = false
                continue
            }
            var line = input.readSlice(length: length)!
            input.moveReaderIndex(forwardBy: 1)
            if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
            emit(line.readableBytes > IRCLimits.maxLineBytes ? .tooLong : .line(line))
        }
        if input.readableBytes > IRCLimits.maxLineBytes {
            input.moveReaderIndex(forwardBy: input.readableBytes)
            if !discarding {
                discarding = true
                emit(.tooLong)
            }
        } else if input.readableBytes > 0 {
            // A copy, not a slice: a slice would keep the whole read buffer (the loop's own, with
            // `--io epoll`) alive for as long as the line stays unfinished.
            pending = ByteBuffer(bytes: input.readableBytesView)
        }
    }
}
