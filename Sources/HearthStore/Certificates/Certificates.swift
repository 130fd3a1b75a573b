import Foundation

/// What adding a client certificate's fingerprint to an account did.
public enum CertificateAdd: Sendable, Equatable {
    case added
    /// The account has it already: nothing changed.
    case alreadyYours
    /// Another account has it: a certificate logs in to one account only.
    case taken
    /// The account has `CertificateRules.maxPerAccount` already.
    case tooMany
}

/// Fingerprints of TLS client certificates (SASL EXTERNAL), decided once for both engines.
public enum CertificateRules {
    /// Certificates one account may have (a client per device, with room to spare).
    public static let maxPerAccount = 10

    /// A SHA-256 fingerprint as stored: 64 lowercase hex digits. Clients show it upper-case
    /// or in pairs with colons; those are accepted. Nil when it is not one.
    public static func normalized(_ text: String) -> String? {
        let hex = text.lowercased().filter { $0 != ":" }
        guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
        return hex
    }

    /// Whether one more may be added to an account that holds `held`.
    public static func mayAdd(held: Int) -> Bool { held < maxPerAccount }
}

/// Certificates accounts log in with (SASL EXTERNAL on the TLS port), the same on every engine.
public protocol CertificateStore: Sendable {
    /// Adds a normalized fingerprint to an account, under `CertificateRules`.
    func addCertificate(accountID: Int64, fingerprint: String, now: Date) async throws -> CertificateAdd

    /// The account's fingerprints, oldest first.
    func certificates(accountID: Int64) async throws -> [String]

    /// False when the account had no such fingerprint.
    func removeCertificate(accountID: Int64, fingerprint: String) async throws -> Bool

    /// The account a fingerprint logs in to.
    func account(certificateFingerprint: String) async throws -> Stored<Account>?
}
