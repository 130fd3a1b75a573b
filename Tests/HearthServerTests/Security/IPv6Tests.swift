import Foundation
import HearthProtocol
import HearthTesting
import Testing

/// `--host ::` listens on IPv6 and IPv4; per-address limits count an IPv6 /64 as one
/// address (security round two). Addresses of one /64 are added to `lo` where the machine
/// allows it (root); elsewhere the grouping itself is checked.
extension LimitCrossingTests {
    static let group = UInt16.random(in: 1...0xffe)
    static let prefix = "fd00:4845:4152:" + String(group, radix: 16)

    /// Adds `address/64` to the loopback interface; false where that is not allowed.
    static func addLoopbackAddress(_ address: String) async -> Bool {
        (try? await Programs.run(["ip", "-6", "addr", "add", address + "/64", "dev", "lo", "nodad"]))?.status == 0
    }

    static func removeLoopbackAddress(_ address: String) async {
        _ = try? await Programs.run(["ip", "-6", "addr", "del", address + "/64", "dev", "lo"])
    }

    @Test func ipv6ListensAndOneSlash64IsOneAddress() async throws {
        let limit = 2
        try await withServer {
            $0.host = "::"
            $0.floodControl = true  // loopback would be exempt otherwise
            $0.maxConnectionsPerAddress = limit
        } run: { server in
            // IPv6 loopback and IPv4 both reach a `::` listener; IPv4 shows as itself.
            let six = try await TestClient.connect(port: server.ircPort, host: "::1")
            try await six.send("NICK six")
            try await six.send("USER six 0 * :six")
            try await six.expectNumeric("001")
            let four = try await TestClient.connect(port: server.ircPort, host: "127.0.0.1")
            try await four.send("NICK four")
            try await four.send("USER four 0 * :four")
            try await four.expectNumeric("001")
            try await four.send("WHOIS four")
            try await four.expect(" 338 four four ~four@127.0.0.1 127.0.0.1 ")

            let addresses = (1...limit + 1).map { "\(Self.prefix)::\(String($0, radix: 16))" }
            var added: [String] = []
            for address in addresses where await Self.addLoopbackAddress(address) { added.append(address) }
            guard added.count == addresses.count else {
                for address in added { await Self.removeLoopbackAddress(address) }
                // Not root here: the rule itself, as the connection limit applies it.
                #expect(Set(addresses.map(AddressGroup.key)).count == 1)
                return
            }
            var held: [TestClient] = []
            for address in addresses.prefix(limit) {
                let c = try await TestClient.connect(port: server.ircPort, host: "::1", from: address)
                try await c.sync()
                held.append(c)
            }
            // A third address of the same /64 is the same "address".
            let refused = try await TestClient.connect(port: server.ircPort, host: "::1", from: addresses[limit])
            let refusal = try? await refused.expect(
                "ERROR :Closing Link: \(addresses[limit]) (Too many connections from your address")
            #expect(refusal != nil)
            // Another /64 is not.
            let other = "fd00:4845:4152:" + String(Self.group + 1, radix: 16) + "::1"
            if await Self.addLoopbackAddress(other) {
                let elsewhere = try? await TestClient.connect(port: server.ircPort, host: "::1", from: other)
                let welcomed: Void? = try? await elsewhere?.sync()
                #expect(welcomed != nil)
                await Self.removeLoopbackAddress(other)
            }
            for address in addresses { await Self.removeLoopbackAddress(address) }
            for c in held { await c.close() }
        }
    }
}
