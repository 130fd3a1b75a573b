import Foundation
import HearthTesting
import Testing

/// Channels and nicks that read like someone else's are refused over IRC and plain mode,
/// and nothing is created (security round two: "channel names that look like other channels").
extension AuthorizationTests {
    @Test func lookalikeChannelsAndNicksAreRefused() async throws {
        try await withServer { server in
            let ivy = try await TestClient.irc(server, nick: "ivy")
            for name in NameSafetyProbes.channels {
                try await ivy.send("JOIN \(name)")
                let reply = try await ivy.expectNumeric("479")
                #expect(reply.contains("Illegal channel name"), "\(reply)")
            }
            try await ivy.send("LIST")
            let list = try await LimitCrossingTests.ircReplies(ivy, "LIST")
            #expect(!list.contains { $0.contains(" 322 ") }, "a lookalike channel exists: \(list)")
            for nick in ["ivy\u{200B}", "\u{202E}ivy", "iv\u{0443}"] {
                try await ivy.send("NICK \(nick)")
                try await ivy.expectNumeric("432")
            }
            let plain = try await TestClient.plain(server)
            try await plain.send("/join #lobby\u{200B}")
            try await plain.expect("Illegal channel name")
            try await plain.send("/join #lobby")
            try await plain.expect("You joined #lobby.")
        }
    }
}

/// The names the security review tried (kept beside the protocol unit tests' own list).
enum NameSafetyProbes {
    static let channels = [
        "#lobby\u{200B}", "#lobby\u{00A0}", "#lobby\u{2028}", "#lobby\u{0085}", "#\u{FEFF}lobby", "#\u{202E}lobby",
        "#lobby\u{07}", "#l\u{03BF}bby",
    ]
}
