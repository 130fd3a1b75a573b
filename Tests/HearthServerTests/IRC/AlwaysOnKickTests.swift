import Foundation
import HearthTesting
import Testing

/// A stand-in KICKed from a channel is out of it for good: the store forgets that place, so a
/// restart does not bring it back in.
@Suite struct AlwaysOnKickTests {
    @Test func aKickedStandInIsNotBackInTheChannelAfterARestart() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        try await TestClient.register(server, "ann", "s3cret-pass")
        // bob makes #den (its operator); ann joins it and #tea, then her device leaves.
        let bob = try await TestClient.irc(
            server, nick: "bob", extra: ["CAP LS 302", "CAP REQ :away-notify", "CAP END"])
        try await bob.send("JOIN #den")
        try await bob.expectNumeric("366")
        let laptop = try await AlwaysOnTests.alwaysOnInDen(server, nick: "ann", login: "ann@laptop")
        try await laptop.send("JOIN #tea")
        try await laptop.expectNumeric("366")
        await laptop.close()
        try await bob.expect(":ann!") { $0.contains(" AWAY :") }
        try await bob.send("KICK #den ann :not now")
        try await bob.expect(" KICK #den ann :not now")
        try await bob.send("NAMES #den")
        #expect(!(try await bob.expectNumeric("353")).contains("ann"))
        await bob.close()
        await server.stop()

        try await withServer(dataDirectory: dir) { restarted in
            server = restarted
            let cat = try await TestClient.irc(server, nick: "cat")
            // Still present (in #tea), but not in #den.
            try await cat.send("WHOIS ann")
            let channels = try await cat.expectNumeric("319")
            #expect(channels.contains("#tea") && !channels.contains("#den"), "\(channels)")
            try await cat.send("JOIN #den")
            let names = try await cat.expectNumeric("353")
            #expect(!names.contains("ann"), "\(names)")
        }
    }
}
