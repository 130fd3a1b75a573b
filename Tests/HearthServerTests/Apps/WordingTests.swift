import Foundation
import HearthKit
import HearthMedia
import HearthTesting
import Testing

/// The words the program says (issue 33, item 10): counts agree with their number, names take
/// the right possessive, the bot speaks to whoever reads it, and notices follow the answer.
@Suite struct WordingTests {
    @Test func countsAndOwners() {
        #expect(Words.counted(1, "place") == "1 place" && Words.counted(0, "place") == "0 places")
        #expect(Words.counted(2, "family", plural: "families") == "2 families")
        #expect(Words.possessive("dan") == "dan's" && Words.possessive("The Rivers") == "The Rivers'")
    }

    @Test func whatPeopleReadSaysWhatTheyMean() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await TestServer.start { $0.clock = clock.hearth }) { server in
            // The points notice comes after "your account is ready", not before it.
            let dan = try await TestClient.plain(server)
            try await dan.send("!register dan s3cret-pass")
            try await dan.expectNoLine(containing: "+2 points", before: "Your account is ready")
            try await dan.expect("+2 points for your first visit today")
            let cat = try await TestClient.user(server, "cat")
            for who in [dan, cat] {
                try await who.send("/join #porch")
                try await who.expect("You joined #porch.")
            }
            // Said in a channel, a fortune is dan's, not "Your". (The process's first read of the towns
            // is awaited first: it is not what this test is about, and under CI's load it once took past
            // the 20 s an answer is waited for.)
            await Gazetteer.loaded()
            try await dan.send("!fortune @Paris")
            // (A channel's first fortune in this process: past the 20 s an answer is waited for once in CI.)
            try await cat.expect("[#porch] <hearth> 🥠 dan's fortune for Wednesday 1 July", timeout: 60)
            try await dan.send("/part")
            try await dan.send("!fortune map")
            try await dan.expect("dan's fortune map (1 place): http")
            // Sharing one's own cookie: "their fortune".
            try await dan.send("!share fortune 1 cat")
            try await cat.expect("dan shares their fortune #1 of 2026-07-01")
            // cat's feed says "followed you" to the one followed.
            try await cat.send("!follow dan")
            try await cat.expect("You now follow dan")
            try await dan.send("!follow cat")
            try await dan.expect("You now follow cat")
            try await dan.send("!feed")
            try await dan.expect("cat followed you ·")
            // A family called The Rivers has The Rivers' feed.
            try await dan.send("!tree new The Rivers")
            try await dan.expect("The Rivers")
            try await dan.send("!famfeed")
            try await dan.expect("The Rivers' feed is empty")
            // Pages: one cookie, one meme count, one recipe count, in the singular.
            let browser = WebBrowser(server)
            try await browser.signIn("dan")
            let map = try await browser.get("/fortunes")
            #expect(map.body.contains("1 cookie opened") && map.body.contains("dan&#39;s fortune map"), "\(map.body)")
            try await dan.send("!recipe new")
            for line in ["Toast", "bread", ".", "Toast it.", ".", "-", "-"] { try await dan.send(line) }
            try await dan.expect("is ready")
            try await dan.send("!recipe post")
            try await dan.expect("is posted")
            let profile = try await browser.get("/u/dan")
            #expect(profile.body.contains("1 follower") && profile.body.contains("0 memes"), "\(profile.body)")
            #expect(profile.body.contains("1 recipe ·") && !profile.body.contains("1 recipes"), "\(profile.body)")
        }
    }
}
