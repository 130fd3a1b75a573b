import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// CHATHISTORY over the stored history, inside batches, as modern clients use it.
@Suite struct ChathistoryTests {
    static let caps = "batch server-time message-tags draft/chathistory"

    static func msgid(_ line: String) -> String {
        let tags = line.prefix { $0 != " " }
        let part = tags.split(separator: ";").first { $0.hasPrefix("msgid=") || $0.hasPrefix("@msgid=") } ?? ""
        return String(part.split(separator: "=").last ?? "")
    }

    /// The lines of one batch reply: messages between BATCH +id and BATCH -id.
    static func batch(_ client: TestClient) async throws -> [String] {
        try await batchLines(client, try await client.expect("BATCH +"))
    }

    /// The lines of the batch `open` (its BATCH +id line) started.
    static func batchLines(_ client: TestClient, _ open: String) async throws -> [String] {
        let id = String(open.split(separator: " ")[2].dropFirst())
        var lines: [String] = []
        while true {
            let line = try await client.expect("batch line") {
                $0.contains("batch=\(id)") || $0.contains("BATCH -\(id)")
            }
            if line.contains("BATCH -\(id)") { return lines }
            lines.append(line)
        }
    }

    /// Two accounts, logged in with the history caps.
    static func avaAndBen(_ server: TestServer) async throws -> (TestClient, TestClient) {
        var clients: [TestClient] = []
        for name in ["ava", "ben"] {
            try await TestClient.register(server, name, "s3cret-pass")
            clients.append(
                try await TestClient.irc(
                    server, nick: name,
                    extra: ["CAP LS 302", "CAP REQ :\(caps)", "PASS \(name):s3cret-pass", "CAP END"]))
        }
        return (clients[0], clients[1])
    }

    @Test func theJoinBacklogKeepsEachMessagesMsgid() async throws {
        try await withServer { server in
            let (ava, ben) = try await Self.avaAndBen(server)
            for client in [ava, ben] {
                try await client.send("JOIN #ch")
                try await client.expectNumeric("366")
            }
            try await ava.send("PRIVMSG #ch :remember me")
            try await ben.expect("PRIVMSG #ch :remember me")
            // Each rejoin replays it with the msgid it was stored under.
            var seen: [String] = []
            for _ in 0..<2 {
                try await ben.send("PART #ch")
                try await ben.expect("PART :#ch")
                try await ben.send("JOIN #ch")
                seen.append(Self.msgid(try await ben.expect("PRIVMSG #ch :remember me")))
            }
            try await ava.send("CHATHISTORY LATEST #ch * 1")
            let stored = try await Self.batch(ava)
            #expect(stored.count == 1)
            #expect(seen == [Self.msgid(stored[0]), Self.msgid(stored[0])], "\(seen) \(stored)")
        }
    }

