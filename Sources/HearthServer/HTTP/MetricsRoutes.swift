import HTTPTypes
import HearthCrypto
import Hummingbird
import NIOCore

/// Counts every HTTP request by route pattern (e.g. `/m/{id}`, never the raw path, so the
/// number of series stays small) and status, and how long it took.
struct HTTPMetrics<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(context, status: response.status.code, started)
            return response
        } catch {
            record(context, status: (error as? any HTTPResponseError)?.status.code ?? 500, started)
            throw error
        }
    }

    func record(_ context: Context, status: Int, _ started: ContinuousClock.Instant) {
        metrics.requestAnswered(route: context.endpointPath ?? "unmatched", status: status, seconds: .now - started)
    }
}

/// `GET /metrics`: Prometheus's text format, only to a scraper that connects directly. With a
/// token set, the request must carry it (`Authorization: Bearer TOKEN`, compared in constant
/// time); without one, only loopback may read it. Either way a reverse proxy's request is refused:
/// one from a listed proxy (`http-proxy-from`; a proxy on this machine is loopback too, even when
/// it adds no header) or carrying any forwarding header, since the visitor behind it may be anyone.
enum MetricsRoutes {
    static let forwardingHeaders: [HTTPField.Name] = [
        HTTPField.Name("Forwarded")!, HTTPField.Name("X-Forwarded-For")!, HTTPField.Name("X-Forwarded-Host")!,
        HTTPField.Name("X-Forwarded-Proto")!, HTTPField.Name("X-Real-IP")!,
    ]

    /// `proxies`: the reverse proxies in front of this port (none on `metrics-port`).
    static func add(to router: Router<HearthRequestContext>, core: Core, proxies: HTTPProxies) {
        router.get("/metrics") { request, context -> Response in
            let token = core.config.metricsToken
            if proxies.isProxy(context.peer) || forwardingHeaders.contains(where: { request.headers[$0] != nil }) {
                return MediaRoutes.text(
                    .forbidden, "Metrics are not served through a proxy; scrape this port directly.")
            }
            let allowed: Bool
            if let token {
                allowed = Sodium.constantTimeEqual("Bearer \(token)", request.headers[.authorization] ?? "")
            } else {
                allowed = HearthServer.isLoopback(context.peer)
            }
            guard allowed else {
                let why = token == nil ? "only from this machine" : "with the bearer token"
                return MediaRoutes.text(.forbidden, "Metrics are served \(why).")
            }
            core.metrics.passwordQueue.record(core.passwords.jobsInFlight)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: core.metrics.exposition())))
        }
    }
}
