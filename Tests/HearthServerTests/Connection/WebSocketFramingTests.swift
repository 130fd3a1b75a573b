import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import HearthServer

/// Server frames as lines are appended to a WebSocket client's output, read back by NIO's own
/// frame decoder (an independent reader of RFC 6455).
@Suite struct WebSocketFramingTests {
    /// The frames in `bytes`, as NIO's decoder reads them.
    static func decode(_ bytes: ByteBuffer) throws -> [WebSocketFrame] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        try channel.writeInbound(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try channel.readInbound(as: WebSocketFrame.self) { frames.append(frame) }
        _ = try channel.finish()
        return frames
    }

    static func texts(_ frames: [WebSocketFrame]) -> [String] {
        frames.map { String(buffer: $0.unmaskedData) }
    }

    @Test func eachLineIsOneUnmaskedFrameWithoutItsLineEnd() throws {
        let out = WebSocketFraming.text.framed(ByteBuffer(string: "PING a\r\n:x NOTICE b :c\nlast"))
        let frames = try Self.decode(out)
        #expect(Self.texts(frames) == ["PING a", ":x NOTICE b :c", "last"])
        #expect(frames.allSatisfy { $0.fin && $0.opcode == .text && $0.maskKey == nil })
        // The exact bytes of the first: FIN|text, length 6, payload.
        #expect(Array(out.readableBytesView.prefix(8)) == [0x81, 6] + Array("PING a".utf8))
    }

    @Test func binaryFramingAndEmptyLines() throws {
        let out = WebSocketFraming.binary.framed(ByteBuffer(string: "\r\nx\r\n\n"))
        let frames = try Self.decode(out)
        #expect(Self.texts(frames) == ["", "x", ""])
        #expect(frames.allSatisfy { $0.opcode == .binary })
        #expect(WebSocketFraming.binary.framed(ByteBuffer()).readableBytes == 0)
    }

    /// Lengths on both sides of the 7-bit and 16-bit limits take the header RFC 6455 names.
    @Test func lengthsCrossingTheirLimits() throws {
        let cases: [(Int, headerBytes: Int)] = [
            (WebSocketFraming.maxTinyLength, 2), (WebSocketFraming.maxTinyLength + 1, 4),
            (WebSocketFraming.maxShortLength, 4), (WebSocketFraming.maxShortLength + 1, 10),
        ]
        for (length, headerBytes) in cases {
            let line = String(repeating: "y", count: length)
            let out = WebSocketFraming.text.framed(ByteBuffer(string: line + "\r\n"))
            #expect(out.readableBytes == headerBytes + length, "\(length)")
            #expect(Self.texts(try Self.decode(out)) == [line], "\(length)")
        }
    }

    /// Appending frames to an output that already holds some keeps what was there.
    @Test func framesAppendToWhatIsWaiting() throws {
        var out = ByteBuffer()
        WebSocketFraming.text.append(lines: ByteBuffer(string: "one\r\n"), to: &out)
        WebSocketFraming.text.append(lines: ByteBuffer(string: "two\r\nthree\r\n"), to: &out)
        #expect(Self.texts(try Self.decode(out)) == ["one", "two", "three"])
    }
}
