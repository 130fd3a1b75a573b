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

    /// Appends one frame carrying `payload`: header and payload stored in one reservation (a
    /// `writeInteger` per header byte costs more than the copy of a chat line).
    func append(frame payload: UnsafeRawBufferPointer, to out: inout ByteBuffer) {
        let count = payload.count
        let header = count <= Self.maxTinyLength ? 2 : count <= Self.maxShortLength ? 4 : 10
        out.writeWithUnsafeMutableBytes(minimumWritableBytes: header + count) { space in
            space[0] = first
            switch header {
            case 2:
                space[1] = UInt8(count)
            case 4:
                space[1] = 126
                space.storeBytes(of: UInt16(count).bigEndian, toByteOffset: 2, as: UInt16.self)
            default:
                space[1] = 127
                space.storeBytes(of: UInt64(count).bigEndian, toByteOffset: 2, as: UInt64.self)
            }
            if let source = payload.baseAddress, count > 0 {
                (space.baseAddress! + header).copyMemory(from: source, byteCount: count)
            }
            return header + count
        }
    }
}
