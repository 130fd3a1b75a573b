import Foundation
import HearthTesting
import Testing

/// A fortune's page is linked only where everyone who reads the line may open it
/// (docs/SECURITY.md): privately to someone allowed to see it, in a channel only when the
/// owner's fortunes are public; `!share` links it to a friend and not to a stranger, and the
/// page still refuses the stranger.
@Suite struct FortuneLinkTests {
    @Test func aFortunePageIsLinkedOnlyToThoseWhoMayOpenIt() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await FortuneTests.start(clock)) { server in
            let page = "http://127.0.0.1:\(server.httpPort)/fortunes/ava"
            let ava = try await TestClient.irc(server, nick: "ava", extra: [])
            try await ava.send("PRIVMSG hearth :!register ava s3cret-pass")
            try await ava.expect("Your account is ready")
            try await ava.send("JOIN #lobby")
            try await ava.expect(" 366 ")
            // Friends-only (the default): a cookie opened in a channel is said without its link.
            try await ava.send("PRIVMSG #lobby :!fortune @48.85,2.35 Paris")
            let opened = try await ava.expect("!fortune map for the map")
            #expect(!opened.contains("/fortunes/"), "\(opened)")
            try await ava.send("PRIVMSG #lobby :!fortune show 1")
            // A long saying's answer goes privately, a short one to the channel: either way without the link.
            let shown = try await ava.expect("· ava · +")
            #expect(shown.contains("+") && !shown.contains("/fortunes/"), "\(shown)")
            try await ava.send("PRIVMSG #lobby :!fortunes")
            let listed = try await ava.expect("cookies")
            #expect(!listed.contains("/fortunes/"), "\(listed)")
            try await ava.send("PRIVMSG #lobby :!fortune map")
            let map = try await ava.expect("fortune map (1 place): http")
            #expect(!map.contains("· page:"), "\(map)")
            // Privately the owner gets it.
            try await ava.send("PRIVMSG hearth :!fortune show 1")
            try await ava.expect("· page: \(page)")
            // The friends' leaderboard is each reader's own page (401 signed out): linked only privately.
            try await ava.send("PRIVMSG #lobby :!top points friends")
            let top = try await ava.expect("PRIVMSG #lobby :Top points among your friends:")
            #expect(!top.contains("/leaderboard"), "\(top)")
            try await ava.send("PRIVMSG hearth :!top points friends")
            try await ava.expect(
                "PRIVMSG ava :Top points among your friends: http://127.0.0.1:\(server.httpPort)/leaderboard?friends=1")

            // Shared with a stranger: the cookie, no link (the page refuses them).
            let cal = try await TestClient.user(server, "cal")
            try await ava.send("PRIVMSG hearth :!share fortune 1 cal")
            let toCal = try await cal.expect("ava shares their fortune #1")
            #expect(!toCal.contains("/fortunes/"), "\(toCal)")
            let cals = WebBrowser(server)
            #expect(try await cals.signIn("cal").status == 303)
            #expect(try await cals.get("/fortunes/ava").status == 403)

            // Shared with a friend: the link, and it opens.
            let ben = try await TestClient.user(server, "ben")
            try await ava.send("PRIVMSG hearth :!follow ben")
            try await ava.expect("You now follow ben")
            try await ben.send("!follow ava")
            try await ben.expect("You now follow ava")
            try await ava.send("PRIVMSG hearth :!share fortune 1 ben")
            let toBen = try await ben.expect("ava shares their fortune #1 of 2026-07-01")
            #expect(toBen.contains("· page: \(page)"), "\(toBen)")
            let bens = WebBrowser(server)
            #expect(try await bens.signIn("ben").status == 303)
            #expect(try await bens.get("/fortunes/ava").status == 200)

            // Shared in a channel: no link while friends-only.
            try await ava.send("PRIVMSG hearth :!share fortune 1 #lobby")
            let inLobby = try await ava.expect("PRIVMSG #lobby :ava shares their fortune #1")
            #expect(!inLobby.contains("/fortunes/"))

            // Public: linked in the channel too, and anyone opens it.
            try await ava.send("PRIVMSG hearth :!set privacy public")
            try await ava.expect("privacy is now public")
            try await ava.send("PRIVMSG #lobby :!fortune show 1")
            let shownPublic = try await ava.expect("PRIVMSG #lobby :")
            #expect(shownPublic.contains("· page: \(page)"), "\(shownPublic)")
            #expect(try await WebBrowser(server).get("/fortunes/ava").status == 200)
        }
    }
}
