import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// An always-on account with all its devices connected: one more login is refused its nick, and
/// whatever nick that client tries next gets an answer (it was ignored silently, and it waited forever).
@Suite struct AlwaysOnFullTests {
    @Test func aDeviceOverTheLimitIsAnsweredForEveryNickItTries() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            var devices = [try await AlwaysOnTests.alwaysOnInDen(server, nick: "ann", login: "ann@d0")]
            for n in 1..<Core.maxDevicesPerUser {
                devices.append(try await AlwaysOnTests.device(server, nick: "ann", login: "ann@d\(n)"))
            }
            let extra = try await TestClient.connect(port: server.ircPort)
            try await extra.send("CAP REQ :sasl")
            try await extra.send("NICK ann")
            try await extra.send("USER ann 0 * :ann")
            try await extra.send("AUTHENTICATE PLAIN")
            try await extra.expect("AUTHENTICATE +")
            try await extra.send("AUTHENTICATE " + Data("\0ann@extra\0s3cret-pass".utf8).base64EncodedString())
            try await extra.expectNumeric("903")
            try await extra.send("CAP END")
            try await extra.expect("(on at most \(Core.maxDevicesPerUser) connections at once)")
            // A client's usual next try: it must hear why, not nothing.
            try await extra.send("NICK ann_")
            try await extra.expect(Core.alwaysOnNickRule)
            #expect(devices.count == Core.maxDevicesPerUser)
        }
    }
}
