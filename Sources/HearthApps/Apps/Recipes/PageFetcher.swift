import AsyncHTTPClient
import Foundation
import HearthKit
import NIOCore

/// Fetches a page a user names (`!recipe import URL`) without letting them reach the server's
/// own network: every hop's host must resolve to public addresses (`OutboundAddress`, the rule
/// Web Push uses) unless the operator allows local ones, the connection goes to the address
/// that was vetted, redirects are followed by hand and vetted again, and size and time are bounded.
public struct PageFetcher: Sendable {
    /// Loopback, private and link-local addresses allowed (`--fetch-local-addresses`; tests).
    public let allowLocal: Bool
    public static let maxBytes = 2 * 1024 * 1024
    public static let maxRedirects = 5
    public static let maxURLLength = 2000
    /// For the whole fetch, redirects and the body included.
    public static let timeout: TimeAmount = .seconds(15)
    /// `timeout`, unless a test wants a shorter one.
    public let timeout: TimeAmount

    public init(allowLocal: Bool, timeout: TimeAmount = PageFetcher.timeout) {
        (self.allowLocal, self.timeout) = (allowLocal, timeout)
    }

    public struct Page: Sendable {
        /// Where the page was found, after redirects.
        public var url: URL
        public var body: [UInt8]
        public var contentType: String?
    }

    /// The URL a user gave, if it is one Hearth fetches: http(s), a host, no password in it.
    public static func checked(_ text: String) throws -> URL {
        guard text.count <= maxURLLength else { throw BotError("that address is over \(maxURLLength) characters") }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.user == nil, url.password == nil
        else { throw BotError("\(text.prefix(80)) is not an http(s) address") }
        return url
    }

    public func fetch(_ text: String, accept: String, maxBytes: Int = PageFetcher.maxBytes) async throws -> Page {
        var url = try Self.checked(text)
        let deadline = NIODeadline.now() + timeout
        for hop in 0...Self.maxRedirects {
            let host = url.host!
            guard let address = await OutboundAddress.vettedAddress(host, allowLocal: allowLocal) else {
                throw BotError(
                    "\(host) is not a public address (or does not resolve); Hearth fetches public pages only")
            }
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: Self.configuration(connectingTo: address, for: host, timeout: timeout))
            do {
                var request = HTTPClientRequest(url: url.absoluteString)
                request.headers.add(name: "User-Agent", value: "Hearth (recipe import)")
                request.headers.add(name: "Accept", value: accept)
                let response = try await client.execute(request, deadline: deadline)
                let status = Int(response.status.code)
                if (300..<400).contains(status), let location = response.headers.first(name: "Location") {
                    guard hop < Self.maxRedirects else {
                        throw BotError("the page redirected more than \(Self.maxRedirects) times")
                    }
                    guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                        throw BotError("the page redirected to an address I cannot read")
                    }
                    url = try Self.checked(next.absoluteString)
                    try? await client.shutdown()
                    continue
                }
                guard status == 200 else { throw BotError("the page answered \(status)") }
                if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBytes {
                    throw Self.tooBig(maxBytes)
                }
                let body = try await Self.collect(response.body, upTo: maxBytes, before: deadline)
                try? await client.shutdown()
                return Page(
                    url: url, body: Array(body.readableBytesView),
                    contentType: response.headers.first(name: "Content-Type"))
            } catch let error as BotError {
                try? await client.shutdown()
                throw error
            } catch {
                try? await client.shutdown()
                throw BotError("\(host) could not be fetched (\(Self.reason(error, timeout)))")
            }
        }
        throw BotError("the page redirected more than \(Self.maxRedirects) times")
    }

    static func tooBig(_ limit: Int) -> BotError { BotError("the page is over \(limit / 1024 / 1024) MiB") }

    static func reason(_ error: any Error, _ timeout: TimeAmount) -> String {
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout {
            return tookTooLong(timeout)
        }
        return "\(type(of: error))"
    }

    static func tookTooLong(_ timeout: TimeAmount) -> String {
        let milliseconds = timeout.nanoseconds / 1_000_000
        return milliseconds < 1000 ? "it took over \(milliseconds) ms" : "it took over \(milliseconds / 1000) s"
    }

    /// The body, up to `maxBytes`, by `deadline`: the client's own deadline ends when the headers
    /// arrive, so a page trickling a byte at a time would otherwise hold the import for days.
    static func collect(
        _ body: HTTPClientResponse.Body, upTo maxBytes: Int, before deadline: NIODeadline
    ) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                var buffer = ByteBuffer()
                for try await chunk in body {
                    guard buffer.readableBytes + chunk.readableBytes <= maxBytes else { throw tooBig(maxBytes) }
                    buffer.writeImmutableBuffer(chunk)
                }
                return buffer
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, (deadline - NIODeadline.now()).nanoseconds)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else { throw HTTPClientError.deadlineExceeded }
            return buffer
        }
    }

    /// Connects to the vetted `address` whatever `host` resolves to by then (no DNS rebinding),
    /// while TLS still names and checks `host`; redirects are followed by `fetch`, vetted again.
    static func configuration(
        connectingTo address: String, for host: String, timeout seconds: TimeAmount
    ) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: seconds, read: seconds))
        configuration.httpVersion = .http1Only
        if !OutboundAddress.isAddressLiteral(host) { configuration.dnsOverride = [host: address] }
        return configuration
    }
}
