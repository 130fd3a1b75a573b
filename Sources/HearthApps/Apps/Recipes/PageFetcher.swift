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
    /// For the whole fetch, redirects included.
    public static let timeout: TimeAmount = .seconds(15)

    public init(allowLocal: Bool) { self.allowLocal = allowLocal }

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
        let deadline = NIODeadline.now() + Self.timeout
        for hop in 0...Self.maxRedirects {
            let host = url.host!
            guard let address = await OutboundAddress.vettedAddress(host, allowLocal: allowLocal) else {
                throw BotError(
                    "\(host) is not a public address (or does not resolve); Hearth fetches public pages only")
            }
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton, configuration: Self.configuration(connectingTo: address, for: host))
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
                let body: ByteBuffer
                do { body = try await response.body.collect(upTo: maxBytes) } catch is NIOTooManyBytesError {
                    throw Self.tooBig(maxBytes)
                }
                try? await client.shutdown()
                return Page(
                    url: url, body: Array(body.readableBytesView),
                    contentType: response.headers.first(name: "Content-Type"))
            } catch let error as BotError {
                try? await client.shutdown()
                throw error
            } catch {
                try? await client.shutdown()
                throw BotError("\(host) could not be fetched (\(Self.reason(error)))")
            }
        }
        throw BotError("the page redirected more than \(Self.maxRedirects) times")
    }

    static func tooBig(_ limit: Int) -> BotError { BotError("the page is over \(limit / 1024 / 1024) MiB") }

    static func reason(_ error: any Error) -> String {
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout {
            return "it took over \(timeout.nanoseconds / 1_000_000_000) s"
        }
        return "\(type(of: error))"
    }

    /// Connects to the vetted `address` whatever `host` resolves to by then (no DNS rebinding),
    /// while TLS still names and checks `host`; redirects are followed by `fetch`, vetted again.
    static func configuration(connectingTo address: String, for host: String) -> HTTPClient.Configuration {
        let seconds = timeout
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: seconds, read: seconds))
        configuration.httpVersion = .http1Only
        if !OutboundAddress.isAddressLiteral(host) { configuration.dnsOverride = [host: address] }
        return configuration
    }
}
