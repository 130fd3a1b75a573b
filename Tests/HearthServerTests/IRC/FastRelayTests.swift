import Foundation
import HearthTesting
import Testing

/// PRIVMSG and NOTICE to one user are relayed from the bytes (`Core.relayFast`); the same line
/// in lower case goes through the full parser. Both must give every recipient the same bytes.
@Suite struct FastRelayTests {
    static let capSets = [
        "", "server-time", "message-tags", "account-tag", "server-time message-tags account-tag",
        "echo-message", "echo-message server-time message-tags account-tag",
    ]

    static func client(_ server: TestServer, _ nick: String, caps: String, account: String? = nil) async throws
        -> TestClient
    {
        var extra = caps.isEmpty ? [] : ["CAP LS 302", "CAP REQ :\(caps)"]
        if let account { extra.append("PASS \(account):s3cret-pass") }
        if !caps.isEmpty { extra.append("CAP END") }
        return try await TestClient.irc(server, nick: nick, extra: extra)
    }

    /// `time` and `msgid` values differ from message to message; everything else must not.
    static func normalized(_ line: String) -> String {
        line.replacing(/time=[^; ]+/, with: "time=T").replacing(/msgid=[^; ]+/, with: "msgid=M")
    }

    @Test func fastAndFullPathsWriteTheSameBytes() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            try await TestClient.register(server, "bea", "s3cret-pass")
            for (index, senderCaps) in Self.capSets.enumerated() {
                for (other, recipientCaps) in Self.capSets.enumerated() {
                    // Logged in on both sides (tags carry the account, history keeps it) or guests.
                    let accounts = (index + other) % 2 == 0
                    let ann = try await Self.client(
                        server, "ann\(index)x\(other)", caps: senderCaps, account: accounts ? "ann" : nil)
                    let to = "bea\(index)x\(other)"
                    let bea = try await Self.client(server, to, caps: recipientCaps, account: accounts ? "bea" : nil)
                    var received: [String] = []
                    var echoed: [String] = []
                    for command in ["PRIVMSG", "privmsg", "NOTICE", "notice"] {
                        try await ann.send("\(command) \(to.uppercased()) :hello there: \(command)")
                        received.append(try await bea.expect("hello there: \(command)"))
                        if senderCaps.contains("echo-message") {
                            echoed.append(try await ann.expect("hello there: \(command)"))
                        }
                    }
                    let what = "sender [\(senderCaps)] recipient [\(recipientCaps)] accounts \(accounts)"
                    for lines in [received, echoed] where !lines.isEmpty {
                        let plain = lines.map {
                            Self.normalized($0).replacing(/: (PRIVMSG|privmsg|NOTICE|notice)$/, with: "")
                        }
                        #expect(plain[0] == plain[1], "\(what): \(lines)")
                        #expect(plain[2] == plain[3], "\(what): \(lines)")
                        #expect(lines[0].contains(" PRIVMSG \(to) :hello there: "), "\(what): \(lines)")
                    }
                    #expect(received[0].contains("time=") == recipientCaps.contains("server-time"), "\(what)")
                    #expect(received[0].contains("msgid=") == recipientCaps.contains("message-tags"), "\(what)")
                    #expect(received[0].contains("account=ann") == (accounts && recipientCaps.contains("account")))
                    await ann.close()
                    await bea.close()
                }
            }
        }
    }

    /// A text that fits the client's line but not the relayed one (the sender's prefix is
    /// longer than nothing) is shortened at a character boundary, on both paths alike.
    @Test func aTextPastTheRelayedLimitIsShortenedAlike() async throws {
        try await withServer { server in
            let ann = try await Self.client(server, "a-rather-long-nickname", caps: "")
            let bea = try await Self.client(server, "bea", caps: "")
            // The relayed line has 57 bytes and the host before the text; the x fill the line
            // but for 6½ é.
            let before = 57 + server.localHost.utf8.count
            let text = String(repeating: "x", count: 510 - before - 13) + String(repeating: "é", count: 30)
            var lines: [String] = []
            for command in ["PRIVMSG", "privmsg"] {
                try await ann.send("\(command) bea :\(text)")
                lines.append(try await bea.expect("PRIVMSG bea :xxx"))
            }
            #expect(lines[0] == lines[1])
            #expect(lines[0].utf8.count == 509)
            #expect(lines[0].hasSuffix(String(repeating: "é", count: 6)))
        }
    }

    /// Lines through either path, to a user on the same or the other event loop, arrive in
    /// the order they were sent.
    @Test func linesArriveInOrderWhicheverPathTheyTake() async throws {
        try await withServer { server in
            let ann = try await Self.client(server, "ann", caps: "")
            let bea = try await Self.client(server, "bea", caps: "")
            let cid = try await Self.client(server, "cid", caps: "")
            let count = 400
            var batch = ""
            for n in 0..<count {
                let command = ["PRIVMSG", "privmsg", "NOTICE", "PRIVMSG"][n % 4]
                batch += "\(command) bea :n\(n)\r\n\(command) cid :n\(n)\r\n"
            }
            try await ann.sendRaw(Array(batch.utf8))
            for client in [bea, cid] {
                for n in 0..<count { try await client.expect(" :n\(n)") { $0.hasSuffix(" :n\(n)") } }
            }
            #expect(bea.unread().isEmpty && cid.unread().isEmpty)
        }
    }

    /// What the fast path passes on: replies and other cases still come from the full path.
    @Test func repliesStillCome() async throws {
        try await withServer { server in
            let ann = try await Self.client(server, "ann", caps: "")
            let bea = try await Self.client(server, "bea", caps: "")
            try await ann.send("PRIVMSG nobody :hi")
            try await ann.expectNumeric("401")
            try await bea.send("AWAY :lunch")
            try await bea.expectNumeric("306")
            try await ann.send("PRIVMSG bea :are you there")
            try await bea.expect("PRIVMSG bea :are you there")
            try await ann.expect(" 301 ann bea :lunch")
            try await ann.send("NOTICE bea :no answer wanted")
            try await bea.expect("NOTICE bea :no answer wanted")
            try await ann.sync()
            #expect(!ann.unread().contains { $0.contains(" 301 ") })
            try await ann.send("PRIVMSG ann :to myself")
            try await ann.expect(":ann!~ann@\(server.localHost) PRIVMSG ann :to myself")
        }
    }
}
