import Foundation
import HearthStore
import NIOPosix

/// Which push endpoints Hearth sends to. A subscription names any URL its owner likes, so
/// without these rules the server would fetch internal addresses for them (SSRF): only https,
/// and only hosts that resolve to public addresses, unless `--push-local-endpoints` (tests).
enum PushEndpoints {
    /// Why an endpoint is refused when it is given, or nil.
    static func problem(_ endpoint: String, allowLocal: Bool) -> String? {
        guard endpoint.count <= PushRules.maxEndpointLength else {
            return "the endpoint is over \(PushRules.maxEndpointLength) characters"
        }
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host,
            !host.isEmpty, url.user == nil, url.password == nil
        else { return "not a URL" }
        guard scheme == "https" || (allowLocal && scheme == "http") else { return "the endpoint must be https" }
        if !allowLocal, isAddressLiteral(host), !isPublic(host) { return "not a public address" }
        return nil
    }

    /// The host's addresses are all public (or `allowLocal`): checked before each push, since a
    /// name may resolve elsewhere later. False when it does not resolve.
    static func resolvesPublicly(_ host: String, allowLocal: Bool) async -> Bool {
        if allowLocal { return true }
        let addresses = (try? await NIOThreadPool.singleton.runIfActive { resolve(host) }) ?? []
        return !addresses.isEmpty && addresses.allSatisfy(isPublic)
    }

    static func isAddressLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// Not loopback, private, link-local, carrier-grade NAT, multicast, unspecified or reserved.
    static func isPublic(_ address: String) -> Bool {
        let bare = address.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return isPublicV4(withUnsafeBytes(of: v4.s_addr) { Array($0) })
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
        let b = withUnsafeBytes(of: v6) { Array($0) }
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff { return isPublicV4(Array(b[12...])) }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
        if b[0] & 0xfe == 0xfc { return false }  // fc00::/7, unique local
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return false }  // fe80::/10, link-local
        if b[0] == 0xff { return false }  // multicast
        return true
    }

    static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168): false
        case (172, 16...31), (100, 64...127): false
        case (224...255, _): false
        default: true
        }
    }

    /// The host's addresses as text (blocking: run off the event loops).
    static func resolve(_ host: String) -> [String] {
        var hints = addrinfo()
        #if os(Linux)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(
                entry.pointee.ai_addr, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
                == 0
            {
                found.append(String(cString: text))
            }
            cursor = entry.pointee.ai_next
        }
        return found
    }
}
