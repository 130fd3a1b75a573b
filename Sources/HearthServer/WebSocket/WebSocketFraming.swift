import Foundation
import NIOCore

/// How a WebSocket connection's lines leave: one unmasked frame per line, text or binary as
/// negotiated. Lines are framed as they are appended to the connection's output (a header
/// written in front of bytes copied anyway), so the output goes to the socket as it is,
/// without a second pass over it.
struct WebSocketFraming: Sendable, Equatable {
    /// FIN and the data opcode (RFC 6455 §5.2).
    let first: UInt8

    static let text = WebSocketFraming(first: 0x81)
    static let binary = WebSocketFraming(first: 0x82)

    /// The largest payload whose length fits the first length byte; up to `maxShortLength`
    /// it takes 16 bits more, past it 64.
    static let maxTinyLength = 125
    static let maxShortLength = 65535

    /// Appends each line of `lines` (ended by CRLF or LF; a last one without an end too) as one
    /// frame, without its line end.
    func append(lines: ByteBuffer, to out: inout ByteBuffer) {
        lines.withUnsafeReadableBytes { append(lines: $0, to: &out) }
    }

    /// `lines` framed.
    func framed(_ lines: ByteBuffer) -> ByteBuffer {
        var out = ByteBuffer()
        append(lines: lines, to: &out)
        return out
    }

    func append(lines raw: UnsafeRawBufferPointer, to out: inout ByteBuffer) {
        guard let base = raw.baseAddress else { return }
        var start = 0
        while start < raw.count {
            var end = raw.count
            var next = raw.count
            if let newline = memchr(base + start, 0x0A, raw.count - start) {
                end = base.distance(to: UnsafeRawPointer(newline))
                next = end + 1
                if end > start && raw[end - 1] == 0x0D { end -= 1 }
            }
            append(frame: UnsafeRawBufferPointer(rebasing: raw[start..<end]), to: &out)
            start = next
        }
    }

    /// Appends one frame carrying `payload`.
    func append(frame payload: UnsafeRawBufferPointer, to out: inout ByteBuffer) {
        out.reserveCapacity(minimumWritableBytes: payload.count + 10)
        out.writeInteger(first)
        switch payload.count {
        case ...Self.maxTinyLength:
            out.writeInteger(UInt8(payload.count))
        case ...Self.maxShortLength:
            out.writeInteger(UInt8(126))
            out.writeInteger(UInt16(payload.count))
        default:
            out.writeInteger(UInt8(127))
            out.writeInteger(UInt64(payload.count))
        }
        out.writeBytes(payload)
    }
}
