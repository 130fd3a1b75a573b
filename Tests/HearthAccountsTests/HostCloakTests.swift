import Foundation
import HearthCrypto
import Testing

@testable import HearthAccounts

/// The cloak is a pure function of the address group and the server secret: stable (bans on
/// it keep working across connections, restarts and versions), different per group, and
/// without a trace of the address.
@Suite struct HostCloakTests {
    let cloak = HostCloak(secret: CodeHasher(key: [UInt8](repeating: 7, count: CodeHasher.keyBytes)))

    @Test func looksLikeAHostNameAndHidesTheAddress() {
        let host = cloak.host(for: "192.168.10.20")
        #expect(host.wholeMatch(of: /[a-z2-7]{16}\.hearth/) != nil, "\(host)")
        for part in ["192", "168", "10", "20"] { #expect(!host.contains(part)) }
        #expect(!HostCloak.isAddress(host))
    }

    /// Pinned (and checked with Python's hashlib: BLAKE2b keyed with BLAKE2b("hearth:host cloak")
    /// under the secret, ten bytes in base 32): a change would lift every ban set on a cloak.
    @Test func staysTheSameAcrossVersions() {
        #expect(cloak.host(for: "127.0.0.1") == "oppmtkryqhjzpwag.hearth")
    }

    @Test func oneCloakPerAddressGroup() {
        #expect(cloak.host(for: "10.0.0.1") == cloak.host(for: "10.0.0.1"))
        #expect(cloak.host(for: "10.0.0.1") != cloak.host(for: "10.0.0.2"))
        // An IPv6 /64 is one address, however it is written; an IPv4-mapped address is the IPv4 one.
        #expect(cloak.host(for: "2001:db8:1:2::5") == cloak.host(for: "2001:db8:1:2:ffff:0:0:9"))
        #expect(cloak.host(for: "2001:db8:1:2::5") == cloak.host(for: "2001:0db8:0001:0002:0:0:0:5"))
        #expect(cloak.host(for: "2001:db8:1:2::5") != cloak.host(for: "2001:db8:1:3::5"))
        #expect(cloak.host(for: "::ffff:10.0.0.1") == cloak.host(for: "10.0.0.1"))
    }

    @Test func anotherSecretGivesAnotherCloak() {
        let other = HostCloak(secret: CodeHasher(key: [UInt8](repeating: 8, count: CodeHasher.keyBytes)))
        #expect(other.host(for: "10.0.0.1") != cloak.host(for: "10.0.0.1"))
    }

    @Test func storedSourcesWithABareAddressAreCloaked() {
        let shown = cloak.host(for: "127.0.0.1")
        #expect(cloak.source("ann!~ann@127.0.0.1") == "ann!~ann@\(shown)")
        #expect(cloak.source("ann!~ann@2001:db8::1") == "ann!~ann@\(cloak.host(for: "2001:db8::1"))")
        #expect(cloak.source("ann!~ann@\(shown)") == "ann!~ann@\(shown)")
        #expect(cloak.source("irc.example.org") == "irc.example.org")
        #expect(cloak.source("ann!~ann@node-a") == "ann!~ann@node-a")
    }

    @Test func base32IsRFC4648() {
        let vectors = ["": "", "f": "my", "fo": "mzxq", "foo": "mzxw6", "foob": "mzxw6yq", "foobar": "mzxw6ytboi"]
        for (text, encoded) in vectors { #expect(HostCloak.base32(Array(text.utf8)) == encoded, "\(text)") }
    }
}
