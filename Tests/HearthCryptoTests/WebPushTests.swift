import Crypto
import Foundation
import HearthCrypto
import Testing

/// Web Push encryption against RFC 8291's example (§5 and Appendix A), and VAPID tokens (RFC 8292).
@Suite struct WebPushTests {
    // RFC 8291, Appendix A (whitespace removed).
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
    static let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIg"
        + "Dll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A"
        + "_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    static func bytes(_ text: String) -> [UInt8] { Base64URL.decode(text)! }

    @Test func theRFC8291ExampleEncryptsByteForByte() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Self.asPrivate))
        #expect([UInt8](sender.publicKey.x963Representation) == Self.bytes(Self.asPublic))
        let recipient = try WebPushEncryption.Recipient(p256dh: Self.uaPublic, auth: Self.auth)
        let body = try WebPushEncryption.encrypt(
            Array(Self.plaintext.utf8), for: recipient, sender: sender, salt: Self.bytes(Self.salt))
        #expect(Base64URL.encode(body) == Self.body)
    }

    @Test func theRFC8291ExampleDecryptsWithTheUserAgentsKey() throws {
        let receiver = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Self.uaPrivate))
        let plain = try WebPushEncryption.decrypt(
            Self.bytes(Self.body), privateKey: receiver, authSecret: Self.bytes(Self.auth))
        #expect(String(decoding: plain, as: UTF8.self) == Self.plaintext)
        var tampered = Self.bytes(Self.body)
        tampered[tampered.count - 1] ^= 1
        #expect(throws: WebPushEncryption.Problem.notAuthentic) {
            try WebPushEncryption.decrypt(tampered, privateKey: receiver, authSecret: Self.bytes(Self.auth))
        }
    }

    @Test func aFreshMessageRoundTripsUpToTheLimitAndNotPast() throws {
        let receiver = P256.KeyAgreement.PrivateKey()
        let recipient = try WebPushEncryption.Recipient(
            publicKey: [UInt8](receiver.publicKey.x963Representation), authSecret: Array(repeating: 7, count: 16))
        let longest = [UInt8](repeating: 65, count: WebPushEncryption.maxPlaintextBytes)
        let body = try WebPushEncryption.encrypt(longest, for: recipient)
        #expect(body.count == WebPushEncryption.recordSize)
        #expect(try WebPushEncryption.decrypt(body, privateKey: receiver, authSecret: recipient.authSecret) == longest)
        #expect(throws: WebPushEncryption.Problem.tooLong) {
            try WebPushEncryption.encrypt(longest + [65], for: recipient)
        }
    }

    @Test func badSubscriptionKeysAreRefused() {
        #expect(throws: WebPushEncryption.Problem.badKey) {
            try WebPushEncryption.Recipient(p256dh: Self.uaPublic, auth: "c2hvcnQ")
        }
        #expect(throws: WebPushEncryption.Problem.badKey) {
            try WebPushEncryption.Recipient(p256dh: "BAAA" + String(Self.uaPublic.dropFirst(4)), auth: Self.auth)
        }
        #expect(throws: WebPushEncryption.Problem.badKey) {
            try WebPushEncryption.Recipient(p256dh: "not base64!", auth: Self.auth)
        }
    }

    @Test func aVAPIDTokenVerifiesForItsAudienceOnly() throws {
        let vapid = WebPushVAPID(secret: CodeHasher(key: Array(repeating: 1, count: 32)))
        #expect(vapid.publicKey.count == 65 && vapid.publicKey[0] == 4)
        // The same secret gives the same key (restarts, other nodes).
        #expect(WebPushVAPID(secret: CodeHasher(key: Array(repeating: 1, count: 32))).publicKey == vapid.publicKey)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try vapid.authorization(
            endpoint: URL(string: "https://push.example.net:8443/send/abc")!, contact: "mailto:ops@example.org",
            now: now)
        #expect(
            WebPushVAPID.verify(authorization: header, audience: "https://push.example.net:8443", now: now)
                == vapid.publicKey)
        #expect(WebPushVAPID.verify(authorization: header, audience: "https://other.example", now: now) == nil)
        // Expired once its hours are over.
        let later = now.addingTimeInterval(Double(WebPushVAPID.tokenHours * 3600 + 1))
        #expect(
            WebPushVAPID.verify(authorization: header, audience: "https://push.example.net:8443", now: later) == nil)
        // Another key's signature does not pass for this one.
        let other = WebPushVAPID(secret: CodeHasher(key: Array(repeating: 2, count: 32)))
        let forged = header.replacingOccurrences(of: vapid.publicKeyText, with: other.publicKeyText)
        #expect(WebPushVAPID.verify(authorization: forged, audience: "https://push.example.net:8443", now: now) == nil)
    }
}
