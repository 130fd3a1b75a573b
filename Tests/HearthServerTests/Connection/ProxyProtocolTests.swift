import HearthTesting
import Testing

@testable import HearthServer

/// Behind a load balancer (HAProxy `send-proxy`): its connections start with a PROXY header
/// naming the client, and that address is the client's for WHOIS, limits and bans.
@Suite struct ProxyProtocolTests {
    @Test func aTrustedBalancerNamesTheClient() async throws {
        try await withServer { config in
            config.trustedProxies = ["127.0.0.1"]
            config.floodControl = true  // so the per-address limit applies on loopback
            config.maxConnectionsPerAddress = 1
        } run: { server in
            let ann = try await server.connect()
            // The header and the client's first lines in one packet, as a balancer may pass them.
            try await ann.send("PROXY TCP4 203.0.113.7 127.0.0.1 51234 6667\r\nNICK ann\r\nUSER ann 0 * :Ann")
            try await ann.expectNumeric("001")
            try await ann.send("WHOIS ann")
            try await ann.expect(" 338 ann ann ~ann@203.0.113.7 203.0.113.7 ")
            // Another client behind the same balancer is another address: not over the limit.
            let bob = try await server.connect()
            try await bob.send("PROXY TCP6 2001:db8::5 ::1 40000 6667")
            try await bob.send("NICK bob")
            try await bob.send("USER bob 0 * :Bob")
            try await bob.expectNumeric("001")
            // A second connection from ann's address is.
            let again = try await server.connect()
            try await again.send("PROXY TCP4 203.0.113.7 127.0.0.1 51235 6667")
            try await again.expect("Too many connections from your address")
            // The balancer's own health check.
            let check = try await server.connect()
            try await check.send("PROXY UNKNOWN")
            try await check.send("PING x")
            try await check.expect("PONG")
        }
    }

    @Test func aTrustedBalancerMustSendTheHeader() async throws {
        try await withServer { config in
            config.trustedProxies = ["127.0.0.1"]
        } run: { server in
            let client = try await server.connect()
            try await client.send("NICK sneaky")
            try await client.expect("ERROR :Closing Link: (a PROXY header was expected from the load balancer)")
        }
    }

    @Test func nobodyElseMayNameAnAddress() async throws {
        try await withServer { server in
            let client = try await server.connect()
            try await client.send("NICK eve")
            try await client.send("PROXY TCP4 198.51.100.1 127.0.0.1 1 2")
            try await client.expectNumeric("451")
            try await client.send("USER eve 0 * :Eve")
            try await client.expectNumeric("001")
            try await client.send("WHOIS eve")
            try await client.expect(" 338 eve eve ~eve@127.0.0.1 127.0.0.1 ")
        }
    }

    @Test(arguments: [
        ("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n", "1.2.3.4"), ("PROXY TCP6 ::1 ::1 1 2\r\n", "::1"),
        ("PROXY UNKNOWN\r\n", "peer"), ("PROXY TCP4 nonsense 5.6.7.8 1 2\r\n", nil),
        ("PROXY TCP4 1.2.3.4 5.6.7.8 99999 2\r\n", nil), ("NICK x\r\n", nil),
    ])
    func headers(line: String, address: String?) {
        #expect(ProxyHeaderHandler.clientAddress(line, peer: "peer") == address)
    }
}
