import Foundation
import HearthTesting
import Testing

/// Both ways in, in one channel: a netcat user and an IRC client talk, and the bot answers.
@Suite struct PlainAndIRCTests {
    @Test func plainAndIRCUsersChatInOneChannel() async throws {
        try await withServer { server in

            let nc = try await TestClient.plain(server)
            try await nc.send("!register alice s3cret-pass")
            try await nc.expect("You are now known as alice.")
            try await nc.expect("Welcome to Hearth, alice!")
            try await nc.expect("Recovery codes")
            try await nc.expect("Your resume token (keep it secret): hrt_")
            try await nc.send("/join #lobby")
            try await nc.expect("You joined #lobby.")

            let irc = try await TestClient.irc(server, nick: "bob")
            try await irc.send("JOIN #lobby")
            try await irc.expect(":bob!~bob@\(server.localHost) JOIN #lobby")
            let names = try await irc.expectNumeric("353")
            #expect(names.contains("@alice"))
            #expect(names.contains("bob"))
            try await irc.expectNumeric("366")
            try await nc.expect("[#lobby] * bob joined")

            try await nc.send("hello from nc")
            try await irc.expect(":alice!plain@\(server.localHost) PRIVMSG #lobby :hello from nc")
            try await irc.send("PRIVMSG #lobby :hi alice, from irssi")
            try await nc.expect("[#lobby] <bob> hi alice, from irssi")

            // Private messages both ways.
            try await nc.send("/msg bob psst")
            try await nc.expect("[to bob] psst")
            try await irc.expect(":alice!plain@\(server.localHost) PRIVMSG bob :psst")
            try await irc.send("PRIVMSG alice :back at you")
            try await nc.expect("[pm] <bob> back at you")

            // The bot answers in the channel, as hearth, for everyone to see; a listing (!help)
            // goes to the caller alone.
            try await irc.send("PRIVMSG #lobby :!whoami")
            try await irc.expect(":hearth!hearth@test.hearth PRIVMSG #lobby :You are bob")
            try await nc.expect("[#lobby] <bob> !whoami")
            try await nc.expect("[#lobby] <hearth> You are bob")
            try await irc.send("PRIVMSG #lobby :!help")
            try await irc.expect(":hearth!hearth@test.hearth PRIVMSG bob :Hearth commands")
            try await nc.expectNoLine(containing: "Hearth commands", before: "[#lobby] <bob> !help")

            // In private the ! is optional.
            try await irc.send("PRIVMSG hearth :whoami")
            try await irc.expect("PRIVMSG bob :You are bob, not logged in (IRC mode, from 127.0.0.1)")

            // Unknown commands get a suggestion; wrong arguments the usage and an example.
            try await irc.send("PRIVMSG hearth :!halp")
            try await irc.expect("unknown command !halp — did you mean !help")
            try await irc.send("PRIVMSG hearth :rename")
            try await irc.expect("usage: !rename NEWNAME — e.g. !rename alice2")

            // /me, /topic and /who from plain mode.
            try await nc.send("/me waves")
            try await irc.expect("PRIVMSG #lobby :\u{1}ACTION waves\u{1}")
            try await nc.send("/topic Friendly chat")
            try await irc.expect("TOPIC #lobby :Friendly chat")
            try await nc.send("/who")
            try await nc.expect("bob (~bob@\(server.localHost)) in #lobby")

            // /quit reads naturally and the IRC side sees the QUIT.
            try await nc.send("/quit see you")
            try await nc.expect("Bye!")
            try await irc.expect(":alice!plain@\(server.localHost) QUIT :Quit: see you")
        }
    }

    @Test func plainUserWithoutChannelIsToldHowToJoin() async throws {
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            try await nc.send("hello?")
            try await nc.expect("You're not in a channel yet: /join #lobby")
            try await nc.send("/jion #x")
            try await nc.expect("unknown command /jion — did you mean /join?")
            try await nc.send("/nick bob")
            try await nc.expect("your nick is your account name")
        }
    }

    @Test func silentConnectionIsGreetedInPlainText() async throws {
        try await withServer {
            $0.plainGreetingDelay = 0.2
        } run: { server in
            let nc = try await server.connect()
            try await nc.expect("Welcome to Hearth! You are guest")
            // A slow IRC client still registers after the greeting.
            try await nc.send("NICK slowpoke")
            try await nc.send("USER slow 0 * :Slow")
            try await nc.expectNumeric("001")
        }
    }

    @Test func secretCommandsNeverReachTheChannel() async throws {
        try await withServer { server in
            let irc = try await TestClient.irc(server, nick: "carol")
            let watcher = try await TestClient.irc(server, nick: "dave")
            try await irc.send("JOIN #lobby")
            try await watcher.send("JOIN #lobby")
            try await watcher.expect("JOIN #lobby")
            try await irc.send("PRIVMSG #lobby :!register carol s3cret-pass")
            try await irc.expect("only ever goes to me privately")
            try await irc.expect("PRIVMSG carol :Welcome to Hearth, carol!")
            try await irc.send("PRIVMSG #lobby :ordinary line")
            try await watcher.expectNoLine(containing: "s3cret", before: "ordinary line")
        }
    }
}
