import HearthKit
import HearthStore
import Testing

@testable import HearthServer

/// Which push endpoints the server sends to (SSRF): https on public addresses, unless the
/// tests' setting allows http and loopback; and what a push service's answer means.
@Suite struct PushEndpointTests {
    @Test func onlyPublicAddressesAreFetched() {
        for address in [
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
            "224.0.0.1", "::1", "::", "fc00::1", "fe80::1", "ff02::1", "::ffff:127.0.0.1", "[::1]",
        ] {
            #expect(!OutboundAddress.isPublic(address), "\(address)")
        }
        for address in ["8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:1.1.1.1"] {
            #expect(OutboundAddress.isPublic(address), "\(address)")
        }
        #expect(!OutboundAddress.isPublic("push.example"), "a name is resolved first, never taken as an address")
    }

    @Test func anIPv6AddressCarryingAPrivateIPv4OneIsNotPublic() {
        for address in [
            "64:ff9b::10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::192.168.0.1", "::ffff:10.0.0.1",
            "::ffff:100.64.0.1", "2002:c0a8:101::1", "2002:7f00:1::1", "::10.0.0.1", "::127.0.0.1",
            "64:ff9b:1::8.8.8.8", "fd12:3456::1", "fec0::1", "fe80::1%1", "2001:db8::1", "100::1",
        ] {
            #expect(!OutboundAddress.isPublic(address), "\(address)")
        }
        for address in ["64:ff9b::8.8.8.8", "::ffff:8.8.4.4", "2002:808:808::1", "2001:4860:4860::8888"] {
            #expect(OutboundAddress.isPublic(address), "\(address)")
        }
        for address in ["192.0.0.8", "192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1", "255.255.255.255"] {
            #expect(!OutboundAddress.isPublic(address), "\(address): documentation, benchmarking or reserved")
        }
    }

    @Test func theSenderConnectsToTheAddressItVetted() async {
        // An address literal is its own answer; a private one only with push-local-endpoints.
        #expect(await OutboundAddress.vettedAddress("8.8.8.8", allowLocal: false) == "8.8.8.8")
        #expect(
            await OutboundAddress.vettedAddress("[2001:4860:4860::8888]", allowLocal: false) == "2001:4860:4860::8888")
        #expect(await OutboundAddress.vettedAddress("127.0.0.1", allowLocal: false) == nil)
        #expect(await OutboundAddress.vettedAddress("[64:ff9b::a00:1]", allowLocal: false) == nil)
        #expect(await OutboundAddress.vettedAddress("127.0.0.1", allowLocal: true) == "127.0.0.1")
        // A name that resolves to loopback is refused, and would be reached only at what was vetted.
        #expect(await OutboundAddress.vettedAddress("localhost", allowLocal: false) == nil)
        let local = await OutboundAddress.vettedAddress("localhost", allowLocal: true)
        #expect(local == "127.0.0.1" || local == "::1")
        let pinned = PushSender.Worker.configuration(connectingTo: "192.0.2.1", for: "push.example")
        #expect(pinned.dnsOverride == ["push.example": "192.0.2.1"])
    }

    @Test func anEndpointMustBeHttpsAndNotAPrivateAddress() {
        #expect(PushEndpoints.problem("https://fcm.googleapis.com/fcm/send/abc", allowLocal: false) == nil)
        #expect(PushEndpoints.problem("http://push.example/1", allowLocal: false) != nil)
        #expect(PushEndpoints.problem("https://127.0.0.1/1", allowLocal: false) != nil)
        #expect(PushEndpoints.problem("https://[::1]:8443/1", allowLocal: false) != nil)
        #expect(PushEndpoints.problem("https://user:pw@push.example/1", allowLocal: false) != nil)
        #expect(PushEndpoints.problem("ftp://push.example/1", allowLocal: false) != nil)
        #expect(PushEndpoints.problem("http://127.0.0.1:9/1", allowLocal: true) == nil, "the tests' stand-in")
    }

    @Test func anEndpointAtItsLengthAndOnePast() {
        let base = "https://push.example/"
        let longest = base + String(repeating: "a", count: PushRules.maxEndpointLength - base.count)
        #expect(PushEndpoints.problem(longest, allowLocal: false) == nil)
        #expect(PushEndpoints.problem(longest + "a", allowLocal: false) != nil)
    }

    @Test func whatAPushServiceAnswerMeans() {
        typealias W = PushSender.Worker
        #expect(W.outcome(status: 201, retryAfter: nil) == .delivered)
        #expect(W.outcome(status: 404, retryAfter: nil) == .gone && W.outcome(status: 410, retryAfter: nil) == .gone)
        #expect(W.outcome(status: 429, retryAfter: " 7") == .retry(after: 7))
        #expect(W.outcome(status: 503, retryAfter: nil) == .retry(after: nil))
        // A hostile service's Retry-After never reaches the sleep as NaN, infinity or a sign.
        for hostile in ["nan", "-inf", "inf", "-1e300", "1e300", "-5", "Wed, 21 Oct 2015 07:28:00 GMT"] {
            #expect(W.outcome(status: 429, retryAfter: hostile) == .retry(after: nil))
        }
        #expect(W.outcome(status: 413, retryAfter: nil) == .refused)
    }
}
