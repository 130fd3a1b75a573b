import Foundation
import HearthProtocol
import HearthTesting
import Testing

@testable import HearthServer

/// draft/multiline: a batch of lines travels as one message.
@Suite struct MultilineTests {
    static let caps = "batch draft/multiline message-tags echo-message"

    static func sendBatch(_ client: TestClient, id: String, target: String, lines: [(String, Bool)]) async throws {
        try await client.send("BATCH +\(id) draft/multiline \(target)")
        for (text, concat) in lines {
            try await client.send("@batch=\(id)\(concat ? ";draft/multiline-concat" : "") PRIVMSG \(target) :\(text)")
        }
        try await client.send("BATCH -\(id)")
    }

    @Test func batchReachesCapableClientsWholeAndOthersLineByLine() async throws {
        try await withServer { server in
            let probe = try await server.connect()
            try await probe.send("CAP LS 302")
            try await probe.expect(
                "draft/multiline=max-bytes=\(IRCLimits.multilineMaxBytes),max-lines=\(IRCLimits.multilineMaxLines)")

            try await TestClient.register(server, "ada", "s3cret-pass")
            let ada = try await TestClient.irc(
                server, nick: "ada", extra: ["CAP LS 302", "CAP REQ :\(Self.caps)", "PASS ada:s3cret-pass", "CAP END"])
            let ben = try await IRCv3Tests.client(server, "ben", caps: "batch draft/multiline")
            let cy = try await TestClient.irc(server, nick: "cy")
            for c in [ada, ben, cy] {
                try await c.send("JOIN #poem")
                try await c.expectNumeric("366")
            }
            try await Self.sendBatch(
                ada, id: "p1", target: "#poem",
                lines: [("roses are red", false), ("violets are", false), (" blue", true)])

            let start = try await ben.expect("BATCH +")
            #expect(start.hasSuffix(" draft/multiline #poem"), "\(start)")
            let id = try #require(start.split(separator: " ").first { $0.hasPrefix("+") }).dropFirst()
            try await ben.expect("@batch=\(id) :ada!~ada@\(server.localHost) PRIVMSG #poem :roses are red")
            try await ben.expect("@batch=\(id) :ada!~ada@\(server.localHost) PRIVMSG #poem :violets are")
            try await ben.expect(
                "@batch=\(id);draft/multiline-concat :ada!~ada@\(server.localHost) PRIVMSG #poem : blue")
            try await ben.expect("BATCH -\(id)")
            // The sender's echo is the same batch; a client without the cap gets three lines.
            try await ada.expect("draft/multiline #poem")
            try await cy.expect(":ada!~ada@\(server.localHost) PRIVMSG #poem :roses are red")
            try await cy.expect("PRIVMSG #poem :violets are")
            try await cy.expect("PRIVMSG #poem : blue")

            // History keeps it as one message; CHATHISTORY nests it as a multiline batch.
            try await ben.send("CHATHISTORY LATEST #poem * 10")
            try await ben.expect("BATCH +") { $0.contains("chathistory #poem") }
            let nested = try await ben.expect("draft/multiline #poem")
            #expect(nested.hasPrefix("@batch="))
            try await ben.expect("PRIVMSG #poem :roses are red")
            // Stored as text with newlines: the concatenated line comes back joined.
            try await ben.expect("PRIVMSG #poem :violets are blue")
        }
    }

    @Test func limitsAndMalformedBatchesAreRefusedAndDeliverNothing() async throws {
        try await withServer { server in
            let ada = try await IRCv3Tests.client(server, "ada", caps: Self.caps)
            let cy = try await TestClient.irc(server, nick: "cy")
            for c in [ada, cy] {
                try await c.send("JOIN #m")
                try await c.expectNumeric("366")
            }
            let tooMany = Array(repeating: ("x", false), count: IRCLimits.multilineMaxLines + 1)
            try await Self.sendBatch(ada, id: "a", target: "#m", lines: tooMany)
            try await ada.expect("FAIL BATCH MULTILINE_MAX_LINES \(IRCLimits.multilineMaxLines) :")
            let line = String(repeating: "y", count: 400)
            let tooBig = Array(repeating: (line, false), count: IRCLimits.multilineMaxBytes / 400 + 1)
            try await Self.sendBatch(ada, id: "b", target: "#m", lines: tooBig)
            try await ada.expect("FAIL BATCH MULTILINE_MAX_BYTES \(IRCLimits.multilineMaxBytes) :")
            // A line to another target, and a batch tag nobody opened.
            try await ada.send("BATCH +c draft/multiline #m")
            try await ada.send("@batch=c PRIVMSG #elsewhere :sneaky")
            try await ada.expect(
                "FAIL BATCH MULTILINE_INVALID :A multiline batch holds PRIVMSG or NOTICE lines to its own target only")
            try await ada.send("@batch=zzz PRIVMSG #m :orphan")
            try await ada.expect("FAIL BATCH MULTILINE_INVALID :That batch is not open")
            // Without the cap, BATCH is refused.
            try await cy.send("BATCH +d draft/multiline #m")
            try await cy.expect("FAIL BATCH MULTILINE_INVALID :Enable the draft/multiline capability first")
            try await DeviceTests.nothing(cy, containing: "PRIVMSG")
            // The connection lives on.
            try await ada.send("PRIVMSG #m :still here")
            try await cy.expect("PRIVMSG #m :still here")
        }
    }

    @Test func longLinesAreCutAtSpacesAndJoinBack() {
        let text = String(repeating: "word ", count: 200) + "\nsecond"
        let pieces = Core.multilinePieces(text)
        #expect(pieces.allSatisfy { $0.text.utf8.count <= TextSplitter.maxBytes })
        var joined = ""
        for (index, piece) in pieces.enumerated() { joined += (index > 0 && !piece.concat ? "\n" : "") + piece.text }
        #expect(joined == text)
        #expect(pieces.last?.concat == false && pieces.last?.text == "second")
    }
}
