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

/// `GET /metrics`: Prometheus's text format. With a token set, the request must carry it
/// (`Authorization: Bearer TOKEN`, compared in constant time); without one, only loopback may
/// read it — and not through a reverse proxy on this machine, whose requests come from
/// loopback too: a request carrying forwarding headers is refused.
enum MetricsRoutes {
    static let forwardingHeaders: [HTTPField.Name] = [
        HTTPField.Name("Forwarded")!, HTTPField.Name("X-Forwarded-For")!, HTTPField.Name("X-Real-IP")!,
    ]

    static func add(to router: Router<HearthRequestContext>, core: Core) {
        router.get("/metrics") { request, context -> Response in
            let token = core.config.metricsToken
            let allowed: Bool
            if let token {
                allowed = Sodium.constantTimeEqual("Bearer \(token)", request.headers[.authorization] ?? "")
            } else {
                let peer = HearthServer.peerAddress(context.remoteAddress) ?? ""
                allowed = HearthServer.isLoopback(peer) && !forwardingHeaders.contains { request.headers[$0] != nil }
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
