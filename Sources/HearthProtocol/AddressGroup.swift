/// Per-address limits count a whole IPv6 /64 as one address: that is what one customer
/// usually gets, and it holds 2^64 addresses. IPv4 addresses count one by one.
public enum AddressGroup {
    /// Leading bits of an IPv6 address that name one "address" for every per-address limit.
    public static let ipv6PrefixBits = 64

    /// The key a per-address limit counts under: the address itself for IPv4 (also when
    /// written as an IPv4-mapped IPv6 address), `PREFIX::/64` for IPv6, the text itself
    /// for anything that is not an address.
    public static func key(_ address: String) -> String {
        guard address.contains(":"), let groups = ipv6Groups(address) else { return address }
        if groups[0..<5].allSatisfy({ $0 == 0 }) && groups[5] == 0xFFFF {
            return "\(groups[6] >> 8).\(groups[6] & 0xFF).\(groups[7] >> 8).\(groups[7] & 0xFF)"
        }
        let kept = ipv6PrefixBits / 16
        let prefix = groups[0..<kept].map { String($0, radix: 16) }.joined(separator: ":")
        return "\(prefix)::/\(ipv6PrefixBits)"
    }

    /// Leading bits that name one network (one customer's whole allocation, or a hosting
    /// provider's block): what a guessing attacker spreads over cheaply.
    public static let ipv4NetworkBits = 24
    public static let ipv6NetworkBits = 48

    /// The network an address is in: `a.b.c.0/24` for IPv4 (also IPv4-mapped), `PREFIX::/48`
    /// for IPv6, the text itself for anything that is not an address.
    public static func network(_ address: String) -> String {
        let key = key(address)
        if !key.contains(":") {
            let octets = key.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return key }
            return octets.prefix(ipv4NetworkBits / 8).joined(separator: ".") + ".0/\(ipv4NetworkBits)"
        }
        guard let groups = ipv6Groups(address) else { return key }
        let prefix = groups[0..<(ipv6NetworkBits / 16)].map { String($0, radix: 16) }.joined(separator: ":")
        return "\(prefix)::/\(ipv6NetworkBits)"
    }

    /// The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail), or nil.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        var address = Substring(text)
        if let zone = address.firstIndex(of: "%") { address = address[..<zone] }
        var halves = [String(address)]
        if let gap = address.firstRange(of: "::") {
            halves = [String(address[..<gap.lowerBound]), String(address[gap.upperBound...])]
            guard !halves[1].contains("::") else { return nil }
        }
        func parse(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1 && piece.contains(".") {
                    let octets = piece.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
                    guard octets.count == 4 else { return nil }
                    result.append(UInt16(octets[0]) << 8 | UInt16(octets[1]))
                    result.append(UInt16(octets[2]) << 8 | UInt16(octets[3]))
                } else {
                    guard piece.count <= 4, let value = UInt16(piece, radix: 16) else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        guard let head = parse(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = parse(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
