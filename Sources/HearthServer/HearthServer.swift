import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle
import Synchronization

/// The whole server: IRC listener and HTTP side on one event-loop group, one store,
/// one bot made of the apps it is given (it knows none by name). Run `services` in a
/// ServiceGroup; `ports()` tells where it listens.
public final class HearthServer: Sendable {
    public let config: ServerConfig
    public let store: any Store
    let core: Core
    let group: MultiThreadedEventLoopGroup
    #if os(Linux)
        /// The plain-TCP IRC port's own loops with `--io epoll`.
        let epoll: EpollGroup?
    #endif
    let media: MediaLibrary
    /// The web pages' files, read at start: without them the server does not start.
    let assets: WebAssets
    /// The web's limits and caches, one set for the HTTP and HTTPS ports together.
    let web: WebShared
    private let readyIRC = Ready()
    private let readyTLS = Ready()
    private let readyHTTP = Ready()
    private let readyHTTPS = Ready()
    private let readyMetrics = Ready()
    /// Reads the configuration again on SIGHUP and REHASH (nil: nothing to reload from).
    let reloader: ConfigReloader?
    let tlsPair = TLSPair()
    /// The last reload asked for: the next waits for it.
    let reloads = Mutex<Task<String, Never>?>(nil)
    /// TLS listeners run (a certificate was given at start), so a reload can swap the pair.
    var tlsListening: Bool { config.tlsCertificatePath != nil && config.tlsKeyPath != nil }

    #if os(Linux)
        /// The epoll threads end with the server, even one that never ran.
        deinit { epoll?.stop() }
    #endif

    /// With no `store`, SQLite in the data directory (see `StoreEngine.open` for the choice).
    public init(
        config: ServerConfig, apps: [BotApp], store: (any Store)? = nil, logger: Logger = Logger(label: "hearth"),
        reloader: ConfigReloader? = nil
    ) throws {
        Sodium.ensureReady()
        assets = try WebAssets.loaded.get()
        // Per-address limits spare loopback when flood control is off, as the connection limit does.
        web = WebShared(
            pageCacheSeconds: config.pageCacheSeconds, clock: config.clock,
            exempt: { [floodControl = config.floodControl] in !floodControl && Self.isLoopback($0) })
        self.config = config
        self.reloader = reloader
        group = config.eventLoopThreads.map { MultiThreadedEventLoopGroup(numberOfThreads: $0) } ?? .singleton
        #if os(Linux)
            epoll =
                config.io == .epoll
                ? try EpollGroup(threads: config.eventLoopThreads ?? System.coreCount, logger: logger) : nil
            let epoll = self.epoll
        #else
            let epoll: (any EventLoopGroup)? = nil
        #endif
        if config.io != config.io.available {
            logger.notice("--io \(config.io.rawValue) is not available here: the IRC port runs on SwiftNIO")
        }
        if let store {
            self.store = store
        } else {
            let sqlite = try SQLiteStore(dataDirectory: config.dataDirectory)
            for path in sqlite.tightened {
                logger.notice("made \(path) private to this user (it was readable by others)")
            }
            self.store = sqlite
        }
        media = try MediaLibrary(
            directory: URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("media"),
            publicURL: config.linkBase,
            threads: config.mediaThreads, shared: self.store.sharedPictures)
        let accounts = AccountService(
            store: self.store, passwords: PasswordWorker(threads: config.passwordThreads, cost: config.passwordCost),
            throttle: LoginThrottle(clock: config.clock),  // the server's clock: a test's stands still
            codes: try CodeHasher.load(directory: config.dataDirectory),
            registrations: AddressQuota(
                limit: config.registrationsPerAddress, window: 3600, clock: config.clock,
                // The same rule as the connection limit: loopback is exempt when flood control is off.
                exempt: { [floodControl = config.floodControl] in !floodControl && Self.isLoopback($0) }),
            minPasswordLength: config.minPasswordLength, emailRequired: config.registerEmailRequired)
        let services = BotServices(
            store: self.store, accounts: accounts, logger: logger, media: media, clock: config.clock,
            appServices: apps.flatMap(\.services))
        var network: NetworkNode?
        if let node = config.node {
            guard let shared = self.store.network else { throw NetworkUnavailable() }
            network = NetworkNode(name: node, serverName: config.serverName, store: shared, logger: logger)
        }
        let metrics = ServerMetrics(enabled: config.metrics)
        if config.metrics {
            self.store.queryTimes.observer.set { metrics.databaseTime.recordNanoseconds(ServerMetrics.nanoseconds($0)) }
        }
        services.commandObserver.set { metrics.commandRan($0.0, seconds: $0.1) }
        media.renderObserver.set { took in
            metrics.pictureRenders.increment()
            metrics.pictureRenderTime.recordNanoseconds(ServerMetrics.nanoseconds(took))
        }
        core = Core(
            config: config, store: self.store, bot: Bot(services: services, apps: apps), network: network,
            logger: logger, group: group, epoll: epoll, metrics: metrics)
        if let network { core.joinNetwork(network) }
        if reloader != nil {
            // REHASH reaches the reload through the core (which must not keep the server alive).
            core.rehashHook.set { [weak self] client in
                Task {
                    guard let self else { return }
                    let outcome = await self.reload()
                    self.core.withState { self.core.notice($0, client, "REHASH: \(outcome)", out: &$1) }
                }
            }
        }
    }

