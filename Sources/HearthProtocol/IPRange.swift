/// An IPv4 or IPv6 address or network in CIDR form (`203.0.113.0/24`, `2001:db8::/32`; a
/// bare address is a network of one), for server bans. IPv4 is kept IPv4-mapped, so
/// `::ffff:203.0.113.9` is in `203.0.113.0/24` too.
public struct IPRange: Sendable, Equatable, CustomStringConvertible {
    /// The sixteen bytes of the network's first address (bits past the prefix are zero).
    let bytes: [UInt8]
    /// Leading bits that must match, 0...128.
    let bits: Int

    /// Parses `ADDRESS` or `ADDRESS/BITS`; nil for anything else (a name, a bad prefix).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.bytes(String(parts[0])) else { return nil }
        let isV4 = !parts[0].contains(":")
        var bits = address.count * 8
        if parts.count == 2 {
            guard Self.isDigits(parts[1]), let given = Int(parts[1]), given >= 0,
                given <= (isV4 ? 32 : 128)
            else { return nil }
            bits = isV4 ? given + 96 : given
        }
        var masked = address
        for index in 0..<16 {
            let keep = min(max(bits - index * 8, 0), 8)
            masked[index] &= keep == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
        }
        (self.bytes, self.bits) = (masked, bits)
    }

    /// Whether `address` (an IPv4 or IPv6 address as text) is in this network.
    public func contains(_ address: String) -> Bool {
        guard let other = Self.bytes(address) else { return false }
        for index in 0..<16 {
            let keep = min(max(bits - index * 8, 0), 8)
            if keep == 0 { break }
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
            if other[index] & mask != bytes[index] { return false }
        }
        return true
    }

    /// The canonical form: `a.b.c.d/n` for IPv4, compressed-free lower-case groups for IPv6,
    /// without the prefix for a single address.
    public var description: String {
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bits >= 96 {
            let address = bytes[12...].map(String.init).joined(separator: ".")
            return bits == 128 ? address : "\(address)/\(bits - 96)"
        }
        let groups = stride(from: 0, to: 16, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        let address = groups.joined(separator: ":")
        return bits == 128 ? address : "\(address)/\(bits)"
    }

    /// ASCII digits only (`Int` and `UInt8` also take a sign).
    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Sixteen bytes for an IPv4 (mapped) or IPv6 address, or nil.
    private static func bytes(_ text: String) -> [UInt8]? {
        if !text.contains(":") {
            let octets = text.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4, octets.allSatisfy({ $0.count <= 3 && isDigits($0) }) else {
                return nil
            }
            let values = octets.compactMap { UInt8($0) }
            guard values.count == 4 else { return nil }
            return Array(repeating: 0, count: 10) + [0xFF, 0xFF] + values
        }
        guard let groups = AddressGroup.ipv6Groups(text) else { return nil }
        return groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
