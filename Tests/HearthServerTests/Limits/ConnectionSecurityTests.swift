import Foundation
import HearthProtocol
import HearthTesting
import Testing

/// Connection-level limits of security round two that the other suites cross only in part:
/// client tags as a peer with message-tags receives them, and a `::1`-only server.
extension LimitCrossingTests {
    /// A tag section of exactly `bytes` bytes of tag data (without the '@' and the space).
    static func clientTags(_ bytes: Int) -> String { "@+t=" + String(repeating: "t", count: bytes - 3) + " " }

    /// 4,094 bytes of tag data reach a peer that speaks message-tags, whole, with PRIVMSG and
    /// TAGMSG, inside the 8,191 bytes clients accept; 4,095 get 417 and reach nobody.
    @Test func clientTagsAtTheirLimitReachAPeerAndOnePastReachNobody() async throws {
        try await withServer { server in
            let caps = "message-tags server-time"
            let victor = try await IRCv3Tests.client(server, "victor", caps: caps)
            let pia = try await IRCv3Tests.client(server, "pia", caps: caps)
            for c in [victor, pia] {
                try await c.send("JOIN #t")
                try await c.expectNumeric("366")
            }
            let limit = IRCLimits.maxClientTagBytes
            #expect(limit == 4094)
            let atLimit = Self.clientTags(limit)
            #expect(atLimit.utf8.count == limit + 2)
            let tag = String(atLimit.dropFirst().dropLast())

            try await victor.send(atLimit + "PRIVMSG #t :tags at the limit")
            let relayed = try await pia.expect("PRIVMSG #t :tags at the limit")
            let section = relayed.prefix { $0 != " " }
            #expect(section.split(separator: ";").contains { $0.drop { $0 == "@" } == tag })
            #expect(section.contains("time="))
            #expect(section.utf8.count + 1 <= IRCLimits.maxTagBytes)

            try await victor.send(atLimit + "TAGMSG #t")
            let tagmsg = try await pia.expect("TAGMSG #t")
            #expect(tagmsg.prefix { $0 != " " }.split(separator: ";").contains { $0.drop { $0 == "@" } == tag })

            let refusal = " 417 victor :Message tags too long (the limit is \(limit) bytes of tag data)"
            let onePast = Self.clientTags(limit + 1)
            try await victor.send(onePast + "PRIVMSG #t :tags one past")
            try await victor.expect(refusal)
            try await victor.send(onePast + "TAGMSG #t")
            try await victor.expect(refusal)
            // Neither reached pia: the first of a relay or the answer to a later PING is the PONG.
            try await pia.send("PING after-one-past")
            let next = try await pia.expect("the PONG") {
                $0.contains("TAGMSG") || $0.contains("one past") || $0.contains("PONG")
            }
            #expect(next.contains("PONG"), "\(next)")
            // The connection lives on.
            try await victor.send("PRIVMSG #t :still here")
            try await pia.expect("PRIVMSG #t :still here")
        }
    }

    /// `--host ::1`: IRC and HTTP answer over IPv6 loopback, and the per-address limit counts
    /// `::1` connections (loopback is exempt only without flood control).
    @Test func anIPv6OnlyServerServesAndCountsConnectionsPerAddress() async throws {
        let limit = 2
        try await withServer {
            $0.host = "::1"
            $0.floodControl = true
            $0.maxConnectionsPerAddress = limit
        } run: { server in
            var held: [TestClient] = []
            for n in 1...limit {
                let c = try await TestClient.connect(port: server.ircPort, host: "::1")
                try await c.send("NICK six\(n)")
                try await c.send("USER six 0 * :six")
                try await c.expectNumeric("001")
                held.append(c)
            }
            try await held[0].send("WHOIS six2")
            try await held[0].expect(" 311 six1 six2 ~six \(server.server.shownHost(for: "::1")) ")
            let refused = try await TestClient.connect(port: server.ircPort, host: "::1")
            try await refused.expect(
                "ERROR :Closing Link: ::1 (Too many connections from your address: the limit is 2)")
            // A slot freed is a slot again (once ISON no longer sees the one that left).
            await held[1].close()
            var gone = false
            for _ in 0..<200 where !gone {
                gone = try await Self.ircReplies(held[0], "ISON six2").contains { $0.hasSuffix(" 303 six1 :") }
            }
            #expect(gone)
            let again = try await TestClient.connect(port: server.ircPort, host: "::1")
            try await again.send("NICK six3")
            try await again.send("USER six 0 * :six")
            try await again.expectNumeric("001")

            let health = try await Self.curl(["-s", "-m", "5", "-g", "http://[::1]:\(server.httpPort)/health"])
            #expect(health.contains(#""status":"ok""#), "\(health)")
            for c in [held[0], again] { await c.close() }
        }
    }

    /// What curl prints for `arguments`.
    static func curl(_ arguments: [String]) async throws -> String {
        try await Programs.run(["curl"] + arguments).output
    }
}
