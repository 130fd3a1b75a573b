import Foundation
import HearthTesting
import Testing

/// IRCv3 sts: with a TLS port, plain connections are told where it is and TLS ones how long
/// to keep to it; without one, nothing is said.
@Suite struct STSTests {
    /// The caps of every line of the answer to CAP LS (all but the last say `LS *`).
    static func capLS(_ client: TestClient, version: String = " 302") async throws -> [String] {
        try await client.send("CAP LS" + version)
        var caps: [String] = []
        var line = ""
        repeat {
            line = try await client.expect("CAP * LS")
            caps += line.split(separator: " :", maxSplits: 1).last!.split(separator: " ").map(String.init)
        } while line.contains("CAP * LS * ")
        return caps
    }

    @Test func plainAndTLSConnectionsAreToldThePolicy() async throws {
        let (started, port) = try await TLSTests.tlsServer { $0.stsDuration = 600 }
        try await stopping(started) { server async throws in
            let plain = try await server.connect()
            #expect(try await Self.capLS(plain).contains("sts=port=\(port),duration=600"))
            try await plain.send("CAP REQ sts")
            try await plain.expect("CAP * NAK :sts")
            let secure = try await TestClient.connectTLS(port: port)
            let caps = try await Self.capLS(secure)
            #expect(caps.contains("sts=duration=600"))
            #expect(!caps.contains { $0.hasPrefix("sts=port") })
            // Before CAP LS 302 no cap carries a value: sts says nothing there.
            let old = try await server.connect()
            #expect(!(try await Self.capLS(old, version: "")).contains { $0.hasPrefix("sts") })
        }
    }

    @Test func withoutTLSThereIsNoPolicy() async throws {
        try await withServer { server in
            let client = try await server.connect()
            #expect(!(try await Self.capLS(client)).contains { $0.hasPrefix("sts") })
        }
    }
}
