import Foundation

/// Which addresses Hearth connects to when it fetches for a user (Web Push deliveries, recipe
/// imports): a user names any URL they like, so without these rules the server would reach its
/// own internal addresses for them (SSRF). Only public addresses, unless the operator allows
/// local ones (tests). One place for the rule, whoever fetches.
public enum OutboundAddress {
    /// The address to connect to for `host`, resolved once per connection: nil when it does not
    /// resolve or, unless `allowLocal`, when any of its addresses is not public. The sender
    /// connects to this very address, so a name that answers differently a moment later (DNS
    /// rebinding) cannot lead it to a private one.
    public static func vettedAddress(_ host: String, allowLocal: Bool) async -> String? {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if isAddressLiteral(bare) { return allowLocal || isPublic(bare) ? bare : nil }
        // getaddrinfo blocks: off the cooperative threads.
        let addresses = await withCheckedContinuation { done in
            DispatchQueue.global().async { done.resume(returning: resolve(bare)) }
        }
        guard let first = addresses.first, allowLocal || addresses.allSatisfy(isPublic) else { return nil }
        return first
    }

    public static func isAddressLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// Not loopback, private, link-local, carrier-grade NAT, multicast, unspecified, documentation
    /// or reserved; an IPv6 address that carries an IPv4 one (mapped, compatible, NAT64, 6to4)
    /// is judged by the IPv4 one, since that is where the packets end up.
    public static func isPublic(_ address: String) -> Bool {
        let bare = address.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return isPublicV4(withUnsafeBytes(of: v4.s_addr) { Array($0) })
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
        let b = withUnsafeBytes(of: v6) { Array($0) }
        // ::ffff:0:0/96 mapped, 64:ff9b::/96 NAT64 (RFC 6052): the IPv4 address inside decides.
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]
        let nat64: [UInt8] = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]
        if b[0..<12] == mapped[...] || b[0..<12] == nat64[...] { return isPublicV4(Array(b[12...])) }
        if b[0] == 0x20 && b[1] == 0x02 { return isPublicV4(Array(b[2..<6])) }  // 2002::/16, 6to4
        if b[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1 and the old IPv4-compatible
        if b[0..<6] == [0, 0x64, 0xff, 0x9b, 0, 1] { return false }  // 64:ff9b:1::/48, local NAT64
        if b[0] == 0x01 && b[1..<8].allSatisfy({ $0 == 0 }) { return false }  // 100::/64, discard
        if b[0..<4] == [0x20, 0x01, 0x0d, 0xb8] { return false }  // 2001:db8::/32, documentation
        if b[0] & 0xfe == 0xfc { return false }  // fc00::/7, unique local
        if b[0] == 0xfe && b[1] & 0x80 == 0x80 { return false }  // fe80::/10 link-local, fec0::/10 site-local
        if b[0] == 0xff { return false }  // multicast
        return true
    }

    public static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1], b[2]) {
        case (0, _, _), (10, _, _), (127, _, _), (169, 254, _), (192, 168, _): false
        case (172, 16...31, _), (100, 64...127, _): false
        // IETF protocol assignments, documentation, benchmarking.
        case (192, 0, 0), (192, 0, 2), (198, 51, 100), (203, 0, 113), (198, 18...19, _): false
        case (224...255, _, _): false  // multicast, reserved, broadcast
        default: true
        }
    }

    /// The host's addresses as text (blocking: run off the event loops).
    public static func resolve(_ host: String) -> [String] {
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
                found.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            cursor = entry.pointee.ai_next
        }
        return found
    }
}
