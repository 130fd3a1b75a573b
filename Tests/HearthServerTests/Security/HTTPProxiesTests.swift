import Testing

@testable import HearthServer

/// Who an HTTP request is from behind reverse proxies: the rule, in-process.
@Suite struct HTTPProxiesTests {
    let proxies = HTTPProxies(["127.0.0.1", "10.0.0.5", "::ffff:10.0.0.6", "2001:db8::0:1"])!

    @Test func aListedProxysHeaderNamesTheRightMostAddressThatIsNotAProxy() {
        #expect(proxies.client(peer: "127.0.0.1", values: ["198.51.100.7"]) == "198.51.100.7")
        // The visitor may write anything to the left; the proxy appended the right-most entry.
        #expect(proxies.client(peer: "127.0.0.1", values: ["1.2.3.4, 198.51.100.7"]) == "198.51.100.7")
        #expect(proxies.client(peer: "127.0.0.1", values: ["1.2.3.4", "198.51.100.7"]) == "198.51.100.7")
        // Proxies in a chain are skipped, written any way.
        #expect(proxies.client(peer: "127.0.0.1", values: ["1.2.3.4, 198.51.100.7, 10.0.0.5"]) == "198.51.100.7")
        #expect(proxies.client(peer: "10.0.0.5", values: ["198.51.100.7,10.0.0.6 , 2001:db8::1"]) == "198.51.100.7")
        #expect(proxies.client(peer: "127.0.0.1", values: ["2001:DB8:0::2"]) == "2001:db8::2")
        #expect(proxies.client(peer: "127.0.0.1", values: ["[2001:db8::2]:4711"]) == "2001:db8::2")
        #expect(proxies.client(peer: "127.0.0.1", values: ["198.51.100.7:4711"]) == "198.51.100.7")
        #expect(proxies.client(peer: "127.0.0.1", values: ["::ffff:198.51.100.7"]) == "198.51.100.7")
    }

    @Test func anyoneElsesHeadersAreIgnored() {
        for peer in ["127.0.0.2", "203.0.113.9", "2001:db8::2"] {
            #expect(proxies.client(peer: peer, values: ["198.51.100.7"]) == peer)
            #expect(proxies.client(peer: peer, values: []) == peer)
        }
        #expect(HTTPProxies().client(peer: "127.0.0.1", values: ["198.51.100.7"]) == "127.0.0.1")
    }

    @Test func whatIsNotAnAddressStopsAtTheProxyThatAddedIt() {
        for values in [
            [String](), [""], ["unknown"], ["_hidden"], ["198.51.100.7, garbage"], ["198.51.100.7,"], ["1.2.3.4:99999"],
            ["[2001:db8::2"], ["[2001:db8::2]x"], ["fe80::1%eth0"], ["198.51.100.7 10.0.0.9"],
        ] {
            #expect(proxies.client(peer: "127.0.0.1", values: values) == "127.0.0.1", "\(values)")
        }
        #expect(proxies.client(peer: "127.0.0.1", values: ["198.51.100.7, 10.0.0.5, bad"]) == "127.0.0.1")
        #expect(proxies.client(peer: "127.0.0.1", values: ["bad, 10.0.0.5"]) == "10.0.0.5")
        // A chain of proxies only: the left-most, the furthest one known.
        #expect(proxies.client(peer: "127.0.0.1", values: ["10.0.0.6, 10.0.0.5"]) == "10.0.0.6")
    }

    @Test func rfc7239Forwarded() {
        let forwarded = HTTPProxies(["127.0.0.1", "10.0.0.5"], header: .forwarded)!
        #expect(forwarded.client(peer: "127.0.0.1", values: ["for=198.51.100.7"]) == "198.51.100.7")
        #expect(
            forwarded.client(
                peer: "127.0.0.1", values: [#"for=1.2.3.4, For="[2001:db8:cafe::17]:4711";proto=https;by=10.0.0.5"#])
                == "2001:db8:cafe::17")
        #expect(
            forwarded.client(peer: "127.0.0.1", values: ["proto=http;for=198.51.100.7", "for=10.0.0.5;by=x"])
                == "198.51.100.7")
        #expect(forwarded.client(peer: "127.0.0.1", values: [#"for="_hidden""#]) == "127.0.0.1")
        #expect(forwarded.client(peer: "127.0.0.1", values: ["proto=https"]) == "127.0.0.1")
        #expect(forwarded.client(peer: "127.0.0.1", values: ["for=unknown"]) == "127.0.0.1")
        // A quote the visitor left open swallows nothing the proxy appended.
        #expect(forwarded.client(peer: "127.0.0.1", values: [#"for="1.2.3.4, for=198.51.100.7"#]) == "198.51.100.7")
    }

    @Test func theListHoldsOnlyAddresses() {
        #expect(HTTPProxies(["proxy.example"]) == nil)
        #expect(HTTPProxies(["10.0.0.0/8"]) == nil)
        #expect(HTTPProxies([""]) == nil)
        #expect(HTTPProxies(["::1", "0:0:0:0:0:0:0:1"])?.addresses == ["::1"])
    }
}
