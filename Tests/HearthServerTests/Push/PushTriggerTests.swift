import Foundation
import HearthTesting
import Synchronization
import Testing

@testable import HearthServer

/// Pushes the chat and the apps ask for, delivered to the push-service stand-in: the cookie
/// when the next one is ready, and mentions within their per-account limit.
@Suite struct PushTriggerTests {
    /// A server on `clock` pushing to a stand-in that checks tokens by the same clock.
    static func withPush(_ clock: TestClock, run: (TestServer, PushServiceStandIn) async throws -> Void)
        async throws
    {
        let service = try await PushServiceStandIn.start { clock.now }
        defer { Task { await service.stop() } }
        try await withServer {
            $0.pushLocalEndpoints = true
            $0.clock = clock.hearth
        } run: {
            try await run($0, service)
        }
    }

    @Test func aSubscribedDeviceHearsWhenTheNextCookieIsReady() async throws {
        let clock = TestClock("2026-07-01T21:59:59.300Z")  // 23:59:59.3 in Paris
        try await Self.withPush(clock) { server, service in
            let eli = try await TestClient.user(server, "eli")
            let browser = WebBrowser(server)
            _ = try await browser.signIn("eli")
            #expect(try await WebPushSiteTests.subscribe(browser, service, kinds: "cookie").1 == #"{"kinds":"cookie"}"#)
            try await eli.send("!set tz Europe/Paris")
            try await eli.expect("tz is now Europe/Paris")
            try await eli.send("!fortune")
            try await eli.expect("Your fortune for Wednesday 1 July")
            try await eli.send("/quit")
            try await eli.expectClosed()
            // Midnight in Paris: the 2nd's cookie is ready, and eli has no connection to hear it on.
            clock.set("2026-07-01T22:00:00.500Z")
            let got = try #require(await service.next())
            let note = try JSONDecoder().decode([String: String].self, from: Data(got.text.utf8))
            #expect(note["kind"] == "cookie" && note["body"] == "🥠 A new fortune cookie is ready", "\(note)")
            #expect(note["url"]?.hasSuffix("/fortunes") == true && got.urgency == "normal")
            #expect(service.refused.withLock { $0 }.isEmpty)
        }
    }

    @Test func mentionsPastTheLimitComeAsOneSummaryWhenTheMinuteEnds() async throws {
        let clock = TestClock("2026-07-01T10:00:59Z")
        try await Self.withPush(clock) { server, service in
            let (ann, _, _) = try await WebPushIRCTests.subscribed(server, service)
            try await ann.send("JOIN #tea")
            try await ann.expect("JOIN #tea")
            try await ann.send("AWAY :out")
            try await ann.expectNumeric("306")
            let bob = try await TestClient.irc(server, nick: "bob")
            try await bob.send("JOIN #tea")
            try await bob.expect("366")
            let limit = MentionPushLimit.maxPerMinute
            for line in 1...limit + 3 { try await bob.send("PRIVMSG #tea :ann, line \(line)") }
            try await ann.expect("ann, line \(limit + 3)")
            var pushed: Set<String> = []
            for _ in 1...limit {
                let got = try #require(await service.next())
                pushed.insert(String(got.text.split(separator: ":").last ?? ""))
            }
            #expect(pushed == Set((1...limit).map { "ann, line \($0)" }))
            // The minute ends: the three held are told in one push.
            clock.set("2026-07-01T10:01:00Z")
            let summary = try #require(await service.next())
            #expect(summary.text.hasSuffix(":3 more mentions in #tea"), "\(summary.text)")
            // A new minute: mentions are pushed again.
            try await bob.send("PRIVMSG #tea :ann, a new minute")
            #expect(try #require(await service.next()).text.hasSuffix("ann, a new minute"))
            #expect(service.refused.withLock { $0 }.isEmpty)
        }
    }

    @Test func theMentionLimitTracksAtMostItsAccounts() {
        var limit = MentionPushLimit()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for account in 0..<Int64(MentionPushLimit.maxAccounts) {
            #expect(limit.admit(account, place: "#a", now: now) == .send)
        }
        #expect(limit.admit(-1, place: "#a", now: now) == .hold(summaryAt: nil), "one account too many: dropped")
        #expect(limit.admit(0, place: "#a", now: now) == .send, "one already tracked still counts")
        // The next minute, the last one's accounts are forgotten.
        #expect(limit.admit(-1, place: "#a", now: now.addingTimeInterval(60)) == .send)
    }
}
