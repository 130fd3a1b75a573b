import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// The example bots in bots/, run as real processes against a real server.
@Suite struct BotScriptTests {
    /// The repository: this file is Tests/HearthServerTests/Apps/BotScriptTests.swift.
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..")
        .standardized

    /// Runs a program from the repository's folder to its end; returns what it printed.
    static func output(_ arguments: [String]) async throws -> String {
        try await Programs.run(arguments, in: repo.path).output
    }

    /// Waits until `nick` is in `channel` (false if it never is).
    static func waitUntilIn(_ server: TestServer, _ channel: String, _ nick: String) async throws -> Bool {
        let core = server.server.core
        do {
            try await waitUntil("\(nick) in \(channel)") {
                core.chat.withLock { state in
                    state.channels[channel]?.order.contains { state[$0].nick == nick } ?? false
                }
            }
            return true
        } catch is TimeoutError {
            return false
        }
    }

    static func botArguments(_ script: String, _ server: TestServer, _ extra: [String]) -> [String] {
        [
            "python3", "bots/\(script)", "--port", String(server.ircPort), "--password", "bot-s3cret-pass",
            "--register",
        ] + extra
    }

    /// Runs a bot while `body` runs, then stops it.
    static func withBot<T: Sendable>(
        _ script: String, _ server: TestServer, _ extra: [String], _ body: (Programs.Running) async throws -> T
    ) async throws -> T {
        try await Programs.whileRunning(botArguments(script, server, extra), in: repo.path, body).0
    }

    @Test func everyBotExplainsItself() async throws {
        for script in ["greeter.py", "memerelay.py", "checkin.py"] {
            let text = try await Self.output(["python3", "bots/\(script)", "--help"])
            #expect(text.contains("usage:") && text.contains("--nick"), "\(script): \(text)")
        }
        let help = try await Self.output(["bash", "bots/oneliner.sh", "--help"])
        #expect(help.contains("smallest Hearth bot"))
    }

    @Test func greeterWelcomesNewcomersAndPostsTheDaysHotList() async throws {
        try await withServer { server in
            let chef = try await TestClient.user(server, "chef")
            try await chef.send("!set privacy public")  // !hot lists memes of public accounts to anyone
            try await chef.expect("privacy is now public")
            _ = try await RecipeTests.post(chef, title: "Sunday roast", ingredients: ["beef"], steps: ["Roast."])
            try await chef.send("!meme success first | try")
            try await chef.expect("meme #1 by chef")
            try await Self.withBot(
                "greeter.py", server, ["--nick", "greeter", "--channel", "#lobby", "--post-now", "--max-seconds", "6"]
            ) { bot in
                let visitor = try await TestClient.user(server, "visitor")
                // Wait until the greeter is in the channel (it posts first), then join.
                if !(try await Self.waitUntilIn(server, "#lobby", "greeter")) {
                    Issue.record("greeter never joined: \(bot.output)")
                }
                // Its daily post (made as it joins) is said before the visitor comes.
                try await waitUntil("the greeter's daily post") {
                    await server.server.core.flushHistory()
                    let said = try await server.sql.strings("SELECT text FROM history WHERE target LIKE '#lobby %'")
                    return said.contains { $0.hasPrefix("Top meme: #1 http") }
                }
                try await visitor.send("/join #lobby")
                try await visitor.expect("[#lobby] <greeter> Welcome to #lobby, visitor!")
            }
            // The day's list, posted at start, is in the history of this incarnation of #lobby
            // (written in batches: wait for it, bounded).
            var log: [String] = []
            for _ in 0..<100 {
                log = try await server.sql.strings("SELECT text FROM history WHERE target LIKE '#lobby %' ORDER BY id")
                if log.contains(where: { $0.hasPrefix("Top meme: #1 http") }) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(log.contains { $0.contains("Today's hot recipe: Sunday roast by chef — !recipe 1") }, "\(log)")
            #expect(log.contains { $0.hasPrefix("Top meme: #1 http") }, "\(log)")
        }
    }

    @Test func memeRelayTurnsChannelLinesIntoMemes() async throws {
        try await withServer { server in
            try await Self.withBot(
                "memerelay.py", server, ["--nick", "memebot", "--channel", "#memes", "--max-seconds", "8"]
            ) { bot in
                let fan = try await TestClient.plain(server)
                try await fan.send("/join #memes")
                try await fan.expect("You joined #memes.")
                if !(try await Self.waitUntilIn(server, "#memes", "memebot")) {
                    Issue.record("relay never joined: \(bot.output)")
                }
                try await fan.send("meme: shocked: the build | passed")
                let line = try await fan.expect("'s meme: http")
                #expect(line.contains("<memebot>"))
                let link = try Web.link(in: line)
                let (jpeg, response) = try await Web.fetch(link)
                #expect(response.statusCode == 200 && jpeg.starts(with: [0xFF, 0xD8]))
            }
        }
    }

    @Test func checkinSharesATrackWithTheFamily() async throws {
        try await withServer { server in
            let kid = try await TestClient.user(server, "kid")
            try await kid.send("!tree new Walkers")
            _ = try await kid.expect("Invite code for Walkers: ")
            try await kid.send("!tree invite as parent")
            let code = try FamilyTests.code(in: try await kid.expect("as your parent: "))
            let gpx = server.dataDirectory + "/walk.gpx"
            try """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <trk><trkseg>
                <trkpt lat="48.8566" lon="2.3522"><name>Paris start</name></trkpt>
                <trkpt lat="48.8606" lon="2.3376"><name>the Louvre</name></trkpt>
              </trkseg></trk>
            </gpx>
            """.write(toFile: gpx, atomically: true, encoding: .utf8)
            let text = try await Self.output(
                Self.botArguments(
                    "checkin.py", server, ["--nick", "grandpa", "--gpx", gpx, "--interval", "0.2", "--join", code]))
            #expect(text.contains("Welcome to Walkers") && text.contains("Shared: the Louvre."), "\(text)")
            try await kid.send("!where")
            try await kid.expect("grandpa — the Louvre · just now")
        }
    }

    @Test func shellOneLinerGetsAFortune() async throws {
        try await withServer { server in
            try await TestClient.register(server, "shelly", "s3cret-pass")
            let text = try await Self.output([
                "bash", "bots/oneliner.sh", "shelly", "s3cret-pass", "127.0.0.1", String(server.ircPort),
            ])
            #expect(text.contains("Your fortune for") && text.contains("Lucky numbers"), "\(text)")
        }
    }
}
