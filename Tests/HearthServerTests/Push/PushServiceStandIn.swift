import Crypto
import Foundation
import HTTPTypes
import HearthCrypto
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

/// A push service for the tests: a real HTTP server on 127.0.0.1 that does what a browser's
/// push service and the device behind it would — checks the VAPID token (signature, audience,
/// expiry) and the aes128gcm headers, decrypts the message with the device's private key, and
/// answers 201, or what the test tells it to (410 for a device that is gone).
final class PushServiceStandIn: Sendable {
    /// A device: its key pair and auth secret, as a browser makes them.
    struct Device: Sendable {
        let id: String
        let privateKey: [UInt8]
        let auth: [UInt8]
        var p256dh: String {
            Base64URL.encode(
                try! P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey).publicKey.x963Representation)
        }
        var authText: String { Base64URL.encode(auth) }
    }

    /// One message as the device read it.
    struct Received: Sendable {
        var device: String
        var text: String
        var ttl: String?
        var urgency: String?
        /// The VAPID public key the token was signed with.
        var vapidKey: String
        var status: Int
    }

    let port: Int
    let group: ServiceGroup
    /// The time VAPID tokens are checked at: the test's clock when the server runs on one.
    let now: @Sendable () -> Date
    let devices = Mutex<[String: Device]>([:])
    /// Statuses to answer, per device, before the default 201.
    let script = Mutex<[String: [Int]]>([:])
    /// Requests the stand-in refused (bad token, bad encryption), with why.
    let refused = Mutex<[String]>([])
    /// Messages not yet taken by `next`, and the one `next` waiting (with its number).
    private let inbox = Mutex<(items: [Received], waiter: (Int, CheckedContinuation<Received?, Never>)?, count: Int)>(
        ([], nil, 0))

    private init(port: Int, group: ServiceGroup, now: @escaping @Sendable () -> Date) {
        (self.port, self.group, self.now) = (port, group, now)
    }

    func endpoint(_ device: Device) -> String { "http://127.0.0.1:\(port)/push/\(device.id)" }

    func newDevice() -> Device {
        let device = Device(
            id: UUID().uuidString.lowercased(), privateKey: [UInt8](P256.KeyAgreement.PrivateKey().rawRepresentation),
            auth: (0..<16).map { _ in UInt8.random(in: 0...255) })
        devices.withLock { $0[device.id] = device }
        return device
    }

    /// The next message a device read (nil when none comes within the patience).
    func next(timeout: Duration = .seconds(10)) async -> Received? {
        await withCheckedContinuation { continuation in
            let number = inbox.withLock { box -> Int? in
                if !box.items.isEmpty {
                    continuation.resume(returning: box.items.removeFirst())
                    return nil
                }
                box.count += 1
                box.waiter = (box.count, continuation)
                return box.count
            }
            guard let number else { return }
            // Patience, not timing: a message that never comes ends the wait.
            Task {
                try? await Task.sleep(for: timeout)
                inbox.withLock { box in
                    guard let waiter = box.waiter, waiter.0 == number else { return }
                    box.waiter = nil
                    waiter.1.resume(returning: nil)
                }
            }
        }
    }

    private func deliver(_ message: Received) {
        inbox.withLock { box in
            if let waiter = box.waiter {
                box.waiter = nil
                waiter.1.resume(returning: message)
            } else {
                box.items.append(message)
            }
        }
    }

    func stop() async { await group.triggerGracefulShutdown() }

    static func start(now: @escaping @Sendable () -> Date = { Date() }) async throws -> PushServiceStandIn {
        let router = Router()
        let holder = Mutex<PushServiceStandIn?>(nil)
        router.post("/push/:id") { request, context -> Response in
            guard let service = holder.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            let body = try await request.body.collect(upTo: 8192)
            return service.take(
                device: context.parameters.get("id") ?? "", body: [UInt8](buffer: body),
                header: { request.headers[HTTPField.Name($0)!] })
        }
        let port = Mutex<Int?>(nil)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } },
            logger: Logger(label: "push-stand-in"))
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "push-stand-in")))
        Task { try await group.run() }
        for _ in 0..<500 where port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        let service = PushServiceStandIn(port: try #require(port.withLock { $0 }), group: group, now: now)
        holder.withLock { $0 = service }
        return service
    }

    private func take(device id: String, body: [UInt8], header: (String) -> String?) -> Response {
        func refuse(_ why: String) -> Response {
            refused.withLock { $0.append(why) }
            return Response(status: .badRequest)
        }
        guard let device = devices.withLock({ $0[id] }) else { return Response(status: .notFound) }
        guard
            let key = WebPushVAPID.verify(
                authorization: header("Authorization") ?? "", audience: "http://127.0.0.1:\(port)", now: now())
        else { return refuse("VAPID token not valid") }
        guard header("Content-Encoding") == "aes128gcm" else { return refuse("not aes128gcm") }
        guard header("TTL").flatMap(Int.init) != nil else { return refuse("no TTL") }
        guard let receiver = try? P256.KeyAgreement.PrivateKey(rawRepresentation: device.privateKey),
            let plain = try? WebPushEncryption.decrypt(body, privateKey: receiver, authSecret: device.auth)
        else { return refuse("does not decrypt") }
        let status = script.withLock { script -> Int in
            guard var queue = script[id], !queue.isEmpty else { return 201 }
            let first = queue.removeFirst()
            script[id] = queue
            return first
        }
        deliver(
            Received(
                device: id, text: String(decoding: plain, as: UTF8.self), ttl: header("TTL"),
                urgency: header("Urgency"), vapidKey: Base64URL.encode(key), status: status))
        var headers = HTTPFields()
        if status == 429 || status >= 500 { headers[.retryAfter] = "0" }
        return Response(status: .init(code: status), headers: headers)
    }
}
