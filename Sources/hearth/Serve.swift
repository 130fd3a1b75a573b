import ArgumentParser
import Foundation
import HearthApps
import HearthConfig
import HearthServer
import HearthStore
import Logging
import ServiceLifecycle
import Synchronization

/// `hearth serve`: every option is also a key of the configuration file and a HEARTH_…
/// variable (docs/CONFIGURATION.md); a flag given here outweighs both.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server.",
        discussion: """
            Every option is also a key in the --config file (irc-port: 6667) and an environment variable \
            (HEARTH_IRC_PORT). A flag outweighs the environment, which outweighs the file. \
            `hearth config example` prints a file with every key.
            """)

    @Option(help: "A YAML configuration file (see `hearth config example`); SIGHUP or REHASH reload it.")
    var config: String?
    @Option(help: help("host")) var host: String?
    @Option(help: help("irc-port")) var ircPort: Int?
    @Option(help: help("http-port")) var httpPort: Int?
    @Option(help: help("tls-port")) var tlsPort: Int?
    @Option(help: help("https-port")) var httpsPort: Int?
    @Option(help: help("tls-cert")) var tlsCert: String?
    @Option(help: help("tls-key")) var tlsKey: String?
    @Option(help: help("sts-duration")) var stsDuration: Int?
    @Option(help: ArgumentHelp(text("proxy-from"), valueName: "address")) var proxyFrom: [String] = []
    @Option(help: ArgumentHelp(text("http-proxy-from"), valueName: "address")) var httpProxyFrom: [String] = []
    @Option(help: help("http-proxy-header")) var httpProxyHeader: String?
    @Option(help: help("threads")) var threads: Int?
    @Option(help: help("io")) var io: String?
    @Option(help: help("server-name")) var serverName: String?
    @Option(help: help("network")) var network: String?
    @Option(help: help("description")) var description: String?
    @Option(help: help("public-url")) var publicURL: String?
    @Option(help: help("motd-file")) var motdFile: String?
    @Option(help: help("data-dir")) var dataDir: String?
    @Option(help: ArgumentHelp(text("database") + " Also HEARTH_DATABASE_URL.", valueName: "url")) var database: String?
    @Option(help: help("database-pool")) var databasePool: Int?
    @Option(help: help("node")) var node: String?
    @Option(help: help("history-days")) var historyDays: Int?
    @Option(help: help("join-backlog")) var joinBacklog: Int?
    @Option(help: ArgumentHelp(text("oper") + " Also DATA-DIR/opers.conf.", valueName: "name:password"))
    var oper: [String] = []
    @Option(help: ArgumentHelp(text("server-password"), valueName: "password")) var serverPassword: String?
    @Option(help: help("min-password-length")) var minPasswordLength: Int?
    @Option(help: help("registrations-per-address")) var registrationsPerAddress: Int?
    @Flag(inversion: .prefixedNo, help: help("cloak-hosts")) var cloakHosts: Bool?
    @Flag(inversion: .prefixedNo, help: help("always-on")) var alwaysOn: Bool?
    @Flag(inversion: .prefixedNo, help: help("register-before-connect")) var registerBeforeConnect: Bool?
    @Flag(inversion: .prefixedNo, help: help("register-email-required")) var registerEmailRequired: Bool?
    @Flag(inversion: .prefixedNo, help: help("flood-control")) var floodControl: Bool?
    @Option(help: help("flood-burst")) var floodBurst: Double?
    @Option(help: help("flood-rate")) var floodRate: Double?
    @Option(help: help("flood-bot-burst")) var floodBotBurst: Double?
    @Option(help: help("flood-bot-rate")) var floodBotRate: Double?
    @Option(help: help("flood-unregistered-burst")) var floodUnregisteredBurst: Double?
    @Option(help: help("flood-unregistered-rate")) var floodUnregisteredRate: Double?
    @Option(help: help("connections-per-address")) var connectionsPerAddress: Int?
    @Option(help: help("ping-interval")) var pingInterval: Double?
    @Option(help: help("page-cache")) var pageCache: Double?
    @Flag(inversion: .prefixedNo, help: help("metrics")) var metrics: Bool?
    @Flag(inversion: .prefixedNo, help: help("web-push")) var webPush: Bool?
    @Flag(inversion: .prefixedNo, help: help("push-local-endpoints")) var pushLocalEndpoints: Bool?
    @Option(help: help("metrics-port")) var metricsPort: Int?
    @Option(help: help("metrics-token")) var metricsToken: String?
    @Option(help: help("media-threads")) var mediaThreads: Int?
    @Option(help: help("fortunes")) var fortunes: String?
    @Flag(inversion: .prefixedNo, help: help("fortunes-offensive")) var fortunesOffensive: Bool?
    @Flag(inversion: .prefixedNo, help: help("fetch-local-addresses")) var fetchLocalAddresses: Bool?
    @Option(help: ArgumentHelp(text("edamam-app-id") + " Also EDAMAM_APP_ID.")) var edamamAppId: String?
    @Option(help: ArgumentHelp(text("edamam-app-key") + " Also EDAMAM_APP_KEY.")) var edamamAppKey: String?
    @Option(help: help("log-level")) var logLevel: String?
    @Option(help: help("log-format")) var logFormat: String?
    @Flag(help: "Print every setting as the server would run with it, and where it came from; then exit.")
    var printSettings = false

    static func help(_ key: String) -> ArgumentHelp { ArgumentHelp(text(key)) }
    static func text(_ key: String) -> String { ServeKeys.named(key)?.help ?? "" }

    /// The flags given, by key name (ArgumentParser has checked their types).
    var given: [String: SettingValue] {
        var values: [String: SettingValue] = [:]
        let strings: [(String, String?)] = [
            ("host", host), ("tls-cert", tlsCert), ("tls-key", tlsKey), ("server-name", serverName),
            ("network", network), ("description", description), ("public-url", publicURL), ("motd-file", motdFile),
            ("data-dir", dataDir), ("database", database), ("node", node), ("server-password", serverPassword),
            ("metrics-token", metricsToken), ("fortunes", fortunes), ("edamam-app-id", edamamAppId),
            ("edamam-app-key", edamamAppKey), ("log-level", logLevel), ("log-format", logFormat),
            ("io", io), ("http-proxy-header", httpProxyHeader),
        ]
        for (key, value) in strings { if let value { values[key] = .string(value) } }
        let ints: [(String, Int?)] = [
            ("irc-port", ircPort), ("http-port", httpPort), ("tls-port", tlsPort), ("https-port", httpsPort),
            ("sts-duration", stsDuration),
            ("threads", threads), ("database-pool", databasePool), ("history-days", historyDays),
            ("join-backlog", joinBacklog), ("min-password-length", minPasswordLength),
            ("registrations-per-address", registrationsPerAddress),
            ("connections-per-address", connectionsPerAddress), ("metrics-port", metricsPort),
            ("media-threads", mediaThreads),
        ]
        for (key, value) in ints { if let value { values[key] = .int(value) } }
        let doubles: [(String, Double?)] = [
            ("flood-burst", floodBurst), ("flood-rate", floodRate), ("flood-bot-burst", floodBotBurst),
            ("flood-bot-rate", floodBotRate), ("flood-unregistered-burst", floodUnregisteredBurst),
            ("flood-unregistered-rate", floodUnregisteredRate), ("ping-interval", pingInterval),
            ("page-cache", pageCache),
        ]
        for (key, value) in doubles { if let value { values[key] = .double(value) } }
        if let floodControl { values["flood-control"] = .bool(floodControl) }
        if let cloakHosts { values["cloak-hosts"] = .bool(cloakHosts) }
        if let alwaysOn { values["always-on"] = .bool(alwaysOn) }
        if let registerBeforeConnect { values["register-before-connect"] = .bool(registerBeforeConnect) }
        if let registerEmailRequired { values["register-email-required"] = .bool(registerEmailRequired) }
        if let fortunesOffensive { values["fortunes-offensive"] = .bool(fortunesOffensive) }
        if let fetchLocalAddresses { values["fetch-local-addresses"] = .bool(fetchLocalAddresses) }
        if let metrics { values["metrics"] = .bool(metrics) }
        if let webPush { values["web-push"] = .bool(webPush) }
        if let pushLocalEndpoints { values["push-local-endpoints"] = .bool(pushLocalEndpoints) }
        if !oper.isEmpty { values["oper"] = .strings(oper) }
        if !proxyFrom.isEmpty { values["proxy-from"] = .strings(proxyFrom) }
        if !httpProxyFrom.isEmpty { values["http-proxy-from"] = .strings(httpProxyFrom) }
        return values
    }

    /// Everything read and checked; a problem is one line per wrong key and a non-zero exit.
    func settings() async throws -> (Settings, ServeSettings) {
        let environment = ProcessInfo.processInfo.environment
        // A problem is printed as it is (one line per wrong key), without the usage text.
        let settings = try await Settings.read(flags: given, environment: environment, file: config)
        return (settings, try ServeSettings(settings, environment: environment))
    }

    func run() async throws {
        // SIGHUP's default action ends the process: while the store opens and migrates, before
        // the server's reloader listens (it then takes the signal over), it is ignored instead.
        signal(SIGHUP, SIG_IGN)
        let (settings, serve) = try await settings()
        if printSettings {
            print(settings.listing, terminator: "")
            return
        }
        let output = LogOutput(format: serve.logFormat, level: serve.logLevel)
        LoggingSystem.bootstrap { output.handler(label: $0) }
        let logger = Logger(label: "hearth")
        let dataDir = serve.server.dataDirectory
        // Its error says a server already runs here (ArgumentParser prints its description).
        let lock = try DataDirectoryLock(dataDirectory: dataDir)
        let store = try await DatabaseOptions.open(
            url: serve.database, pool: serve.databasePool, dataDirectory: dataDir, logger: logger)
        if serve.server.node != nil && store.network == nil {
            throw ValidationError("node needs database postgres://… (the nodes of a network share it)")
        }
        logger.info("data: \(store.location)")
        // With a file or without one: SIGHUP and REHASH read again what there is (the file, the
        // MOTD file and opers.conf, the TLS pair), so SIGHUP reloads and never ends the server.
        let reloader = Reloader(command: self, current: (settings, serve.server), output: output)
        var config = serve.server
        config.configFile = self.config
        let server = try HearthServer(
            config: config, apps: BuiltInApps.builtIn(serve.apps), store: store, logger: logger,
            reloader: { try await reloader.reload() })
        let systemd = SystemdNotify()
        let group = ServiceGroup(
            configuration: .init(
                services: try server.services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        // Up: READY=1 said and the watchdog running; stopped: the server ended before it was up
        // (its ports never come, so nobody waits for them).
        let phase = Mutex(Phase.starting)
        let announce = Task {
            guard let (irc, http) = try? await server.ports() else { return }
            guard phase.withLock({ $0.advance(from: .starting, to: .up) }) else { return }
            let ways = "nc localhost \(irc) · IRC clients on port \(irc) · http://localhost:\(http)/health"
            logger.info("Hearth \(HearthVersion.number) is up: \(ways) · data in \(store.location)")
            systemd.send("READY=1")
            await systemd.keepWatchdog(logger: logger) { await server.probe() }
        }
        try await group.run()
        // The watchdog's last ping (its check may be running) goes before STOPPING=1, never after.
        announce.cancel()
        if !phase.withLock({ $0.advance(from: .starting, to: .stopped) }) { await announce.value }
        systemd.send("STOPPING=1")
        withExtendedLifetime(lock) {}
        logger.info("Hearth stopped cleanly.")
    }

    /// Where `run` is between start and STOPPING=1, for systemd.
    enum Phase {
        case starting, up, stopped

        /// Moves to `next` if still at `from`; false if it had moved on.
        mutating func advance(from: Phase, to next: Phase) -> Bool {
            guard self == from else { return false }
            self = next
            return true
        }
    }

    /// Reads the same sources again (the flags given at start still outweigh the file).
    final class Reloader: Sendable {
        let command: Serve
        let current: Mutex<(Settings, ServerConfig)>
        let output: LogOutput

        init(command: Serve, current: (Settings, ServerConfig), output: LogOutput) {
            self.command = command
            self.current = Mutex(current)  // the settings, and what they made
            self.output = output
        }

        func reload() async throws -> ReloadedConfig {
            let (settings, serve) = try await command.settings()
            let (live, restart, before) = current.withLock { old in
                let (live, restart) = settings.changes(from: old.0)
                return (live, restart, old.1)
            }
            // What the files the settings name say may change with the same settings.
            var changed = live
            if serve.server.motd != before.motd && !changed.contains("motd-file") { changed.append("motd") }
            if serve.server.operators != before.operators && !changed.contains("oper") { changed.append("opers.conf") }
            // Kept, and the log level taken, only once the server has taken the rest (a TLS pair
            // that does not load refuses the whole reload).
            return ReloadedConfig(config: serve.server, changed: changed, needsRestart: restart) { [self] in
                // Restart keys keep their running values: still "needs a restart" next time.
                current.withLock { $0 = (settings.keepingRestartKeys(of: $0.0), serve.server) }
                output.logLevel = serve.logLevel
            }
        }
    }
}
