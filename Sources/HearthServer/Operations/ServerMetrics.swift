import CoreMetrics
import Foundation
import NIOConcurrencyHelpers
import Prometheus

/// What `/metrics` shows, through swift-metrics into a Prometheus registry of this server's own
/// (not the process-wide `MetricsSystem`, which can be set once: tests run many servers in one
/// process). Metrics are made once here; counting is an atomic add, so the hot paths count
/// per batch (deliveries per dispatch), not per byte.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    let factory: any MetricsFactory
    /// Off (`metrics: false`): every metric is swift-metrics' no-op, and /metrics is not served.
    public let enabled: Bool

    // Connections and sessions.
    let connectionsOpened: [Transport: CoreMetrics.Counter]
    let connectionsOpen: [Transport: Meter]
    let registrations: [Mode: CoreMetrics.Counter]
    // Messages.
    let privmsgsIn: CoreMetrics.Counter
    let noticesIn: CoreMetrics.Counter
    let tagmsgsIn: CoreMetrics.Counter
    let deliveries: CoreMetrics.Counter
    let sendQueueDrops: CoreMetrics.Counter
    /// Connections closed at once because epoll would not watch them (`--io epoll`).
    let ioRegistrationFailures: CoreMetrics.Counter
    let floodDelays: CoreMetrics.Counter
    // History.
    let historyBatches: CoreMetrics.Counter
    let historyRows: CoreMetrics.Counter
    let historyWriteTime: CoreMetrics.Timer
    // Per name, made on first use (bot commands, HTTP routes).
    private let commands = NIOLockedValueBox<[String: (CoreMetrics.Counter, CoreMetrics.Timer)]>([:])
    private let requests = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])
    private let requestTimes = NIOLockedValueBox<[String: CoreMetrics.Timer]>([:])
    let pictureRenders: CoreMetrics.Counter
    let pictureRenderTime: CoreMetrics.Timer
    let databaseTime: CoreMetrics.Timer
    /// Read when scraped: jobs waiting for an Argon2id thread.
    let passwordQueue: CoreMetrics.Gauge

    enum Transport: String, CaseIterable { case tcp, tls, websocket }
    enum Mode: String, CaseIterable { case irc, plain }

    public init(enabled: Bool = true) {
        self.enabled = enabled
        var prometheus = PrometheusMetricsFactory(registry: registry)
        // Seconds, from a tenth of a millisecond (a command answered from memory) to ten seconds.
        prometheus.defaultDurationHistogramBuckets = [
            .microseconds(100), .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100),
            .milliseconds(500), .seconds(2), .seconds(10),
        ]
        let factory: any MetricsFactory = enabled ? prometheus : NOOPMetricsHandler.instance
        self.factory = factory
        func counter(_ name: String, _ labels: [(String, String)] = []) -> CoreMetrics.Counter {
            CoreMetrics.Counter(label: "hearth_" + name, dimensions: labels, factory: factory)
        }
        connectionsOpened = Dictionary(
            uniqueKeysWithValues: Transport.allCases.map {
                ($0, counter("connections_opened_total", [("transport", $0.rawValue)]))
            })
        connectionsOpen = Dictionary(
            uniqueKeysWithValues: Transport.allCases.map {
                ($0, Meter(label: "hearth_connections", dimensions: [("transport", $0.rawValue)], factory: factory))
            })
        registrations = Dictionary(
            uniqueKeysWithValues: Mode.allCases.map { ($0, counter("registrations_total", [("mode", $0.rawValue)])) })
        privmsgsIn = counter("messages_received_total", [("command", "PRIVMSG")])
        noticesIn = counter("messages_received_total", [("command", "NOTICE")])
        tagmsgsIn = counter("messages_received_total", [("command", "TAGMSG")])
        deliveries = counter("deliveries_total")
        sendQueueDrops = counter("send_queue_drops_total")
        ioRegistrationFailures = counter("io_registration_failures_total")
        floodDelays = counter("flood_delays_total")
        historyBatches = counter("history_write_batches_total")
        historyRows = counter("history_rows_written_total")
        historyWriteTime = CoreMetrics.Timer(label: "hearth_history_write_seconds", factory: factory)
        pictureRenders = counter("picture_renders_total")
        pictureRenderTime = CoreMetrics.Timer(label: "hearth_picture_render_seconds", factory: factory)
        databaseTime = CoreMetrics.Timer(label: "hearth_database_query_seconds", factory: factory)
        passwordQueue = CoreMetrics.Gauge(label: "hearth_password_hash_queue", factory: factory)
    }

    /// A message came in (counted per target).
    func messageIn(_ command: String) {
        (command == "PRIVMSG" ? privmsgsIn : command == "NOTICE" ? noticesIn : tagmsgsIn).increment()
    }

    /// A bot command ran (`name` is the command's own name, not what the user typed).
    func commandRan(_ name: String, seconds: Duration) {
        let (count, time) = commands.withLockedValue { known in
            if let pair = known[name] { return pair }
            let pair = (
                CoreMetrics.Counter(
                    label: "hearth_bot_commands_total", dimensions: [("command", name)], factory: factory),
                CoreMetrics.Timer(
                    label: "hearth_bot_command_seconds", dimensions: [("command", name)], factory: factory)
            )
            known[name] = pair
            return pair
        }
        count.increment()
        time.recordNanoseconds(Self.nanoseconds(seconds))
    }

    /// An HTTP request was answered (`route` is the router's pattern, e.g. /m/{id}).
    func requestAnswered(route: String, status: Int, seconds: Duration) {
        let key = "\(route) \(status)"
        let counter = requests.withLockedValue { known in
            if let counter = known[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "hearth_http_requests_total", dimensions: [("route", route), ("status", String(status))],
                factory: factory)
            known[key] = counter
            return counter
        }
        counter.increment()
        let timer = requestTimes.withLockedValue { known in
            if let timer = known[route] { return timer }
            let timer = CoreMetrics.Timer(
                label: "hearth_http_request_seconds", dimensions: [("route", route)], factory: factory)
            known[route] = timer
            return timer
        }
        timer.recordNanoseconds(Self.nanoseconds(seconds))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// The text Prometheus scrapes.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }
}

extension HearthServer {
    /// What /metrics would answer now (empty when metrics are off).
    public func metricsText() -> [UInt8] { core.metrics.exposition() }
}
