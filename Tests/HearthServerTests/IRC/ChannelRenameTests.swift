import Foundation
import HearthTesting
import Testing

/// RENAME (draft/channel-rename): an operator renames a channel; clients with the cap see
/// RENAME, the others PART and JOIN; a registered channel's record, topic, modes and history
/// follow the new name.
@Suite struct ChannelRenameTests {
    @Test func membersWithTheCapSeeRenameAndOthersPartAndJoin() async throws {
        try await withServer { server in
            let bar = try await TestClient.irc(
                server, nick: "bar", extra: ["CAP LS 302", "CAP REQ :draft/channel-rename", "CAP END"])
            let baz = try await TestClient.irc(server, nick: "baz")
            for client in [bar, baz] {
                try await client.send("JOIN #bar")
                try await client.expectNumeric("366")
            }
            try await baz.send("TOPIC #bar :hello")  // +t: only the operator may
            try await baz.expectNumeric("482")
            try await bar.send("TOPIC #bar :hello")
            try await baz.expect("TOPIC #bar :hello")

            try await baz.send("RENAME #bar #qux :not yours")
            try await baz.expect(" 482 baz #bar ")
            try await bar.send("RENAME #bar #qux :no reason")
            try await bar.expect(":bar!~bar@\(server.localHost) RENAME #bar #qux :no reason")
            try await baz.expect(":baz!~baz@\(server.localHost) PART #bar :no reason")
            try await baz.expect(":baz!~baz@\(server.localHost) JOIN #qux")
            try await baz.expect(" 332 baz #qux :hello")
            try await baz.expect(" 353 baz = #qux :@bar baz")
            try await baz.expectNumeric("366")

            // The channel lives on under its new name; the old one is free.
            try await baz.send("PRIVMSG #qux :still here")
            try await bar.expect("PRIVMSG #qux :still here")
            try await baz.send("JOIN #bar")
            try await baz.expect(" 353 baz = #bar :@baz")
            try await bar.send("RENAME #qux #bar")
            try await bar.expect("FAIL RENAME CHANNEL_NAME_IN_USE #qux #bar ")
            try await bar.send("RENAME #qux bad,name")
            try await bar.expect("FAIL RENAME CANNOT_RENAME #qux bad,name ")
            try await bar.send("RENAME #nowhere #else")
            try await bar.expectNumeric("403")
            // A change of case only: the RENAME to those with the cap, no PART/JOIN for the others.
            try await bar.send("RENAME #qux #QUX")
            try await bar.expect("RENAME #qux #QUX :")
            try await baz.send("NAMES #qux")
            try await baz.expect(" 353 baz = #QUX ")
        }
    }

    @Test func aRegisteredChannelsRecordTopicModesAndHistoryFollowTheName() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        try await TestClient.register(server, "uma", "s3cret-pass")
        let uma = try await TestClient.irc(
            server, nick: "uma",
            extra: [
                "CAP LS 302", "CAP REQ :draft/channel-rename draft/chathistory batch server-time message-tags",
                "PASS uma:s3cret-pass", "CAP END",
            ])
        try await uma.send("JOIN #bakers")
        try await uma.expectNumeric("366")
        try await uma.send("PRIVMSG hearth :channel register #bakers")
        try await uma.expect("#bakers is yours now")
        try await uma.send("TOPIC #bakers :Rye on Mondays")
        try await uma.expect("TOPIC #bakers :Rye on Mondays")
        try await uma.send("MODE #bakers +m")
        try await uma.expect("MODE #bakers :+m")
        try await uma.send("PRIVMSG #bakers :said before the rename")
        // An operator who is not the owner cannot move a registered channel's name.
        try await TestClient.register(server, "vic", "s3cret-pass")
        let vic = try await TestClient.irc(
            server, nick: "vic",
            extra: ["CAP LS 302", "CAP REQ :draft/channel-rename", "PASS vic:s3cret-pass", "CAP END"])
        try await vic.send("JOIN #bakers")
        try await vic.expectNumeric("366")
        try await uma.send("MODE #bakers +o vic")
        try await vic.expect("MODE #bakers +o :vic")
        try await vic.send("RENAME #bakers #mine :taking it")
        try await vic.expect("FAIL RENAME CANNOT_RENAME ")
        await vic.close()
        try await uma.send("RENAME #bakers #bread :a better name")
        // A topic set at once is saved under the new name, after the move.
        try await uma.send("TOPIC #bread :Rye on Tuesdays")
        try await uma.expect("RENAME #bakers #bread :a better name")
        try await uma.expect("TOPIC #bread :Rye on Tuesdays")
        try await uma.send("CHATHISTORY LATEST #bread * 10")
        try await uma.expect("PRIVMSG #bread :said before the rename")
        try await uma.send("PRIVMSG hearth :channel info #bread")
        try await uma.expect("#bread — owner uma, registered ")

        // After a restart the registration, topic, modes and history are the new name's.
        await uma.close()
        await server.stop()
        server = try await TestServer.start(dataDirectory: dir)
        let uma2 = try await TestClient.irc(
            server, nick: "uma",
            extra: [
                "CAP LS 302", "CAP REQ :draft/chathistory batch server-time message-tags", "PASS uma:s3cret-pass",
                "CAP END",
            ])
        try await uma2.send("JOIN #bread")
        try await uma2.expect(" 332 uma #bread :Rye on Tuesdays")
        try await uma2.expect(" 353 uma = #bread :@uma")
        try await uma2.send("MODE #bread")
        try await uma2.expect(" 324 uma #bread :+mnt")
        try await uma2.send("CHATHISTORY LATEST #bread * 10")
        try await uma2.expect("PRIVMSG #bread :said before the rename")
        try await uma2.send("PRIVMSG hearth :channel info #bakers")
        try await uma2.expect("#bakers")
        #expect(try await server.server.store.registeredChannel(nameKey: "#bakers") == nil)
        await uma2.close()
        await server.stop()
    }
}
