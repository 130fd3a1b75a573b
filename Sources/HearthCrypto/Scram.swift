import Crypto
import Foundation
import _CryptoExtras

/// What the server keeps to check a SCRAM-SHA-256 login: never the password nor the
/// SaltedPassword, only what RFC 5802 needs (StoredKey = H(ClientKey), ServerKey).
public struct ScramCredentials: Sendable, Equatable {
    public var salt: [UInt8]
    public var iterations: Int
    public var storedKey: [UInt8]
    public var serverKey: [UInt8]

    public init(salt: [UInt8], iterations: Int, storedKey: [UInt8], serverKey: [UInt8]) {
        self.salt = salt
        self.iterations = iterations
        self.storedKey = storedKey
        self.serverKey = serverKey
    }
}

/// SCRAM-SHA-256 (RFC 5802, RFC 7677) without channel binding: the messages, parsed and
/// checked, and the keys. Pure: no I/O, no state beyond one exchange.
public enum Scram {
    public static let mechanism = "SCRAM-SHA-256"
    /// PBKDF2 rounds for new credentials. RFC 7677 asks for at least 4096 (a 2015 figure).
    /// The server pays them only when a password is set; a client pays them once per login
    /// (phones and scripts included), and an attacker with the database pays them per guess.
    /// 100,000 costs a client tens of milliseconds and is 25 times the RFC's floor.
    public static let iterations = 100_000
    /// Fewest rounds RFC 7677 allows.
    public static let minIterations = 4096
    public static let saltBytes = 16
    /// Random bytes in the server's part of the nonce (24 base64 characters).
    public static let nonceBytes = 18

    /// Why an exchange failed; said to nobody but logs and tests (the client gets 904).
    public struct Failure: Error, Equatable, Sendable {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    // MARK: Keys

    /// Credentials for `password` with a fresh random salt.
    public static func credentials(password: String, iterations: Int = iterations) throws -> ScramCredentials {
        try credentials(password: password, salt: Sodium.randomBytes(saltBytes), iterations: iterations)
    }

    public static func credentials(password: String, salt: [UInt8], iterations: Int) throws -> ScramCredentials {
        let salted = try saltedPassword(password, salt: salt, iterations: iterations)
        let clientKey = hmac(salted, Array("Client Key".utf8))
        return ScramCredentials(
            salt: salt, iterations: iterations, storedKey: Array(SHA256.hash(data: clientKey)),
            serverKey: hmac(salted, Array("Server Key".utf8)))
    }

    /// Hi(Normalize(password), salt, i): PBKDF2-HMAC-SHA-256.
    public static func saltedPassword(_ password: String, salt: [UInt8], iterations: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(saslPrep(password).utf8), salt: salt, using: .sha256, outputByteCount: 32,
            unsafeUncheckedRounds: iterations)
        return key.withUnsafeBytes { Array($0) }
    }

