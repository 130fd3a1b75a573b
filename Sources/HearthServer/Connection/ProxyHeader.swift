import Foundation
import NIOCore

/// The PROXY protocol (version 1, as HAProxy's `send-proxy` speaks it) on connections from a
/// trusted load balancer: its first line names the client's real address, which then counts
/// for limits, bans and WHOIS. Anyone else sending such a line gets no say.
final class ProxyHeaderHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The longest version-1 header, CR LF included (the specification's own limit).
    static let maxHeaderBytes = 107
    /// A balancer sends the header at once; a connection that does not is closed.
    static let headerTimeout: TimeAmount = .seconds(10)

    let core: Core
    private var buffer = ByteBuffer()
    private var timeout: Scheduled<Void>?

    init(core: Core) { self.core = core }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timeout = context.eventLoop.scheduleTask(in: Self.headerTimeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { timeout?.cancel() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        buffer.writeBuffer(&bytes)
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes >= Self.maxHeaderBytes { refuse(context, "PROXY header too long") }
            return
        }
        let length = newline - view.startIndex + 1
        let line = buffer.readString(length: length) ?? ""
        let peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard let address = Self.clientAddress(line, peer: peer) else {
            refuse(context, "a PROXY header was expected from the load balancer")
            return
        }
        let rest = buffer
        let connection = ConnectionHandler(core: core, address: address)
        do {
            // Last: after TLS, when the connection is encrypted.
            try context.pipeline.syncOperations.addHandler(connection, position: .last)
        } catch {
            context.close(promise: nil)
            return
        }
        // What came with the header is the client's: it goes on before this handler leaves.
        if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// The client's address from a version-1 header; the peer's for `PROXY UNKNOWN` (the
    /// balancer's own health checks); nil when the line is not a header.
    static func clientAddress(_ line: String, peer: String) -> String? {
        let words = line.trimmingCharacters(in: .newlines).split(separator: " ", omittingEmptySubsequences: false)
        guard words.first == "PROXY", words.count >= 2 else { return nil }
        if words[1] == "UNKNOWN" { return peer }
        guard words.count == 6, words[1] == "TCP4" || words[1] == "TCP6",
            let source = try? SocketAddress(ipAddress: String(words[2]), port: 0), UInt16(words[4]) != nil,
            UInt16(words[5]) != nil
        else { return nil }
        return source.ipAddress
    }

    private func refuse(_ context: ChannelHandlerContext, _ reason: String) {
        timeout?.cancel()
        let line = "ERROR :Closing Link: (\(reason))\r\n"
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer(string: line))).whenComplete { _ in channel.close(promise: nil) }
    }
}
