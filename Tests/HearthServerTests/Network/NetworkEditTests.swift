import Foundation
import HearthTesting
import Testing

/// An edit or a redaction made on one node reaches the clients of another live, each as it
/// reads them (the edit line for clients without draft/message-edit, nothing for those without
/// draft/message-redaction), and the other node's history has the edit.
@Suite(.serialized) struct NetworkEditTests {
    static let editCaps = [
        "message-tags", "server-time", "batch", "draft/chathistory", "draft/message-edit",
        "draft/message-redaction",
    ]

    /// An IRC user of `node` with an account of its own name.
    static func account(_ nick: String, on node: NetworkTests.Node, caps: [String] = []) async throws -> TestClient {
        let client = try await NetworkTests.user(nick, on: node, caps: caps)
        try await client.send("PRIVMSG hearth :!register \(nick) s3cret-pass")
        try await client.expect("PRIVMSG \(nick) :Welcome", timeout: 30)
        return client
    }

    @Test func editsAndRedactionsReachClientsOfAnotherNode() async throws {
        try await NetworkTests.withNodes(["alpha", "beta"]) { nodes in
            let (alpha, beta) = (nodes[0], nodes[1])
            let ava = try await Self.account("ava", on: alpha, caps: ["echo-message"])
            try await ava.send("JOIN #r")
            try await ava.expectNumeric("366")
            let ben = try await Self.account("ben", on: beta, caps: Self.editCaps)
            let cleo = try await NetworkTests.user("cleo", on: beta)
            try await NetworkTests.waitUntil(ben, sees: "ava", in: "#r")
            for client in [ben, cleo] {
                try await client.send("JOIN #r")
                try await client.expectNumeric("366")
            }
            // A guest in plain mode (nc).
            let dan = try await TestClient.connect(port: beta.port)
            try await dan.send("/help")
            try await dan.expect("/quit [MESSAGE]")
            try await dan.send("/join #r")
            try await dan.expect("You joined #r.")
            for _ in 0..<3 { try await ava.expect(" JOIN #r") }

            // In a channel: the edit as each reads it, and the redaction to who asked for it.
            try await ava.send("PRIVMSG #r :anex ample")
            let id = ChathistoryTests.msgid(try await ben.expect("PRIVMSG #r :anex ample"))
            try await ava.send("@draft/target-msgid=\(id);draft/edit-text=an\\sexample EDIT #r")
            let edit = try await ben.expect(" EDIT #r")
            #expect(edit.contains("draft/target-msgid=\(id)") && edit.contains("draft/edit-text=an\\sexample"))
            #expect(edit.contains(":ava!"), "\(edit)")
            try await cleo.expect(":beta.hearth NOTICE #r :ava edited: an example")
            try await dan.expect("[#r] * ava edited: an example")
            // Beta's history has it (alpha keeps it, a moment after the live line).
            try await HearthTesting.waitUntil("the edit in beta's history") {
                try await ben.send("CHATHISTORY LATEST #r * 10")
                return try await ChathistoryTests.batch(ben).contains {
                    $0.contains(" EDIT #r") && $0.contains("draft/edit-text=an\\sexample")
                }
            }
            try await ava.send("REDACT #r \(id) :typo")
            try await ben.expect(":ava!") { $0.hasSuffix(" REDACT #r \(id) :typo") }
            try await DeviceTests.nothing(cleo, containing: "REDACT")

            // In a conversation: the other side sees who sent it.
            try await ava.send("PRIVMSG ben :see you at 5")
            let dm = ChathistoryTests.msgid(try await ben.expect("PRIVMSG ben :see you at 5"))
            try await ava.send("@draft/target-msgid=\(dm);draft/edit-text=see\\syou\\sat\\s6 EDIT ben")
            let dmEdit = try await ben.expect(" EDIT ava")
            #expect(dmEdit.contains("draft/edit-text=see\\syou\\sat\\s6"), "\(dmEdit)")
            try await ava.send("REDACT ben \(dm)")
            try await ben.expect("REDACT ben :\(dm)")
        }
    }
}
