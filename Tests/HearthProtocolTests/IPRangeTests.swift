import HearthProtocol
import Testing

/// Server bans name an address or a CIDR network, IPv4 or IPv6.
@Suite struct IPRangeTests {
    @Test func ipv4NetworksMatchTheirAddressesAlsoWhenMapped() throws {
        let net = try #require(IPRange("203.0.113.77/24"))
        #expect(net.description == "203.0.113.0/24")
        #expect(net.contains("203.0.113.1"))
        #expect(net.contains("::ffff:203.0.113.200"))
        #expect(!net.contains("203.0.114.1"))
        #expect(!net.contains("not-an-address"))
        let one = try #require(IPRange("192.0.2.7"))
        #expect(one.description == "192.0.2.7")
        #expect(one.contains("192.0.2.7") && !one.contains("192.0.2.8"))
        #expect(IPRange("0.0.0.0/0")?.contains("198.51.100.9") == true)
        #expect(IPRange("10.0.0.0/13")?.contains("10.7.255.255") == true)
        #expect(IPRange("10.0.0.0/13")?.contains("10.8.0.0") == false)
    }

    @Test func ipv6NetworksMatchTheirAddresses() throws {
        let net = try #require(IPRange("2001:DB8:aa::1/32"))
        #expect(net.description == "2001:db8:0:0:0:0:0:0/32")
        #expect(net.contains("2001:db8:ffff::1"))
        #expect(!net.contains("2001:db9::1"))
        #expect(!net.contains("203.0.113.1"))
        #expect(IPRange("::1")?.contains("::1") == true)
        #expect(IPRange("2001:db8::/127")?.contains("2001:db8::1") == true)
        #expect(IPRange("2001:db8::/127")?.contains("2001:db8::2") == false)
    }

    @Test func whatIsNotAnAddressOrPrefixIsRefused() {
        for text in [
            "", "bob", "300.1.1.1", "1.2.3", "1.2.3.4/33", "1.2.3.4/-1", "1.2.3.4/", "1.2.3.4/x", "::1/129",
            "1::2::3", "1.2.3.4.5", "+1.2.3.4", "１.2.3.4",
        ] {
            #expect(IPRange(text) == nil, "\(text)")
        }
    }
}