    public static func sha256(_ data: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: data)) }

    public static func hmac(_ key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    /// SASLprep (RFC 4013) as far as passwords need it: non-ASCII spaces become spaces,
    /// characters mapped to nothing go, then NFKC. ASCII passwords are unchanged.
    public static func saslPrep(_ password: String) -> String {
        if password.utf8.allSatisfy({ $0 < 0x80 }) { return password }
        var scalars = String.UnicodeScalarView()
        for scalar in password.unicodeScalars {
            switch scalar.value {
            case 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: scalars.append(" ")
            case 0xAD, 0x34F, 0x1806, 0x180B...0x180D, 0x200B...0x200D, 0x2060, 0xFE00...0xFE0F, 0xFEFF: break
            default: scalars.append(scalar)
            }
        }
        return String(scalars).precomposedStringWithCompatibilityMapping
    }

    // MARK: Names

    /// A saslname's text: "=2C" is ",", "=3D" is "="; any other "=" makes it invalid.
    public static func decodeSaslName(_ text: Substring) -> String? {
        guard text.contains("=") else { return String(text) }
        var out = ""
        var rest = text[...]
        while let eq = rest.firstIndex(of: "=") {
            out += rest[..<eq]
            let code = rest[eq...].prefix(3)
            if code == "=2C" {
                out += ","
            } else if code == "=3D" {
                out += "="
            } else {
                return nil
            }
            rest = rest[rest.index(eq, offsetBy: 3)...]
        }
        return out + rest
    }

    public static func encodeSaslName(_ name: String) -> String {
        name.replacingOccurrences(of: "=", with: "=3D").replacingOccurrences(of: ",", with: "=2C")
    }

    // MARK: Messages

    /// client-first-message: gs2-header, then the bare part (n=user,r=nonce[,ext…]).
    public struct ClientFirst: Sendable, Equatable {
        public var gs2Header: String
        public var authzid: String?
        public var username: String
        public var nonce: String
        /// client-first-message-bare, part of the AuthMessage.
        public var bare: String

        public init(parsing text: String) throws(Failure) {
            let fields = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw Failure("malformed client-first message") }
            switch fields[0] {
            case "n", "y": break  // "y": the client could bind but thinks we cannot; we cannot
            case let flag where flag.hasPrefix("p="): throw Failure("channel binding is not supported")
            default: throw Failure("malformed gs2 header")
            }
            if fields[1].isEmpty {
                authzid = nil
            } else {
                guard fields[1].hasPrefix("a="), let name = decodeSaslName(fields[1].dropFirst(2)), !name.isEmpty
                else { throw Failure("malformed authzid") }
                authzid = name
            }
            gs2Header = "\(fields[0]),\(fields[1]),"
            bare = String(fields[2])
            let attributes = fields[2].split(separator: ",", omittingEmptySubsequences: false)
            // A mandatory extension ("m=") we do not know must fail the exchange.
            guard attributes.count >= 2, attributes[0].hasPrefix("n="), attributes[1].hasPrefix("r=") else {
                throw Failure(
                    attributes.first?.hasPrefix("m=") == true
                        ? "mandatory extensions are not supported" : "malformed client-first message")
            }
            guard let user = decodeSaslName(attributes[0].dropFirst(2)), !user.isEmpty else {
                throw Failure("malformed username")
            }
            let nonce = attributes[1].dropFirst(2)
            guard !nonce.isEmpty, nonce.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                throw Failure("malformed nonce")
            }
            username = user
            self.nonce = String(nonce)
        }
    }

    /// The server's side of one exchange, from its first message to its last.
    public struct ServerExchange: Sendable {
        public let clientFirst: ClientFirst
        /// server-first-message: r=client+server nonce,s=salt,i=iterations.
        public let serverFirst: String
        public let nonce: String

        public init(clientFirst: ClientFirst, salt: [UInt8], iterations: Int, serverNonce: String? = nil) {
            self.clientFirst = clientFirst
            let mine = serverNonce ?? Data(Sodium.randomBytes(Scram.nonceBytes)).base64EncodedString()
            nonce = clientFirst.nonce + mine
            serverFirst = "r=\(nonce),s=\(Data(salt).base64EncodedString()),i=\(iterations)"
        }

        /// Checks client-final-message (c=…,r=…,p=…) against the stored keys; returns
        /// server-final-message (v=ServerSignature).
        public func verify(clientFinal: String, storedKey: [UInt8], serverKey: [UInt8]) throws(Failure) -> String {
            let attributes = clientFinal.split(separator: ",", omittingEmptySubsequences: false)
            guard attributes.count >= 3, attributes[0].hasPrefix("c="), attributes[1].hasPrefix("r="),
                let last = attributes.last, last.hasPrefix("p=")
            else { throw Failure("malformed client-final message") }
            guard let binding = Data(base64Encoded: String(attributes[0].dropFirst(2))),
                Array(binding) == Array(clientFirst.gs2Header.utf8)
            else { throw Failure("channel binding does not match the gs2 header") }
            guard attributes[1].dropFirst(2) == nonce else { throw Failure("nonce mismatch") }
            guard let proof = Data(base64Encoded: String(last.dropFirst(2))).map(Array.init), proof.count == 32
            else { throw Failure("malformed proof") }
            let withoutProof = attributes.dropLast().joined(separator: ",")
            let authMessage = Array("\(clientFirst.bare),\(serverFirst),\(withoutProof)".utf8)
            let signature = Scram.hmac(storedKey, authMessage)
            let clientKey = zip(proof, signature).map { $0 ^ $1 }
            guard Sodium.constantTimeEquals(Array(SHA256.hash(data: clientKey)), storedKey) else {
                throw Failure("wrong proof")
            }
            return "v=" + Data(Scram.hmac(serverKey, authMessage)).base64EncodedString()
        }
    }
}