    @Test func latestBeforeAfterAroundBetweenAndTargets() async throws {
        try await withServer { server in
            let (ava, ben) = try await Self.avaAndBen(server)
            try await ava.send("JOIN #ch")
            try await ava.expectNumeric("366")
            try await ben.send("JOIN #ch")
            try await ben.expectNumeric("366")
            var ids: [String] = []
            for i in 1...5 {
                try await ava.send("PRIVMSG #ch :a\(i)")
                ids.append(Self.msgid(try await ben.expect("PRIVMSG #ch :a\(i)")))
            }
            #expect(Set(ids).count == 5)

            // History is written in batches: ask until the last line is there (bounded).
            var latest: [String] = []
            for _ in 0..<100 {
                try await ben.send("CHATHISTORY LATEST #ch * 3")
                latest = try await Self.batch(ben)
                if latest.last?.hasSuffix(":a5") == true { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(latest.map { String($0.split(separator: ":").last!) } == ["a3", "a4", "a5"])
            let source = " :ava!~ava@\(server.localHost) PRIVMSG #ch :"
            #expect(latest.allSatisfy { $0.contains("time=") && $0.contains("msgid=") && $0.contains(source) })
            #expect(Self.msgid(latest[0]) == ids[2])

            func texts(_ command: String) async throws -> [String] {
                try await ben.send(command)
                return try await Self.batch(ben).map { String($0.split(separator: ":").last!) }
            }
            #expect(try await texts("CHATHISTORY BEFORE #ch msgid=\(ids[2]) 10") == ["a1", "a2"])
            #expect(try await texts("CHATHISTORY AFTER #ch msgid=\(ids[2]) 1") == ["a4"])
            #expect(try await texts("CHATHISTORY AROUND #ch msgid=\(ids[2]) 3") == ["a2", "a3", "a4"])
            #expect(
                try await texts("CHATHISTORY BETWEEN #ch msgid=\(ids[0]) msgid=\(ids[4]) 10") == ["a2", "a3", "a4"])
            #expect(try await texts("CHATHISTORY BETWEEN #ch msgid=\(ids[4]) msgid=\(ids[0]) 2") == ["a3", "a4"])
            #expect(try await texts("CHATHISTORY LATEST #ch msgid=\(ids[3]) 10") == ["a5"])

            try await ben.send(
                "CHATHISTORY TARGETS timestamp=2000-01-01T00:00:00.000Z timestamp=2100-01-01T00:00:00.000Z 10")
            let targets = try await Self.batch(ben)
            #expect(targets.contains { $0.contains("CHATHISTORY TARGETS #ch ") })

            // A private conversation between the two accounts.
            try await ava.send("PRIVMSG ben :just us")
            try await ben.expect("PRIVMSG ben :just us")
            var conversation: [String] = []
            for _ in 0..<100 {
                try await ava.send("CHATHISTORY LATEST ben * 10")
                conversation = try await Self.batch(ava)
                if !conversation.isEmpty { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(conversation.first?.hasSuffix("PRIVMSG ben :just us") == true)

            // TARGETS: earliest first, by each target's latest message, strictly inside the span.
            let wide = "timestamp=2000-01-01T00:00:00.000Z timestamp=2100-01-01T00:00:00.000Z"
            try await ben.send("CHATHISTORY TARGETS \(wide) 10")
            let both = try await Self.batch(ben).map { $0.split(separator: " ").suffix(2).map(String.init) }
            #expect(both.map(\.[0]) == ["#ch", "ava"], "\(both)")
            try await ben.send("CHATHISTORY TARGETS \(wide) 1")
            #expect(try await Self.batch(ben).count == 1)
            if both.count == 2 {
                // From #ch's latest (excluded) on: only the conversation; up to it: nothing.
                try await ben.send("CHATHISTORY TARGETS timestamp=\(both[0][1]) timestamp=2100-01-01T00:00:00.000Z 10")
                let after = try await Self.batch(ben)
                #expect(after.map { $0.contains("TARGETS ava ") } == [true], "\(after) \(both)")
                try await ben.send("CHATHISTORY TARGETS timestamp=2000-01-01T00:00:00.000Z timestamp=\(both[1][1]) 10")
                #expect(try await Self.batch(ben).map { $0.contains("TARGETS #ch ") } == [true])
            }

            // Refusals.
            let stranger = try await IRCv3Tests.client(server, "carl", caps: Self.caps)
            try await stranger.send("CHATHISTORY LATEST #ch * 10")
            try await stranger.expect("FAIL CHATHISTORY INVALID_TARGET LATEST #ch :You can't read the history of #ch")
            try await stranger.send("CHATHISTORY LATEST #ch bogus 10")
            try await stranger.expect("FAIL CHATHISTORY INVALID_PARAMS LATEST #ch")
            try await stranger.send("CHATHISTORY SIDEWAYS #ch * 10")
            try await stranger.expect("FAIL CHATHISTORY INVALID_PARAMS SIDEWAYS #ch")
            try await stranger.send("CHATHISTORY LATEST #ch * zero")
            try await stranger.expect(
                "FAIL CHATHISTORY INVALID_PARAMS LATEST :The last parameter must be a positive limit")
        }
    }
}

@Suite struct RedactionTests {
    @Test func authorsAndOperatorsRedactOthersCannot() async throws {
        try await withServer { server in
            let caps = ChathistoryTests.caps + " draft/message-redaction"
            try await TestClient.register(server, "cleo", "s3cret-pass")
            try await TestClient.register(server, "dan", "s3cret-pass")
            let cleo = try await TestClient.irc(
                server, nick: "cleo", extra: ["CAP LS 302", "CAP REQ :\(caps)", "PASS cleo:s3cret-pass", "CAP END"])
            let dan = try await TestClient.irc(
                server, nick: "dan", extra: ["CAP LS 302", "CAP REQ :\(caps)", "PASS dan:s3cret-pass", "CAP END"])
            try await cleo.send("JOIN #r")
            try await cleo.expectNumeric("366")
            try await dan.send("JOIN #r")
            try await dan.expectNumeric("366")
            try await dan.send("PRIVMSG #r :oops, wrong window")
            let oops = ChathistoryTests.msgid(try await cleo.expect("PRIVMSG #r :oops, wrong window"))
            try await cleo.send("PRIVMSG #r :my own line")
            let own = ChathistoryTests.msgid(try await dan.expect("PRIVMSG #r :my own line"))
            // Wait until both are stored (written in batches).
            for _ in 0..<100 {
                try await dan.send("CHATHISTORY LATEST #r * 10")
                if try await ChathistoryTests.batch(dan).count == 2 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            // dan is not an operator: he can't redact cleo's line, but can redact his own.
            try await dan.send("REDACT #r \(own)")
            try await dan.expect("FAIL REDACT REDACT_FORBIDDEN #r \(own) :You may only redact your own messages")
            try await dan.send("REDACT #r \(oops) :typo")
            try await cleo.expect("REDACT #r \(oops) :typo")
            try await dan.expect("REDACT #r \(oops) :typo")
            try await dan.send("REDACT #r nosuchid")
            try await dan.expect("FAIL REDACT UNKNOWN_MSGID #r nosuchid")
            // cleo (first joiner, operator) may redact anything in her channel.
            try await cleo.send("REDACT #r \(own)")
            try await dan.expect("REDACT #r :\(own)")
            try await dan.send("CHATHISTORY LATEST #r * 10")
            #expect(try await ChathistoryTests.batch(dan).isEmpty)
        }
    }
}

@Suite struct ReadMarkerTests {
    @Test func markersMoveForwardAndSyncAcrossDevices() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ema", "s3cret-pass")
            let caps = "draft/read-marker server-time"
            let laptop = try await TestClient.irc(
                server, nick: "ema", extra: ["CAP LS 302", "CAP REQ :\(caps)", "PASS ema:s3cret-pass", "CAP END"])
            let phone = try await TestClient.irc(
                server, nick: "ema_phone", extra: ["CAP LS 302", "CAP REQ :\(caps)", "PASS ema:s3cret-pass", "CAP END"])
            try await laptop.send("JOIN #read")
            try await laptop.expect("MARKREAD #read *")
            try await laptop.send("MARKREAD #read timestamp=2026-11-22T10:00:00.000Z")
            try await laptop.expect("MARKREAD #read timestamp=2026-11-22T10:00:00.000Z")
            try await phone.expect("MARKREAD #read timestamp=2026-11-22T10:00:00.000Z")
            // Never backwards.
            try await phone.send("MARKREAD #read timestamp=2026-11-22T09:00:00.000Z")
            try await phone.expect("MARKREAD #read timestamp=2026-11-22T10:00:00.000Z")
            try await phone.send("MARKREAD #read")
            try await phone.expect("MARKREAD #read timestamp=2026-11-22T10:00:00.000Z")
            try await phone.send("JOIN #read")
            try await phone.expect("MARKREAD #read timestamp=2026-11-22T10:00:00.000Z")
            try await phone.send("MARKREAD #read yesterday")
            try await phone.expect("FAIL MARKREAD INVALID_PARAMS #read")
            try await phone.send("MARKREAD")
            try await phone.expect("FAIL MARKREAD NEED_MORE_PARAMS :")
            try await phone.send("MARKREAD #read *")
            try await phone.expect("FAIL MARKREAD INVALID_PARAMS #read")
            // A guest's markers last as long as its connection, and nobody else sees them.
            let guest = try await TestClient.irc(server, nick: "anon", extra: ["CAP REQ draft/read-marker", "CAP END"])
            try await guest.send("MARKREAD #read")
            try await guest.expect("MARKREAD #read *")
            try await guest.send("MARKREAD #read timestamp=2026-11-22T08:00:00.000Z")
            try await guest.expect("MARKREAD #read timestamp=2026-11-22T08:00:00.000Z")
            try await guest.send("MARKREAD #read timestamp=2026-11-22T07:00:00.000Z")
            try await guest.expect("MARKREAD #read timestamp=2026-11-22T08:00:00.000Z")
            try await guest.send("JOIN #read")
            try await guest.expect("MARKREAD #read timestamp=2026-11-22T08:00:00.000Z")
            try await phone.send("MARKREAD #read")
            try await phone.expect("MARKREAD #read timestamp=2026-11-22T10:00:00.000Z")
            await guest.close()
            let again = try await TestClient.irc(server, nick: "anon", extra: ["CAP REQ draft/read-marker", "CAP END"])
            try await again.send("MARKREAD #read")
            try await again.expect("MARKREAD #read *")
            // A guest keeps markers for a bounded number of targets.
            let stamp = "timestamp=2026-11-22T08:00:00.000Z"
            for index in 0..<Core.guestReadMarkers { try await again.send("MARKREAD #t\(index) \(stamp)") }
            try await again.expect("MARKREAD #t\(Core.guestReadMarkers - 1) \(stamp)")
            try await again.send("MARKREAD #one-too-many \(stamp)")
            try await again.expect("MARKREAD #one-too-many *")
        }
    }
}