    /// `--node` on an engine that one process owns alone.
    public struct NetworkUnavailable: Error, CustomStringConvertible {
        public var description: String {
            "a network of nodes shares one PostgreSQL database: give --database postgres://… with --node"
        }
    }

    /// The IRC listener and the HTTP application, for one ServiceGroup.
    public var services: [any Service] {
        get throws {
            let tls = try tlsConfiguration()
            if tls == nil { readyHTTPS.set(0) }
            let web: [any Service] = try tls.map { [try makeHTTP(tls: $0)] } ?? []
            let reloads: [any Service] = reloader == nil ? [] : [ReloadOnHangUp(server: self)]
            let metrics: [any Service] = config.metrics && config.metricsPort != nil ? [makeMetricsHTTP()] : []
            return [IRCListener(server: self), try makeHTTP(tls: nil)] + web + reloads + metrics
        }
    }

    /// The TLS settings of the IRC-over-TLS and HTTPS ports, when a certificate and key are given.
    func tlsConfiguration() throws -> TLSConfiguration? {
        guard let cert = config.tlsCertificatePath, let key = config.tlsKeyPath else { return nil }
        let pair = try TLSPair.load(certificate: cert, key: key)
        tlsPair.set(pair)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: pair.certificateChain ?? [], privateKey: pair.privateKey!)
        // Each handshake takes the pair of the moment: a reload's new one serves new connections.
        configuration.sslContextCallback = tlsPair.callback
        // RFC 8996: no TLS 1.0 or 1.1. For 1.2, forward-secret AEAD suites only.
        configuration.minimumTLSVersion = .tlsv12
        configuration.cipherSuiteValues = HearthServer.tls12Ciphers
        return configuration
    }

    /// The HTTPS port once listening (0 when TLS is off).
    public func httpsPort() async throws -> Int { try await readyHTTPS.wait() }

    /// The bound ports (useful with port 0 in tests), once both listeners are up.
    /// The TLS port once listening (0 when TLS is off).
    public func tlsPort() async throws -> Int { try await readyTLS.wait() }

    /// The host users see for a connection from `address` (its cloak, unless cloaking is off).
    public func shownHost(for address: String) -> String { core.shownHost(for: address) }

    public func ports() async throws -> (irc: Int, http: Int) {
        (try await readyIRC.wait(), try await readyHTTP.wait())
    }

    /// The start ended (`error`: a listener or a startup read failed, or the services stopped) before
    /// some listener was up: whoever waits for its port is told so instead of waiting for ever.
    public func startEnded(_ error: any Error) {
        for ready in [readyIRC, readyTLS, readyHTTP, readyHTTPS, readyMetrics] { ready.fail(error) }
    }

    func makeHTTP(tls: TLSConfiguration?) throws -> any Service {
        let router = Router(context: HearthRequestContext.self)
        router.add(middleware: HTTPGuard())
        router.add(middleware: HTTPMetrics(metrics: core.metrics))
        let core = self.core
        MediaRoutes(core: core, media: media).add(to: router)
        MemeURLRoutes(core: core, media: media, shared: web).add(to: router)
        // Cookies are Secure on the HTTPS port, and everywhere when the public address is https.
        let overTLS = tls != nil
        WebRoutes(
            core: core, assets: assets, shared: web, publicURL: { [media] in media.publicURL }, overTLS: overTLS,
            ircPort: { [readyIRC, config] in readyIRC.now ?? config.ircPort }
        ).add(to: router)
        AssetRoutes(assets: assets).add(to: router)
        if config.metrics && config.metricsPort == nil {
            MetricsRoutes.add(to: router, core: core, proxies: config.httpProxies)
        }
        router.get("/health") { _, _ -> Response in
            let (users, channels) = core.chat.withLock { ($0.counts.users, $0.channels.count) }
            let body =
                #"{"status":"ok","version":"\#(HearthVersion.number)","users":\#(users),"channels":\#(channels)}"#
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let ready = overTLS ? readyHTTPS : readyHTTP
        // A connection that says nothing (or trickles a request) is closed after a while.
        // IRC over WebSocket shares the port (HTTPWithWebSocket).
        let plain = HTTPServerBuilder.http1WithIRC(
            core: core, idleTimeout: .milliseconds(Int64(config.httpIdleTimeout * 1000)))
        return Application(
            router: router,
            server: try tls.map { try .tls(plain, tlsConfiguration: $0) } ?? plain,
            configuration: .init(
                address: .hostname(config.host, port: overTLS ? config.httpsPort : config.httpPort),
                serverName: "Hearth"),
            onServerRunning: { [config, media] channel in
                let port = channel.localAddress?.port ?? 0
                if config.publicURL == nil && !overTLS {
                    var actual = config
                    actual.httpPort = port
                    media.setPublicURL(actual.linkBase)
                }
                ready.set(port)
            },
            eventLoopGroupProvider: .shared(group),
            logger: core.logger)
    }

    /// `/metrics` alone on its own port (`--metrics-port`), e.g. reachable only from the monitoring network.
    func makeMetricsHTTP() -> any Service {
        let router = Router(context: HearthRequestContext.self)
        MetricsRoutes.add(to: router, core: core, proxies: HTTPProxies())
        return Application(
            router: router,
            configuration: .init(address: .hostname(config.host, port: config.metricsPort ?? 0), serverName: "Hearth"),
            onServerRunning: { [readyMetrics] channel in readyMetrics.set(channel.localAddress?.port ?? 0) },
            eventLoopGroupProvider: .shared(group), logger: core.logger)
    }

    /// The metrics port once listening (when `metricsPort` is set).
    public func metricsPort() async throws -> Int { try await readyMetrics.wait() }

    /// A peer's address as people write it: on a dual-stack listener (`--host ::`) IPv4 clients
    /// arrive as ::ffff:a.b.c.d.
    static func peerAddress(_ address: SocketAddress?) -> String? {
        guard var text = address?.ipAddress else { return nil }
        if text.hasPrefix("::ffff:") && text.contains(".") { text.removeFirst(7) }
        return text
    }

    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.")
    }

    /// TLS 1.2 cipher suites offered (TLS 1.3's own suites are all AEAD and always on).
    static let tls12Ciphers: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    /// The IRC listener's bootstrap; with `tls`, each connection starts with a TLS handshake.
    func bootstrap(tls: NIOSSLContext?) -> ServerBootstrap {
        let core = self.core
        let proxies = config.trustedProxies
        return ServerBootstrap(group: group)
            .listenerOptions()
            // IRC lines are small: one read per wake-up gets them all, and a second
            // read would only return EAGAIN (one wasted system call per message).
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            // `printf '…' | nc host port` closes its sending side first: still answer it.
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: tls == nil)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: Self.sendQueueMark)
            .childChannelOption(ChannelOptions.recvAllocator, value: Self.receiveBuffers)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    let peer = Self.peerAddress(channel.remoteAddress) ?? ""
                    // A load balancer's connections first say whose they are (PROXY protocol), in
                    // plain text before any TLS; the connection's handler comes once they have.
                    let proxied = proxies.contains(peer)
                    if proxied { try pipeline.addHandler(ProxyHeaderHandler(core: core)) }
                    if let tls {
                        let verify = Self.acceptingClientCertificate(channel, core)
                        try pipeline.addHandler(NIOSSLServerHandler(context: tls, customVerificationCallback: verify))
                    }
                    if !proxied { try pipeline.addHandler(ConnectionHandler(core: core)) }
                }
            }
    }

    /// A client that does not read stops being writable past this; it is then dropped.
    static let sendQueueMark = ChannelOptions.Types.WriteBufferWaterMark(
        low: IRCLimits.maxSendQueueBytes / 2, high: IRCLimits.maxSendQueueBytes)
    /// Each connection keeps its receive buffer between reads; IRC lines are short, so start
    /// small (NIO's default is 2 KiB) and let busy connections grow it.
    static let receiveBuffers = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536)

    /// The plain-TCP IRC port: NIO's listener, or with `--io epoll` Hearth's own.
    func listenPlain() async throws -> (port: Int, close: @Sendable () async -> Void) {
        #if os(Linux)
            if let epoll {
                let proxies = config.trustedProxies
                let listener = try EpollListener(host: config.host, port: config.ircPort, group: epoll, core: core) {
                    [weak self] fd, peer in
                    guard proxies.contains(peer), let self else { return false }
                    self.adopt(fd)
                    return true
                }
                try await listener.start()
                return (listener.port, { await listener.close() })
            }
        #endif
        let channel = try await bootstrap(tls: nil).bind(host: config.host, port: config.ircPort).get()
        return (channel.localAddress?.port ?? 0, { try? await channel.close() })
    }

    /// A load balancer's connection the epoll listener accepted: NIO serves it, as it would
    /// have with `--io nio` (its first handler reads the PROXY header).
    private func adopt(_ fd: Int32) {
        let core = self.core
        // The options NIO's own listener gives its connections (`bootstrap(tls:)`).
        _ = ClientBootstrap(group: group)
            .channelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .channelOption(ChannelOptions.writeBufferWaterMark, value: Self.sendQueueMark)
            .channelOption(ChannelOptions.recvAllocator, value: Self.receiveBuffers)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProxyHeaderHandler(core: core))
                }
            }
            .withConnectedSocket(fd)
    }

    struct IRCListener: Service {
        let server: HearthServer

        func run() async throws {
            let core = server.core
            let (plain, tlsChannel, networkRun): Started
            do {
                (plain, tlsChannel, networkRun) = try await start()
            } catch {
                // Said at error level (the service group logs a service's error only at debug), and every
                // port's waiter told; the store's connections go now, not when the process ends. A start
                // cancelled because another service failed leaves the telling to that failure.
                if !Task.isCancelled {
                    core.logger.error("the server could not start: \(error)")
                    server.startEnded(error)
                }
                await server.store.close()
                throw error
            }
            let registry = Task { await core.runChannelSaves() }
            let expiry = Task { await core.runHistoryExpiry() }
            let searchBackfill = Task { await core.runHistorySearchBackfill() }
            let ticks = Task { await core.runAppTicks() }
            try? await gracefulShutdown()
            // The other nodes quit this node's users at once, instead of after the heartbeat timeout.
            await core.network?.stop(reason: "\(server.config.node ?? "") shut down")
            networkRun?.cancel()
            await plain.close()
            try? await tlsChannel?.close()
            let open = core.chat.withLock { Array($0.clients.values) }
            for client in open {
                let bye = IRCMessage(
                    command: "ERROR", params: ["Closing Link: \(client.address) (Server shutting down)"])
                core.withState { $1.send(client, bye) }
                client.batcher.close(client)
            }
            for client in open { try? await client.socket.closeFuture.get() }
            core.saves.finish()
            await registry.value
            expiry.cancel()
            searchBackfill.cancel()
            ticks.cancel()
            await ticks.value  // no tick reaches the store after it closes
            await searchBackfill.value  // nor a batch of the search backfill
            await core.flushHistory()
            await core.presenceWrites.drain()  // the stand-ins of accounts still connected at the stop
            await core.push?.shutdown()
            try? await core.passwords.shutdown()
            try? await server.media.shutdown()
            await server.store.close()
            #if os(Linux)
                server.epoll?.stop()
            #endif
        }

        typealias Listener = (port: Int, close: @Sendable () async -> Void)
        typealias Started = (plain: Listener, tls: Channel?, network: Task<Void, Never>?)

        /// Everything before the first client may come: saved state read, the network entered, ports bound.
        private func start() async throws -> Started {
            let core = server.core
            try await core.loadRegisteredChannels()
            try await core.loadServerBans()
            try await core.loadGuardedChannels()
            // In a network: enter it before anyone can connect, and keep up with it until the end.
            try await core.network?.start()
            let networkRun = core.network.map { network in Task { await network.run() } }
            do {
                let (plain, tls) = try await listen(syncing: core.network)
                return (plain, tls, networkRun)
            } catch {
                // No node keeps publishing for a server that never came up.
                await core.network?.stop(reason: "\(server.config.node ?? "") could not start")
                networkRun?.cancel()
                throw error
            }
        }

        /// The always-on accounts back and the ports bound, once the network (if any) is caught up.
        private func listen(syncing network: NetworkNode?) async throws -> (Listener, Channel?) {
            let core = server.core
            await network?.waitUntilSynced(limit: .seconds(5))
            try await core.loadAlwaysOn()
            let plain = try await server.listenPlain()
            core.logger.info(
                "IRC listening on \(server.config.host):\(plain.port) (I/O: \(server.config.io.available.rawValue))")
            // TLS (port 6697 by default) when a certificate and key are given. Its port taken: the plain
            // listener closes again, and neither port is said to be up.
            var tlsChannel: Channel?
            do {
                if let configuration = try server.tlsConfiguration() {
                    let context = try NIOSSLContext(
                        configuration: HearthServer.askingForClientCertificates(configuration))
                    tlsChannel = try await server.bootstrap(tls: context).bind(
                        host: server.config.host, port: server.config.tlsPort
                    ).get()
                    core.logger.info(
                        "IRC over TLS listening on \(server.config.host):\(tlsChannel?.localAddress?.port ?? 0)")
                }
            } catch {
                await plain.close()
                throw error
            }
            server.readyIRC.set(plain.port)
            core.tlsListeningPort.store(tlsChannel?.localAddress?.port ?? 0, ordering: .relaxed)
            server.readyTLS.set(tlsChannel?.localAddress?.port ?? 0)
            return (plain, tlsChannel)
        }
    }
}
