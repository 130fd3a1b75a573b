import Foundation
import HearthTesting
import Testing

/// A family's tree, feed and places are its members' (docs/SECURITY.md): a family command said
/// in a public channel is answered to the caller privately, and nobody else there reads it;
/// in the family's own channel the family reads the answer.
@Suite struct FamilyPrivacyTests {
    @Test func familyCommandsInAPublicChannelAreAnsweredPrivately() async throws {
        try await withServer { server in
            let ann = try await TestClient.irc(server, nick: "ann", extra: [])
            try await ann.send("PRIVMSG hearth :!register ann s3cret-pass")
            try await ann.expect("Your account is ready")
            try await ann.send("PRIVMSG hearth :!tree new Rivers")
            try await ann.expect("JOIN #family-1")
            try await ann.send("PRIVMSG hearth :!post our secret picnic")
            try await ann.expect("Posted #1")
            try await ann.send("PRIVMSG hearth :!comment post 1 bring the blue blanket")
            try await ann.expect("Comment #")
            try await ann.send("PRIVMSG hearth :!loc on")
            try await ann.expect("PRIVMSG ann :")
            try await ann.send("PRIVMSG hearth :!loc 48.85,2.35 gran's flat")
            try await ann.expect("PRIVMSG ann :")
            let cal = try await TestClient.irc(server, nick: "cal")
            for client in [ann, cal] {
                try await client.send("JOIN #lobby")
                try await client.expect(" 366 ")
            }
            try await ann.expect(":cal!")

            let asked: [(command: String, answer: String)] = [
                ("!famfeed", "PRIVMSG ann :Rivers' feed: http"),
                ("!tree", "PRIVMSG ann :Rivers · page: http"),
                ("!tree members", "PRIVMSG ann :Rivers (1): ann"),
                ("!where", "PRIVMSG ann :ann — gran's flat"),
                ("!famfeed #family-1", "PRIVMSG ann :#1 ann: our secret picnic"),
                ("!comments post 1", "PRIVMSG ann :#1 ann: bring the blue blanket"),
            ]
            for (command, answer) in asked {
                try await ann.send("PRIVMSG #lobby :\(command)")
                try await ann.expect(answer)
            }
            // cal, in #lobby, saw ann's commands and nothing of the family: any answer there
            // would have reached cal before this PONG.
            try await cal.send("PING end")
            let secrets = ["picnic", "blanket", "gran's flat", "Rivers"]
            let first = try await cal.expect("the PONG") { line in
                line.contains("PONG") || line.hasPrefix(":hearth!") || secrets.contains { line.contains($0) }
            }
            #expect(first.contains("PONG"), "cal read \(first)")

            // In the family's own channel the family reads the answer there.
            try await ann.send("PRIVMSG #family-1 :!famfeed")
            try await ann.expect("PRIVMSG #family-1 :Rivers' feed: http")
            // ... unless it names another family or lists the caller's others.
            try await ann.send("PRIVMSG #family-1 :!tree families")
            try await ann.expect("PRIVMSG ann :→ Rivers #family-1")
        }
    }
}
