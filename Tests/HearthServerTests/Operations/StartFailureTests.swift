import Foundation
import HearthServer
import HearthTesting
import Testing

/// A server whose start fails tells whoever waits for its ports why, instead of leaving them
/// waiting for ever (a test once hung that way when a startup read timed out under load).
@Suite struct StartFailureTests {
    @Test func aTakenIRCPortFailsTheStartWithItsReason() async throws {
        try await withServer { first in
            let taken = first.httpPort  // NIO's listener: no SO_REUSEPORT, so nobody else may bind it
            let error = await #expect(throws: (any Error).self) {
                let second = try await TestServer.start { $0.ircPort = taken }
                await second.stop()
            }
            #expect("\(error.map { "\($0)" } ?? "")".lowercased().contains("address"), "\(String(describing: error))")
            // The first server is untouched and still answers.
            let client = try await TestClient.user(first, "ann")
            try await client.send("!whoami")
            try await client.expect("You are ann")
        }
    }

    /// The TLS port taken: the start fails, and the plain port bound before it is let go again.
    @Test func aTakenTLSPortFailsTheStartAndFreesThePlainPort() async throws {
        try await withServer { first in
            let free = try Self.freePort()
            await #expect(throws: (any Error).self) {
                let (second, _) = try await TLSTests.tlsServer {
                    $0.ircPort = free
                    $0.tlsPort = first.httpPort
                }
                await second.stop()
            }
            // Nobody listens on the plain port any more: a connection is refused.
            await #expect(throws: (any Error).self) { _ = try await TestClient.connect(port: free) }
        }
    }

    /// A port nobody listens on now (bound and let go by the kernel's choice).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func aTakenHTTPPortFailsTheStartWithItsReason() async throws {
        try await withServer { first in
            let taken = first.httpPort
            await #expect(throws: (any Error).self) {
                let second = try await TestServer.start { $0.httpPort = taken }
                await second.stop()
            }
        }
    }
}
