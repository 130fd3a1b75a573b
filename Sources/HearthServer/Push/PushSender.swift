import AsyncHTTPClient
import Foundation
import HearthCrypto
import HearthKit
import HearthStore
import Logging
import NIOCore
import NIOHTTP1

/// Delivers push messages to push services (RFC 8030): encrypted (RFC 8291), signed (VAPID,
/// RFC 8292), a few at a time from a bounded queue, with retries on 429 and 5xx; a 404 or 410
/// means the subscription is gone, and it is forgotten.
final class PushSender: Sendable {
    /// Messages waiting at most; past this new ones are dropped (and logged), not queued.
    static let maxQueued = 1000
    /// Deliveries in flight at once.
    static let maxInFlight = 8
    /// Tries per message (the first and the retries).
    static let maxAttempts = 3
    /// Seconds before the first retry when the push service gives no Retry-After; doubled after.
    static let firstRetrySeconds = 2.0
    /// The longest wait before a retry (a longer Retry-After is cut to this).
    static let maxRetrySeconds = 60.0
    /// Seconds one request may take, connection included.
    static let requestSeconds: Int64 = 10

    struct Job: Sendable {
        var subscription: PushSubscription
        var payload: [UInt8]
        /// Seconds the push service keeps the message for an offline device.
        var ttl: Int
        /// RFC 8030 §5.3: very-low, low, normal or high.
        var urgency: String
        /// Which try this is (1 the first).
        var attempt = 1
    }

    enum Outcome: Equatable {
        case delivered, gone, refused
        case retry(after: Double?)
    }

    let worker: Worker
    var logger: Logger { worker.logger }
    private let jobs: AsyncStream<Job>.Continuation
    private let runner: Task<Void, Never>

    init(
        vapid: WebPushVAPID, contact: String, store: any Store, allowLocal: Bool, group: any EventLoopGroup,
        logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Job.self, bufferingPolicy: .bufferingOldest(Self.maxQueued))
        let worker = Worker(
            group: group, vapid: vapid, contact: contact, store: store, allowLocal: allowLocal, logger: logger,
            now: now,
            requeue: { _ = continuation.yield($0) })
        self.worker = worker
        jobs = continuation
        runner = Task {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await job in stream {
                    if running >= Self.maxInFlight {
                        await group.next()
                        running -= 1
                    }
                    group.addTask { await worker.deliver(job) }
                    running += 1
                }
            }
        }
    }

    /// Queues a message; false when the queue is full (it is dropped).
    @discardableResult
    func send(_ job: Job) -> Bool {
        if case .enqueued = jobs.yield(job) { return true }
        logger.warning("push: queue full, a message to \(job.subscription.endpoint.prefix(60)) was dropped")
        return false
    }

    /// Lets queued messages go out.
    func shutdown() async {
        jobs.finish()
        await runner.value
    }

    /// One delivery with its retries (no state of its own: many run at once).
    struct Worker: Sendable {
        let group: any EventLoopGroup
        let vapid: WebPushVAPID
        let contact: String
        let store: any Store
        let allowLocal: Bool
        let logger: Logger
        let now: @Sendable () -> Date
        /// Puts a job back on the queue (a retry, after its wait).
        let requeue: @Sendable (Job) -> Void

        /// One try; a retry waits outside the delivery slots (a slow or throttling service must not
        /// hold them for everyone) and goes back through the bounded queue.
        func deliver(_ job: Job) async {
            switch await post(job) {
            case .delivered, .refused: return
            case .gone:
                _ = try? await store.removePushSubscription(endpoint: job.subscription.endpoint, accountID: nil)
                logger.info("push: subscription gone, removed (\(job.subscription.endpoint.prefix(60)))")
            case .retry(let after):
                guard job.attempt < PushSender.maxAttempts else { return }
                let backoff = PushSender.firstRetrySeconds * Double(1 << (job.attempt - 1))
                let wait = max(0, min(after ?? backoff, PushSender.maxRetrySeconds))
                var next = job
                next.attempt += 1
                let requeue = self.requeue
                Task {
                    try? await Task.sleep(for: .milliseconds(Int64(wait * 1000)))
                    requeue(next)
                }
            }
        }

        func post(_ job: Job) async -> Outcome {
            let endpoint = job.subscription.endpoint
            guard PushEndpoints.problem(endpoint, allowLocal: allowLocal) == nil, let url = URL(string: endpoint),
                let host = url.host, let address = await OutboundAddress.vettedAddress(host, allowLocal: allowLocal)
            else {
                logger.notice("push: endpoint refused (not a public https address): \(endpoint.prefix(60))")
                return .refused
            }
            let body: [UInt8]
            let authorization: String
            do {
                let recipient = try WebPushEncryption.Recipient(
                    p256dh: job.subscription.p256dh, auth: job.subscription.auth)
                body = try WebPushEncryption.encrypt(job.payload, for: recipient)
                authorization = try vapid.authorization(endpoint: url, contact: contact, now: now())
            } catch {
                logger.notice("push: cannot encrypt for \(endpoint.prefix(60)): \(error)")
                return .refused
            }
            var request = HTTPClientRequest(url: endpoint)
            request.method = .POST
            request.headers.add(name: "TTL", value: String(job.ttl))
            request.headers.add(name: "Urgency", value: job.urgency)
            request.headers.add(name: "Content-Encoding", value: "aes128gcm")
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            request.headers.add(name: "Authorization", value: authorization)
            request.body = .bytes(ByteBuffer(bytes: body))
            let client = Self.client(group, connectingTo: address, for: host)
            let outcome: Outcome
            do {
                let response = try await client.execute(request, timeout: .seconds(PushSender.requestSeconds))
                _ = try? await response.body.collect(upTo: 4096)
                outcome = Self.outcome(
                    status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"))
            } catch {
                logger.notice("push: \(endpoint.prefix(60)) failed: \(error)")
                outcome = .retry(after: nil)
            }
            try? await client.shutdown()
            return outcome
        }

        /// A client for one delivery that connects to the vetted `address` whatever `host`
        /// resolves to by then, while TLS still names and checks `host` (one client per delivery:
        /// a shared one's pool would connect by name). No redirects: they could lead anywhere.
        static func client(_ group: any EventLoopGroup, connectingTo address: String, for host: String) -> HTTPClient {
            HTTPClient(
                eventLoopGroupProvider: .shared(group), configuration: configuration(connectingTo: address, for: host))
        }

        static func configuration(connectingTo address: String, for host: String) -> HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: .seconds(PushSender.requestSeconds), read: .seconds(PushSender.requestSeconds)))
            configuration.httpVersion = .http1Only
            if !OutboundAddress.isAddressLiteral(host) { configuration.dnsOverride = [host: address] }
            return configuration
        }

        /// What a push service's answer means (RFC 8030 §5, §6.3, §8.4).
        static func outcome(status: Int, retryAfter: String?) -> Outcome {
            switch status {
            case 200..<300: .delivered
            case 404, 410: .gone
            // Retry-After in delay-seconds (RFC 9110 §10.2.3): digits only, so no NaN, infinity or
            // sign from a hostile service reaches the sleep; a date or anything else means our backoff.
            case 429, 500..<600:
                .retry(after: retryAfter.flatMap { UInt32($0.trimmingCharacters(in: .whitespaces)) }.map(Double.init))
            default: .refused
            }
        }
    }
}
