import Foundation
import HearthServer
import HearthTesting
import Testing

/// What the docs show is what the program does (issue 33, item 10): README's `!help` transcript
/// is the bot's own answer, and the docs name the version the server reports.
@Suite struct DocsMatchTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func readmesHelpTranscriptIsTheBotsAnswer() async throws {
        let readme = try Self.read("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(readme.firstIndex { $0.hasPrefix("Hearth commands — ") })
        let last = try #require(readme[first...].firstIndex { $0.hasPrefix("  chat: ") })
        let documented = readme[first...last].map(String.init)
        try await withServer { server in
            let guest = try await TestClient.plain(server)
            try await guest.send("!help")
            var answer = [try await guest.expect("Hearth commands — ")]
            while !answer.last!.hasPrefix("  chat: "), answer.count < documented.count + 5 {
                answer.append(try #require(await guest.next { _ in true }))
            }
            #expect(answer == documented)
        }
    }

    @Test func theDocsNameTheVersionTheServerReports() async throws {
        try await withServer { server in
            let irc = try await TestClient.irc(server, nick: "ver")
            try await irc.send("VERSION")
            let reply = try await irc.expectNumeric("351")
            #expect(reply.contains(" \(HearthVersion.ircName) "))
        }
        let commands = try Self.read("docs/COMMANDS.md")
        #expect(commands.contains("| `VERSION` | 351 `\(HearthVersion.ircName)` |"))
        for path in ["README.md", "docs/COMMANDS.md", "docs/PROTOCOL.md"] {
            let text = try Self.read(path)
            let named = text.components(separatedBy: "hearth-0.").dropFirst().map { "hearth-0." + $0.prefix(8) }
            #expect(named.allSatisfy { $0.hasPrefix(HearthVersion.ircName) }, "\(path): \(named)")
        }
    }
}
