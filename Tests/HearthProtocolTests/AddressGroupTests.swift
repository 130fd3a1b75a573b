import Testing

@testable import HearthProtocol

/// Per-address limits count an IPv6 /64 as one address.
@Suite struct AddressGroupTests {
    @Test func ipv6AddressesOfOneSlash64ShareAKey() {
        let key = AddressGroup.key("2001:db8:1:2::1")
        #expect(key == "2001:db8:1:2::/64")
        for other in [
            "2001:db8:1:2::ffff", "2001:db8:1:2:abcd:ef01:2345:6789", "2001:0db8:0001:0002:0:0:0:9",
            "2001:db8:1:2::7%eth0",
        ] {
            #expect(AddressGroup.key(other) == key, "\(other)")
        }
        #expect(AddressGroup.key("2001:db8:1:3::1") != key)
        #expect(AddressGroup.key("::1") == "0:0:0:0::/64")
        #expect(AddressGroup.ipv6PrefixBits == 64)
    }

    @Test func ipv4CountsAloneAlsoWhenMapped() {
        #expect(AddressGroup.key("192.0.2.7") == "192.0.2.7")
        #expect(AddressGroup.key("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(AddressGroup.key("::ffff:c000:207") == "192.0.2.7")
        #expect(AddressGroup.key("192.0.2.8") != AddressGroup.key("192.0.2.7"))
    }

    @Test func whatIsNotAnAddressIsItsOwnKey() {
        for text in ["unknown", "1:2:3", "1::2::3", "12345::1", "1:2:3:4:5:6:7:8:9", "::g"] {
            #expect(AddressGroup.key(text) == text, "\(text)")
        }
    }

    /// The wider network a guessing attacker spreads over: an IPv4 /24, an IPv6 /48.
    @Test func networksAreAnIPv4Slash24AndAnIPv6Slash48() {
        #expect(AddressGroup.network("192.0.2.7") == "192.0.2.0/24")
        #expect(AddressGroup.network("::ffff:192.0.2.200") == "192.0.2.0/24")
        #expect(AddressGroup.network("192.0.3.7") != AddressGroup.network("192.0.2.7"))
        #expect(AddressGroup.network("2001:db8:1:2::1") == "2001:db8:1::/48")
        #expect(AddressGroup.network("2001:db8:1:ffff:abcd::9") == "2001:db8:1::/48")
        #expect(AddressGroup.network("2001:db8:2::1") != AddressGroup.network("2001:db8:1::1"))
        for text in ["unknown", "1:2:3", "1.2.3", "1.2.3.400"] {
            #expect(AddressGroup.network(text) == text, "\(text)")
        }
    }
}
