import Crypto
import Foundation

/// The server's identity to push services (VAPID, RFC 8292): an ES256-signed JWT naming the push
/// service's origin, an expiry and a contact, sent with the public key on every push.
public struct WebPushVAPID: Sendable {
    /// Hours a token is good for; RFC 8292 §2 allows at most 24.
    public static let tokenHours = 12
    /// The private scalar (swift-crypto's key type is not Sendable; it is made again to sign).
    let privateKey: [UInt8]
    /// The public key, uncompressed (65 bytes), as browsers take it (`applicationServerKey`).
    public let publicKey: [UInt8]
    /// `publicKey` in base64url, made once: every registration's ISUPPORT (VAPID=) sends it.
    public let publicKeyText: String

    public init(privateKey: [UInt8]) throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: privateKey)
        self.privateKey = privateKey
        publicKey = [UInt8](key.publicKey.x963Representation)
        publicKeyText = Base64URL.encode(publicKey)
    }

    /// The key derived from the server secret (`secret.key`): the same on every start and on
    /// every node sharing the secret, so subscriptions survive restarts and work on any node.
    public init(secret: CodeHasher) {
        // A derived scalar is out of P-256's range with odds of about 2^-32: then take the next.
        for attempt in 0... {
            if let made = try? WebPushVAPID(privateKey: secret.derivedKey(for: "vapid-\(attempt)")) {
                self = made
                return
            }
        }
        fatalError("unreachable")
    }

    /// The `Authorization` header for a push to `endpoint` (its origin is the token's audience).
    public func authorization(endpoint: URL, contact: String, now: Date) throws -> String {
        guard let audience = Self.origin(endpoint) else { throw WebPushEncryption.Problem.malformed }
        let expires = Int(now.timeIntervalSince1970) + Self.tokenHours * 3600
        let claims = Claims(aud: audience, exp: expires, sub: contact)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let input =
            Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8)) + "."
            + Base64URL.encode([UInt8](try encoder.encode(claims)))
        let key = try P256.Signing.PrivateKey(rawRepresentation: privateKey)
        let signature = try key.signature(for: Data(input.utf8))
        return "vapid t=\(input).\(Base64URL.encode(signature.rawRepresentation)), k=\(publicKeyText)"
    }

    struct Claims: Codable {
        var aud: String
        var exp: Int
        var sub: String
    }

    /// `scheme://host[:port]` of a URL.
    public static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// What a push service checks (the tests' stand-in uses it): a well-formed `vapid t=…, k=…`
    /// header whose ES256 signature is good for `k`, whose audience is `audience`, and which has
    /// not expired and expires within 24 hours. The public key on success.
    public static func verify(authorization: String, audience: String, now: Date) -> [UInt8]? {
        guard authorization.hasPrefix("vapid ") else { return nil }
        var fields: [String: String] = [:]
        for part in authorization.dropFirst(6).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard let token = fields["t"], let keyText = fields["k"], let keyBytes = Base64URL.decode(keyText),
            let key = try? P256.Signing.PublicKey(x963Representation: keyBytes)
        else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let signatureBytes = Base64URL.decode(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)),
            let claimBytes = Base64URL.decode(parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: Data(claimBytes)),
            claims.aud == audience, !claims.sub.isEmpty
        else { return nil }
        let seconds = Double(claims.exp) - now.timeIntervalSince1970
        return seconds > 0 && seconds <= 24 * 3600 ? keyBytes : nil
    }
}
