import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the aes128gcm content coding (RFC 8188): one
/// record, the sender's ephemeral key in the header. The push service sees only this.
public enum WebPushEncryption {
    /// The record size written in the header: every message is one record of at most this.
    public static let recordSize = 4096
    /// Salt (16) + record size (4) + key id length (1) + the sender's public key (65).
    public static let headerBytes = 86
    /// Plaintext bytes one message may carry: the record holds them, the delimiter and the
    /// 16-byte tag, and push services take bodies of 4096 bytes at most (RFC 8030 §7.2).
    public static let maxPlaintextBytes = recordSize - headerBytes - 1 - 16

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case badKey, tooLong, malformed, notAuthentic
        public var description: String {
            switch self {
            case .badKey: "not a P-256 public key and a 16-byte auth secret"
            case .tooLong: "the message is over \(WebPushEncryption.maxPlaintextBytes) bytes"
            case .malformed: "not an aes128gcm message"
            case .notAuthentic: "the message does not decrypt with this key"
            }
        }
    }

    /// A subscription's keys as the browser gives them: its P-256 public key (65 bytes,
    /// uncompressed) and its 16-byte auth secret.
    public struct Recipient: Sendable, Equatable {
        public let publicKey: [UInt8]
        public let authSecret: [UInt8]

        public init(publicKey: [UInt8], authSecret: [UInt8]) throws {
            guard publicKey.count == 65, authSecret.count == 16,
                (try? P256.KeyAgreement.PublicKey(x963Representation: publicKey)) != nil
            else { throw Problem.badKey }
            self.publicKey = publicKey
            self.authSecret = authSecret
        }

        /// From the base64url text of a subscription's `p256dh` and `auth`.
        public init(p256dh: String, auth: String) throws {
            guard let key = Base64URL.decode(p256dh), let secret = Base64URL.decode(auth) else { throw Problem.badKey }
            try self.init(publicKey: key, authSecret: secret)
        }
    }

    /// Encrypts `plaintext` for `recipient` with a fresh key pair and salt.
    public static func encrypt(_ plaintext: [UInt8], for recipient: Recipient) throws -> [UInt8] {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        return try encrypt(plaintext, for: recipient, sender: P256.KeyAgreement.PrivateKey(), salt: salt)
    }

    /// Encrypts with a given sender key and salt (the RFC's example fixes both).
    public static func encrypt(
        _ plaintext: [UInt8], for recipient: Recipient, sender: P256.KeyAgreement.PrivateKey, salt: [UInt8]
    ) throws -> [UInt8] {
        guard plaintext.count <= maxPlaintextBytes else { throw Problem.tooLong }
        let receiverKey = try P256.KeyAgreement.PublicKey(x963Representation: recipient.publicKey)
        let senderPublic = [UInt8](sender.publicKey.x963Representation)
        let secret = try sender.sharedSecretFromKeyAgreement(with: receiverKey)
        let (key, nonce) = keys(
            secret: secret, auth: recipient.authSecret, receiver: recipient.publicKey, sender: senderPublic,
            salt: salt)
        // One record, so it is the last: delimiter 2, no padding.
        let sealed = try AES.GCM.seal(plaintext + [2], using: key, nonce: nonce)
        var body = salt
        body += withUnsafeBytes(of: UInt32(recordSize).bigEndian, Array.init)
        body.append(UInt8(senderPublic.count))
        body += senderPublic
        body += sealed.ciphertext + sealed.tag
        return body
    }

    /// The user agent's side: the plaintext of a one-record message for this private key and
    /// auth secret (the tests' push-service stand-in reads messages with it).
    public static func decrypt(
        _ body: [UInt8], privateKey: P256.KeyAgreement.PrivateKey, authSecret: [UInt8]
    ) throws -> [UInt8] {
        guard body.count > 21 else { throw Problem.malformed }
        let idLength = Int(body[20])
        guard idLength == 65, body.count >= 21 + idLength + 17 else { throw Problem.malformed }
        let salt = Array(body[0..<16])
        let senderPublic = Array(body[21..<(21 + idLength)])
        let sealed = Array(body[(21 + idLength)...])
        guard let senderKey = try? P256.KeyAgreement.PublicKey(x963Representation: senderPublic) else {
            throw Problem.malformed
        }
        let receiverPublic = [UInt8](privateKey.publicKey.x963Representation)
        let secret = try privateKey.sharedSecretFromKeyAgreement(with: senderKey)
        let (key, nonce) = keys(
            secret: secret, auth: authSecret, receiver: receiverPublic, sender: senderPublic, salt: salt)
        var record: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(
                nonce: nonce, ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            record = [UInt8](try AES.GCM.open(box, using: key))
        } catch { throw Problem.notAuthentic }
        while record.last == 0 { record.removeLast() }
        guard record.last == 2 else { throw Problem.malformed }
        return Array(record.dropLast())
    }

    /// RFC 8291 §3.4 then RFC 8188 §2.2: the content key and nonce from the shared secret.
    static func keys(
        secret: SharedSecret, auth: [UInt8], receiver: [UInt8], sender: [UInt8], salt: [UInt8]
    ) -> (SymmetricKey, AES.GCM.Nonce) {
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiver + sender
        let ikm = secret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        return (cek, try! AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }))
    }
}
