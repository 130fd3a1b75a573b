import Foundation
import HearthTesting
import Testing

/// Issue 40: the countdown to the next cookie wherever the cookie is shown in chat.
@Suite struct FortuneCountdownTests {
    @Test func showingYourLatestCookieSaysWhenTheNextComes() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await FortuneTests.start(clock)) { server in
            let kim = try await TestClient.user(server, "kim")
            try await kim.send("!fortune")
            try await kim.expect("Next cookie in 15h (midnight UTC).")
            clock.set("2026-07-01T18:48:00Z")
            try await kim.send("!fortune show 1")
            try await kim.expect("#1 Wednesday 1 July")
            try await kim.expect("Next cookie in 5h 12m (midnight UTC).")
            try await kim.expect("!share fortune 1")
            // The next day the cookie waits: no countdown under yesterday's.
            clock.set("2026-07-02T09:00:00Z")
            try await kim.send("!fortune show 1")
            try await kim.expect("#1 Wednesday 1 July")
            let next = try await kim.expect("fortune")
            #expect(next.contains("!share fortune 1"), "\(next)")
        }
    }
}
