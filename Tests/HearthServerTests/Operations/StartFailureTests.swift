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
