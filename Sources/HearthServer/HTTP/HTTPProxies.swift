import NIOCore

/// Reverse proxies in front of the HTTP port (`http-proxy-from`), and who a request is from.
///
/// Behind a proxy every visitor arrives from the proxy's address, so per-address limits (the
/// sign-in throttle, web-chat connections, uploads) would count the whole site as one visitor.
/// The proxy names the visitor in a header it appends to; only a listed proxy's header is read,
/// and in it only what the listed proxies appended: the right-most address that is not one of
/// them. Anything to its left was written by the visitor and proves nothing.
public struct HTTPProxies: Sendable, Equatable {
    /// The header the proxies append the visitor's address to.
    public enum Header: String, Sendable, CaseIterable {
        /// `X-Forwarded-For: client, proxy1` (HAProxy `option forwardfor`, nginx `$proxy_add_x_forwarded_for`).
        case xForwardedFor = "x-forwarded-for"
        /// RFC 7239: `Forwarded: for=192.0.2.1;proto=https, for="[2001:db8::1]:4711"`.
        case forwarded
    }

    /// Canonical addresses (as `canonical` writes them).
    public private(set) var addresses: Set<String> = []
    public var header = Header.xForwardedFor

    public init() {}

    /// Nil when an entry is not an IP address.
    public init?(_ addresses: [String], header: Header = .xForwardedFor) {
        for entry in addresses {
            guard let address = Self.canonical(entry) else { return nil }
            self.addresses.insert(address)
        }
        self.header = header
    }

    public var isEmpty: Bool { addresses.isEmpty }

    func isProxy(_ address: String) -> Bool { addresses.contains(address) }

    /// Who sent a request that came from `peer` (canonical) carrying `values` of `header`: from a
    /// listed proxy, the right-most address its chain names that is not a listed proxy (or, if
    /// all are, the left-most; if an entry is not an address, the proxy that added it); from
    /// anyone else, the peer, whatever the headers say.
    func client(peer: String, values: [String]) -> String {
        guard isProxy(peer) else { return peer }
        var client = peer
        for node in Self.nodes(values, header).reversed() {
            guard let address = node.flatMap(Self.address) else { break }
            client = address
            if !isProxy(address) { break }
        }
        return client
    }

    /// The nodes of the chain, left to right, over every line of the header; nil for an element
    /// without a `for=` (Forwarded).
    static func nodes(_ values: [String], _ header: Header) -> [Substring?] {
        let elements = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        switch header {
        case .xForwardedFor: return elements.map { Optional($0) }
        case .forwarded:
            return elements.map { element in
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" {
                        return parts[1]
                    }
                }
                return nil
            }
        }
    }

    /// `1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`, `[2001:db8::1]:80`, each maybe quoted (RFC 7239);
    /// nil for `unknown`, an obfuscated `_name` or anything else.
    static func address(_ node: Substring) -> String? {
        var text = Substring(node.trimmingCharacters(in: .whitespaces))
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && UInt16(rest.dropFirst()) != nil) else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            guard UInt16(text[text.index(after: colon)...]) != nil else { return nil }
            text = text[..<colon]
        }
        return canonical(String(text))
    }

    /// An IP address written one way (IPv4-mapped IPv6 as IPv4); nil when it is not one.
    public static func canonical(_ text: String) -> String? {
        guard !text.contains("%"), let address = try? SocketAddress(ipAddress: text, port: 0) else { return nil }
        return HearthServer.peerAddress(address)
    }
}
