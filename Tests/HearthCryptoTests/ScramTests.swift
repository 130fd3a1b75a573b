import Foundation
import HearthCrypto
import Testing

/// SCRAM-SHA-256 messages and keys, against RFC 7677's example exchange.
@Suite struct ScramTests {
    // RFC 7677, section 3.
    static let salt = [UInt8](Data(base64Encoded: "W22ZaJ0SNY7soEsUEjb6gQ==")!)
    static let clientFirst = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
    static let serverNonce = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
    static let serverFirst =
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
    static let clientFinal =
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
    static let serverFinal = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="

    static func exchange(_ first: String = clientFirst) throws -> Scram.ServerExchange {
        Scram.ServerExchange(
            clientFirst: try Scram.ClientFirst(parsing: first), salt: salt, iterations: 4096, serverNonce: serverNonce)
    }

    @Test func theRFC7677ExampleExchangeVerifies() throws {
        let credentials = try Scram.credentials(password: "pencil", salt: Self.salt, iterations: 4096)
        let first = try Scram.ClientFirst(parsing: Self.clientFirst)
        #expect(first.username == "user" && first.nonce == "rOprNGfwEbeRWgbNEkqO" && first.authzid == nil)
        #expect(first.gs2Header == "n,," && first.bare == "n=user,r=rOprNGfwEbeRWgbNEkqO")
        let exchange = try Self.exchange()
        #expect(exchange.serverFirst == Self.serverFirst)
        let final = try exchange.verify(
            clientFinal: Self.clientFinal, storedKey: credentials.storedKey, serverKey: credentials.serverKey)
        #expect(final == Self.serverFinal)
    }

    @Test func wrongPasswordsTamperedNoncesAndBindingsFail() throws {
        let right = try Scram.credentials(password: "pencil", salt: Self.salt, iterations: 4096)
        let wrong = try Scram.credentials(password: "pencil!", salt: Self.salt, iterations: 4096)
        let exchange = try Self.exchange()
        #expect(throws: Scram.Failure("wrong proof")) {
            try exchange.verify(clientFinal: Self.clientFinal, storedKey: wrong.storedKey, serverKey: wrong.serverKey)
        }
        // Fewer rounds make other keys: the count is part of the credentials.
        let fewer = try Scram.credentials(password: "pencil", salt: Self.salt, iterations: 4095)
        #expect(fewer.storedKey != right.storedKey)
        let tampered = Self.clientFinal.replacingOccurrences(of: "$k0", with: "$k1")
        #expect(throws: Scram.Failure("nonce mismatch")) {
            try exchange.verify(clientFinal: tampered, storedKey: right.storedKey, serverKey: right.serverKey)
        }
        // The proof binds the whole AuthMessage: another channel-binding value fails too.
        let yBinding = Self.clientFinal.replacingOccurrences(of: "c=biws", with: "c=eSws")
        #expect(throws: Scram.Failure("channel binding does not match the gs2 header")) {
            try exchange.verify(clientFinal: yBinding, storedKey: right.storedKey, serverKey: right.serverKey)
        }
        let flipped = Self.clientFinal.replacingOccurrences(of: "p=dHzb", with: "p=dHzc")
        #expect(throws: Scram.Failure("wrong proof")) {
            try exchange.verify(clientFinal: flipped, storedKey: right.storedKey, serverKey: right.serverKey)
        }
        for malformed in ["", "c=biws", "c=biws,r=x", "r=x,c=biws,p=AAAA", Self.clientFinal + ",x=1"] {
            #expect(throws: Scram.Failure.self) {
                try exchange.verify(clientFinal: malformed, storedKey: right.storedKey, serverKey: right.serverKey)
            }
        }
    }

    @Test func clientFirstMessagesAreParsedStrictly() throws {
        #expect(throws: Scram.Failure("channel binding is not supported")) {
            try Scram.ClientFirst(parsing: "p=tls-unique,,n=user,r=abc")
        }
        #expect(throws: Scram.Failure("mandatory extensions are not supported")) {
            try Scram.ClientFirst(parsing: "n,,m=ext,n=user,r=abc")
        }
        for bad in [
            "", "n,n=user,r=abc", "x,,n=user,r=abc", "n,,r=abc,n=user", "n,,n=,r=abc", "n,,n=user,r=",
            "n,,n=a=2Xb,r=abc", "n,b,n=user,r=abc", "n,,n=user,r=a b",
        ] {
            #expect(throws: Scram.Failure.self, "\(bad)") { try Scram.ClientFirst(parsing: bad) }
        }
        // "y": the client supports binding but thinks the server does not; its c= is "y,,".
        let y = try Scram.ClientFirst(parsing: "y,a=us=2Cer,n=us=2Cer=3D,r=abc,x=extension")
        #expect(y.gs2Header == "y,a=us=2Cer," && y.authzid == "us,er" && y.username == "us,er=")
        #expect(y.bare == "n=us=2Cer=3D,r=abc,x=extension")
        #expect(Scram.encodeSaslName("a,b=c") == "a=2Cb=3Dc")
        #expect(Scram.decodeSaslName("a=2Cb=3Dc") == "a,b=c")
        #expect(Scram.decodeSaslName("a=2") == nil)
    }

    @Test func passwordsAreNormalizedWithSASLprep() throws {
        #expect(Scram.saslPrep("pencil") == "pencil")
        // A no-break space is a space; a soft hyphen is nothing; NFKC composes.
        #expect(Scram.saslPrep("a\u{00A0}b\u{00AD}c") == "a bc")
        #expect(Scram.saslPrep("e\u{0301}") == "\u{00E9}")
        let a = try Scram.credentials(password: "I\u{00AD}X", salt: Self.salt, iterations: 4096)
        let b = try Scram.credentials(password: "IX", salt: Self.salt, iterations: 4096)
        #expect(a == b)
    }

    @Test func freshCredentialsHaveRandomSaltsAndTheNamedRounds() throws {
        let a = try Scram.credentials(password: "pencil", iterations: Scram.minIterations)
        let b = try Scram.credentials(password: "pencil", iterations: Scram.minIterations)
        #expect(a.salt.count == Scram.saltBytes && a.salt != b.salt && a.storedKey != b.storedKey)
        #expect(a.iterations == 4096 && a.storedKey.count == 32 && a.serverKey.count == 32)
        #expect(Scram.iterations >= Scram.minIterations)
    }
}
