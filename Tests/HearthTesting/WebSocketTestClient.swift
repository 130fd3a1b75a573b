import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket

/// What a WebSocket test connection learned: the handshake's answer and the kind of each frame.
public final class WebSocketSession: Sendable {
    /// The HTTP status line and headers of the handshake's answer (lower-cased names).
    public let response = NIOLockedValueBox<(status: String, headers: [String: String])>(("", [:]))
    /// The opcode of every data frame received, in order.
    public let opcodes = NIOLockedValueBox<[WebSocketOpcode]>([])
    /// Close frames received: their status codes.
    public let closeCodes = NIOLockedValueBox<[UInt16]>([])
    /// Pong frames received: their payloads.
    public let pongs = NIOLockedValueBox<[String]>([])
    /// Send data frames as binary instead of text.
    public let sendsBinary = NIOLockedValueBox(false)
}

extension TestClient {
    /// A browser-like IRC-over-WebSocket connection: the HTTP upgrade to `path`, offering
    /// `subprotocols`; then each `send` is one masked message and each message read one line.
    /// `tls`: wss:// (the test's self-signed certificate is not verified); `headers` go with the upgrade.
    public static func connectWebSocket(
        port: Int, path: String = "/", subprotocols: [String] = ["text.ircv3.net"], tls: Bool = false,
        headers: [String: String] = [:]
    ) async throws -> (TestClient, WebSocketSession) {
        let session = WebSocketSession()
        let inbox = Inbox()
        let upgraded = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        let context = tls ? try NIOSSLContext(configuration: configuration) : nil
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: context, serverHostname: nil))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        HandshakeReader(session: session, inbox: inbox, done: upgraded))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:\(port)\r\n"
        if !subprotocols.isEmpty { request += "Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try await channel.writeAndFlush(ByteBuffer(string: request + "\r\n"))
        try await upgraded.futureResult.get()
        return (TestClient(channel: channel, inbox: inbox), session)
    }

    /// Writes WebSocket frames as they are (fragments, pings), masked, below the line handler.
    public func sendFrames(_ frames: [(opcode: WebSocketOpcode, fin: Bool, text: String)]) async throws {
        let channel = self.channel
        try await channel.eventLoop.submit {
            let context = try channel.pipeline.syncOperations.context(handlerType: ClientLines.self)
            for frame in frames {
                let data = ByteBuffer(string: frame.text)
                context.write(
                    NIOAny(WebSocketFrame(fin: frame.fin, opcode: frame.opcode, maskKey: .random(), data: data)),
                    promise: nil)
            }
            context.flush()
        }.get()
    }

    /// Reads the handshake's answer; on 101 it puts the WebSocket handlers in its place.
    final class HandshakeReader: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let session: WebSocketSession
        let inbox: Inbox
        let done: EventLoopPromise<Void>
        var received = ByteBuffer()

        init(session: WebSocketSession, inbox: Inbox, done: EventLoopPromise<Void>) {
            (self.session, self.inbox, self.done) = (session, inbox, done)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            received.writeBuffer(&bytes)
            let view = received.readableBytesView
            guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
            received.moveReaderIndex(to: end.upperBound)
            var lines = head.components(separatedBy: "\r\n")
            let status = lines.removeFirst()
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            session.response.withLockedValue { $0 = (status, headers) }
            guard status.contains(" 101 ") else {
                done.succeed()  // refused: the caller looks at the status
                return
            }
            let rest = received
            do {
                let pipeline = context.pipeline.syncOperations
                try pipeline.addHandler(WebSocketFrameEncoder(), position: .after(self))
                try pipeline.addHandler(
                    ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)),
                    position: .after(pipeline.handler(type: WebSocketFrameEncoder.self)))
                try pipeline.addHandler(ClientLines(session: session))
                try pipeline.addHandler(inbox)
                // What came with the 101 first (a refusal's ERROR may): a removed handler's context
                // no longer reaches the handlers after it.
                if rest.readableBytes > 0 { context.fireChannelRead(NIOAny(rest)) }
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                done.succeed()
            } catch {
                done.fail(error)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            done.fail(ChannelError.ioOnClosedChannel)
            context.fireChannelInactive()
        }
    }

    /// Messages in become lines for the inbox; lines out become masked messages.
    final class ClientLines: ChannelDuplexHandler, @unchecked Sendable {
        typealias InboundIn = WebSocketFrame
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = WebSocketFrame
        let session: WebSocketSession

        init(session: WebSocketSession) { self.session = session }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text, .binary:
                session.opcodes.withLockedValue { $0.append(frame.opcode) }
                context.fireChannelRead(wrapInboundOut(frame.unmaskedData))
            case .connectionClose:
                var data = frame.unmaskedData
                if let code = data.readInteger(as: UInt16.self) {
                    session.closeCodes.withLockedValue { $0.append(code) }
                }
                context.close(promise: nil)
            case .pong:
                session.pongs.withLockedValue { $0.append(String(buffer: frame.unmaskedData)) }
            default:
                break
            }
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            var bytes = Array(unwrapOutboundIn(data).readableBytesView)
            if bytes.suffix(2) == [13, 10] { bytes.removeLast(2) }
            let binary = session.sendsBinary.withLockedValue { $0 }
            let frame = WebSocketFrame(
                fin: true, opcode: binary ? .binary : .text, maskKey: .random(), data: ByteBuffer(bytes: bytes))
            context.write(wrapOutboundOut(frame), promise: promise)
        }
    }
}
