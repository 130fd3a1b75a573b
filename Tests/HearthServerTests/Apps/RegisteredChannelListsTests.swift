import Foundation
import HearthTesting
import Testing

/// A registered channel keeps its ban, exception and invite-exception lists, and gives the
/// accounts on its access list op or voice, across restarts.
@Suite struct RegisteredChannelListsTests {
    @Test func listsAndAccessSurviveARestart() async throws {
        let dir = TestServer.tempDirectory()
        var server = try await TestServer.start(dataDirectory: dir)
        for name in ["uma", "vic", "wes"] { try await TestClient.register(server, name, "s3cret-pass") }
        let uma = try await TestClient.irc(server, nick: "uma", extra: ["PASS uma:s3cret-pass"])
        try await uma.send("JOIN #bakers")
        try await uma.expectNumeric("366")
        try await uma.send("PRIVMSG hearth :channel register #bakers")
        try await uma.expect("#bakers is yours now")
        try await uma.send("MODE #bakers +beI eve!*@* a:vic a:wes")
        try await uma.expect("MODE #bakers +beI eve!*@* a:vic :a:wes")
        try await uma.send("MODE #bakers +b-b mal!*@* mal!*@*")
        try await uma.expect("MODE #bakers +b-b mal!*@* :mal!*@*")
        try await uma.send("PRIVMSG hearth :channel access #bakers voice vic")
        try await uma.expect("vic gets voice on joining #bakers.")
        try await uma.send("PRIVMSG hearth :channel access #bakers op wes")
        try await uma.expect("wes gets op on joining #bakers.")
        try await uma.send("PRIVMSG hearth :channel access #bakers")
        try await uma.expect("vic: voice")
        try await uma.expect("wes: op")
        let vic = try await TestClient.irc(server, nick: "vic", extra: ["PASS vic:s3cret-pass"])
        try await vic.send("PRIVMSG hearth :channel access #bakers op vic")
        try await vic.expect("only the owner of #bakers can do that")
        try await uma.send("PRIVMSG hearth :channel access #bakers admin vic")
        try await uma.expect("say op, voice or none, not admin")
        await vic.close()
        await uma.close()
        await server.stop()

        server = try await TestServer.start(dataDirectory: dir)
        let vic2 = try await TestClient.irc(server, nick: "vic", extra: ["PASS vic:s3cret-pass"])
        try await vic2.send("JOIN #bakers")
        try await vic2.expect(" 353 vic = #bakers :+vic")
        try await vic2.send("MODE #bakers b")
        try await vic2.expect(" 367 vic #bakers eve!*@* uma!")
        try await vic2.expectNoLine(containing: "mal!", before: " 368 vic #bakers")
        try await vic2.send("MODE #bakers e")
        try await vic2.expect(" 348 vic #bakers a:vic uma!")
        try await vic2.send("MODE #bakers I")
        try await vic2.expect(" 346 vic #bakers a:wes uma!")
        let wes = try await TestClient.irc(server, nick: "wes", extra: ["PASS wes:s3cret-pass"])
        try await wes.send("JOIN #bakers")
        try await wes.expect(" 353 wes = #bakers :+vic @wes")
        // The ban still keeps eve out.
        let eve = try await TestClient.irc(server, nick: "eve")
        try await eve.send("JOIN #bakers")
        try await eve.expect(" 474 eve #bakers")
        await server.stop()
    }

    /// An owner who deletes their account takes the channel's grants with it: whoever registers the
    /// name next starts with no access list.
    @Test func aDeletedOwnersGrantsDoNotPassToTheNextOwner() async throws {
        try await withServer { server in
            for name in ["uma", "vic", "xan"] { try await TestClient.register(server, name, "s3cret-pass") }
            let uma = try await TestClient.irc(server, nick: "uma", extra: ["PASS uma:s3cret-pass"])
            try await uma.send("JOIN #bakers")
            try await uma.expectNumeric("366")
            try await uma.send("PRIVMSG hearth :channel register #bakers")
            try await uma.expect("#bakers is yours now")
            try await uma.send("PRIVMSG hearth :channel access #bakers op vic")
            try await uma.expect("vic gets op on joining #bakers.")
            try await uma.send("PART #bakers")
            try await uma.expect("PART")
            try await uma.send("PRIVMSG hearth :!account delete s3cret-pass")
            try await uma.expect("are deleted. Goodbye!")

            let xan = try await TestClient.irc(server, nick: "xan", extra: ["PASS xan:s3cret-pass"])
            try await xan.send("JOIN #bakers")
            try await xan.expectNumeric("366")
            try await xan.send("PRIVMSG hearth :channel register #bakers")
            try await xan.expect("#bakers is yours now")
            let vic = try await TestClient.irc(server, nick: "vic", extra: ["PASS vic:s3cret-pass"])
            try await vic.send("JOIN #bakers")
            try await vic.expect(" 353 vic = #bakers :@xan vic")
        }
    }
}
