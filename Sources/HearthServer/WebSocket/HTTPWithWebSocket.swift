import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// The HTTP port's connections: HTTP/1.1 for Hummingbird's router, or, for a WebSocket upgrade
/// on one of `WebSocketIRC.paths`, an IRC connection. An upgraded connection gets the same
/// `ConnectionHandler` as the IRC port behind a `WebSocketLineBridge`, so it is an IRC client
/// like any other (registration, SASL, caps, flood control, limits) and costs no extra task.
struct HTTPWithWebSocket: HTTPChannelHandler {
    enum Upgrade: Sendable {
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade to a path that takes none: answered 404 and closed.
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case irc(any Channel)
    }

    struct Value: ServerChildChannelValue {
        let upgrade: EventLoopFuture<Upgrade>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let core: Core
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let core = self.core
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            // A connection must send a whole first request head within the idle timeout; after
            // it, HTTP has its own idle handler and IRC its pings.
            let decided = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            channel.eventLoop.scheduleTask(in: idleTimeout) {
                if !decided.value { channel.close(promise: nil) }
            }
            let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                maxFrameSize: WebSocketIRC.maxMessageBytes,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    let path = String(head.uri.prefix { $0 != "?" })
                    guard WebSocketIRC.paths.contains(path) else { return channel.eventLoop.makeSucceededFuture(nil) }
                    var headers = HTTPHeaders()
                    if let chosen = WebSocketIRC.choose(head.headers["Sec-WebSocket-Protocol"]) {
                        headers.add(name: "Sec-WebSocket-Protocol", value: chosen)
                    }
                    return channel.eventLoop.makeSucceededFuture(headers)
                },
                upgradePipelineHandler: { channel, head in
                    decided.value = true
                    return channel.eventLoop.makeCompletedFuture {
                        let chosen = WebSocketIRC.choose(head.headers["Sec-WebSocket-Protocol"])
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(
                            NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: WebSocketIRC.maxFragments,
                                maxAccumulatedFrameSize: WebSocketIRC.maxMessageBytes))
                        try pipeline.addHandler(WebSocketLineBridge())
                        // Behind a listed reverse proxy, the visitor it names (one rule for all of HTTP).
                        let peer = HearthServer.peerAddress(channel.remoteAddress) ?? "unknown"
                        let proxies = core.config.httpProxies
                        let address = proxies.client(peer: peer, values: head.headers[proxies.header.rawValue])
                        let framing: WebSocketFraming = chosen == "binary.ircv3.net" ? .binary : .text
                        try pipeline.addHandler(ConnectionHandler(core: core, address: address, webSocket: framing))
                        return Upgrade.irc(channel)
                    }
                })
            let timeout = idleTimeout
            let configuration = NIOTypedHTTPServerUpgradeConfiguration<Upgrade>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    decided.value = true
                    return channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: .init(timeout), logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true))
                        return attempted.value ? .refused(http) : .http(http)
                    }
                })
            var pipelineConfiguration = NIOUpgradableHTTPServerPipelineConfiguration(
                upgradeConfiguration: configuration)
            pipelineConfiguration.enablePipelining = false  // NIOAsyncChannel pipelines HTTP
            // A request head NIO cannot parse (past 80 KiB, malformed) gets 400 and is closed.
            pipelineConfiguration.enableErrorHandling = true
            pipelineConfiguration.enableResponseHeaderValidation = false  // HTTPTypes validate
            let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: pipelineConfiguration)
            return Value(upgrade: upgrade, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgrade.get() {
            case .http(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .refused(let http):
                try await http.executeThenClose { _, outbound in
                    let head = HTTPResponse(
                        status: .notFound, headerFields: [.connection: "close", .contentLength: "0"])
                    try await outbound.write(contentsOf: [.head(head), .end(nil)])
                }
            case .irc:
                // The connection lives in its handlers, as on the IRC port: the IRC listener
                // closes it at shutdown, so the HTTP server does not wait for it.
                break
            }
        } catch {
            logger.debug("HTTP connection ended before its first request: \(error)")
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with IRC over WebSocket on the same port.
    static func http1WithIRC(core: Core, idleTimeout: TimeAmount) -> HTTPServerBuilder {
        .init { responder in HTTPWithWebSocket(responder: responder, core: core, idleTimeout: idleTimeout) }
    }
}
