import Foundation
import HearthTesting
import Testing

/// Registered channels keep their topic, modes and owner across restarts.
@Suite struct RegisteredChannelTests {
    @Test func ownerTopicAndModesSurviveARestart() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        try await TestClient.register(server, "uma", "s3cret-pass")
        try await TestClient.register(server, "vic", "s3cret-pass")
        let uma = try await TestClient.irc(server, nick: "uma", extra: ["PASS uma:s3cret-pass"])
        try await uma.send("JOIN #bakers")
        try await uma.expectNumeric("366")
        try await uma.send("TOPIC #bakers :Sourdough every Sunday")
        try await uma.expect("TOPIC #bakers :Sourdough every Sunday")

        // Only an operator of a live channel may register it.
        let vic = try await TestClient.irc(server, nick: "vic", extra: ["PASS vic:s3cret-pass"])
        try await vic.send("JOIN #bakers")
        try await vic.expectNumeric("366")
        try await vic.send("PRIVMSG hearth :channel register #bakers")
        try await vic.expect("only a channel operator of #bakers can register it")
        try await vic.send("PRIVMSG hearth :channel register #nowhere")
        try await vic.expect("#nowhere doesn't exist right now")

        try await uma.send("PRIVMSG hearth :channel register #bakers")
        try await uma.expect("#bakers is yours now")
        try await vic.send("PRIVMSG hearth :channel register #bakers")
        try await vic.expect("#bakers is registered already")
        try await uma.send("MODE #bakers +mk flour")
        try await uma.expect("MODE #bakers +mk :flour")
        try await uma.send("TOPIC #bakers :Rye on Mondays")
        try await uma.expect("TOPIC #bakers :Rye on Mondays")
        try await vic.send("PRIVMSG hearth :channel drop #bakers")
        try await vic.expect("only the owner of #bakers can do that")

        // Restart: the channel comes back with its topic and modes; the owner gets ops, others don't.
        await uma.close()
        await vic.close()
        await server.stop()
        server = try await TestServer.start(dataDirectory: dir)
        let vic2 = try await TestClient.irc(server, nick: "vic", extra: ["PASS vic:s3cret-pass"])
        try await vic2.send("JOIN #bakers")
        try await vic2.expect(" 475 vic #bakers")
        try await vic2.send("JOIN #bakers flour")
        try await vic2.expect(" 332 vic #bakers :Rye on Mondays")
        try await vic2.expect(" 353 vic = #bakers :vic")
        let uma2 = try await TestClient.irc(server, nick: "uma", extra: ["PASS uma:s3cret-pass"])
        try await uma2.send("JOIN #bakers flour")
        try await uma2.expect(" 353 uma = #bakers :vic @uma")
        try await uma2.send("MODE #bakers")
        try await uma2.expect(" 324 uma #bakers +mntk :flour")
        try await uma2.send("PRIVMSG hearth :channel info #bakers")
        try await uma2.expect("#bakers — owner uma, registered ")
        try await uma2.expect("topic: Rye on Mondays")
        try await uma2.expect("2 here now")

        // Hand it over, then the new owner drops it.
        try await uma2.send("PRIVMSG hearth :channel transfer #bakers vic")
        try await uma2.expect("#bakers now belongs to vic.")
        try await vic2.send("PRIVMSG hearth :channel drop #bakers")
        try await vic2.expect("#bakers is no longer registered.")
        try await vic2.send("PRIVMSG hearth :channel info #bakers")
        try await vic2.expect("#bakers is not registered")
        await server.stop()
    }
}
