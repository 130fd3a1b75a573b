import ArgumentParser
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// `hearth-bench floor`: the least an IRC server on SwiftNIO can do per private message —
/// frame a line, find the target in a locked table, write one line to it on the target's
/// event loop. No parsing beyond that, no state, no tags. `scripts/bench` runs the direct
/// scenario against it, so the report shows how much of Hearth's cost per message is the
/// library's (reading, the channel pipeline, writing) and how much is Hearth's own.
struct Floor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A bare SwiftNIO private-message relay (NICK, USER, PRIVMSG only): the floor under any NIO server.")
    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 16670
    @Option(help: "Event-loop threads (Hearth uses one per core).") var threads = System.coreCount

    func run() async throws {
        raiseFileLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let table = FloorTable()
        // The same socket options as Hearth's listener.
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        FloorConnection(table: table, loop: channel.eventLoop))
                }
            }
            .bind(host: host, port: port).get()
        try await channel.closeFuture.get()
    }
}

final class FloorTable: @unchecked Sendable {
    let lock = NIOLock()
    var byNick: [String: FloorConnection] = [:]
}

final class FloorConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    let table: FloorTable
    /// Fixed for the connection's life, so other loops may read it; `context` is only
    /// touched on this loop.
    let loop: EventLoop
    var nick = ""
    var context: ChannelHandlerContext?
    private var partial = ByteBuffer()

    init(table: FloorTable, loop: EventLoop) {
        self.table = table
        self.loop = loop
    }

    func channelActive(context: ChannelHandlerContext) { self.context = context }

    func channelInactive(context: ChannelHandlerContext) {
        table.lock.withLock { if table.byNick[nick] === self { table.byNick[nick] = nil } }
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        prependPartial(&partial, to: &buffer)
        while let newline = buffer.readableBytesView.firstIndex(of: 10) {
            var line = buffer.readSlice(length: newline - buffer.readerIndex + 1)!
            line.moveWriterIndex(to: line.writerIndex - (line.readableBytesView.dropLast().last == 13 ? 2 : 1))
            handle(line, context: context)
        }
        if buffer.readableBytes > 0 { partial = buffer }
    }

    private func handle(_ line: ByteBuffer, context: ChannelHandlerContext) {
        let view = line.readableBytesView
        if view.starts(with: "PRIVMSG ".utf8) {
            let rest = view.dropFirst(8)
            guard let space = rest.firstIndex(of: 32) else { return }
            let target = String(decoding: rest[..<space], as: UTF8.self)
            guard let to = table.lock.withLock({ table.byNick[target] }) else { return }
            let loop = to.loop
            var out = ByteBufferAllocator().buffer(capacity: line.readableBytes + nick.utf8.count + 16)
            out.writeStaticString(":")
            out.writeString(nick)
            out.writeStaticString("!b@floor ")
            out.writeImmutableBuffer(line)
            out.writeStaticString("\r\n")
            let bytes = out
            if loop.inEventLoop {
                to.context?.writeAndFlush(NIOAny(bytes), promise: nil)
            } else {
                loop.execute { to.context?.writeAndFlush(NIOAny(bytes), promise: nil) }
            }
        } else if view.starts(with: "NICK ".utf8) {
            nick = String(decoding: view.dropFirst(5), as: UTF8.self)
            table.lock.withLock { table.byNick[nick] = self }
        } else if view.starts(with: "USER ".utf8) {
            var out = context.channel.allocator.buffer(capacity: 64)
            out.writeString(":floor 001 \(nick) :welcome\r\n")
            context.writeAndFlush(NIOAny(out), promise: nil)
        }
    }
}
