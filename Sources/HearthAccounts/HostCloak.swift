import Foundation
import HearthCrypto
import HearthProtocol

/// The host others see instead of a user's address (`--cloak-hosts`): a keyed hash of the
/// address's group (an IPv6 /64 counts as one, as for every per-address limit) under the
/// server secret, as Ergo does. It is the same for every connection from that group and on
/// every node sharing `secret.key`, so a ban on it keeps working; without the secret it
/// cannot be turned back into the address, nor an address guessed and checked against it.
public struct HostCloak: Sendable {
    /// Bytes of the hash shown: 80 bits, sixteen base-32 letters (Ergo shows 64).
    public static let hashBytes = 10
    /// The made-up top-level domain after the hash.
    public static let suffix = "hearth"

    private let key: [UInt8]

    public init(secret: CodeHasher) { key = secret.derivedKey(for: "host cloak") }

    /// `abcdefghijklmnop.hearth` for an address.
    public func host(for address: String) -> String {
        let digest = Sodium.keyedDigest(Array(AddressGroup.key(address).utf8), key: key, length: 16)
        return Self.base32(digest.prefix(Self.hashBytes)) + "." + Self.suffix
    }

    /// A stored `nick!user@host` (history, a topic's setter) whose host is a bare address —
    /// kept before hosts were cloaked, or while cloaking was off — with the cloak instead.
    public func source(_ source: String) -> String {
        guard let at = source.lastIndex(of: "@") else { return source }
        let shown = String(source[source.index(after: at)...])
        guard Self.isAddress(shown) else { return source }
        return source[...at] + host(for: shown)
    }

    /// An IPv4 or IPv6 address written out (not a host name, not a cloak).
    public static func isAddress(_ text: String) -> Bool {
        var buffer = in6_addr()
        return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
    }

    /// RFC 4648 base 32 in lower case, without padding.
    static func base32(_ bytes: some Collection<UInt8>) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
        var out: [UInt8] = []
        var (bits, count) = (0, 0)
        for byte in bytes {
            bits = (bits << 8) | Int(byte)
            count += 8
            while count >= 5 {
                count -= 5
                out.append(alphabet[(bits >> count) & 31])
            }
            bits &= (1 << count) - 1  // only the bits not yet written
        }
        if count > 0 { out.append(alphabet[(bits << (5 - count)) & 31]) }
        return String(decoding: out, as: UTF8.self)
    }
}
