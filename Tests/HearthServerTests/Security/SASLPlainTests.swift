import Foundation
import Testing

@testable import HearthServer

/// SASL PLAIN's payload, parsed in-process (`Core.parsePlain`).
@Suite struct SASLPlainTests {
    static func payload(_ parts: String...) -> String {
        Data(parts.joined(separator: "\0").utf8).base64EncodedString()
    }

    @Test func aPlainPayloadGivesItsAccountAndSecretWhenItActsAsThatAccountOrNone() {
        #expect(Core.parsePlain(Self.payload("", "ann", "pw"))! == ("ann", "pw"))
        #expect(Core.parsePlain(Self.payload("ANN", "ann", "pw"))! == ("ann", "pw"))
        #expect(Core.parsePlain(Self.payload("bob", "ann", "pw")) == nil)
    }

    @Test func aMalformedPlainPayloadIsRefused() {
        #expect(Core.parsePlain("not base64!") == nil)
        #expect(Core.parsePlain(Self.payload("ann", "pw")) == nil)
        #expect(Core.parsePlain(Self.payload("", "ann", "pw", "more")) == nil)
        #expect(Core.parsePlain(Data([0, 0x61, 0, 0xFF]).base64EncodedString()) == nil)
    }
}
