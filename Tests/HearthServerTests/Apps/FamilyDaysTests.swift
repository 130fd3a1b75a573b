import Foundation
import HearthTesting
import Testing

/// Birthdays and wedding anniversaries announced in the family's channel on the day of its
/// founder's time zone, once (across restarts: the store keeps the days announced), and "on
/// this day" in chat and on the family's page, over TCP on the test clock.
@Suite struct FamilyDaysTests {
    static func start(_ clock: TestClock, in directory: String) async throws -> TestServer {
        try await TestServer.start(dataDirectory: directory) { $0.clock = clock.hearth }
    }

    /// A member's new connection logging in (which asks whether today was announced yet).
    static func logIn(_ server: TestServer, _ name: String) async throws {
        let nc = try await TestClient.plain(server)
        try await nc.send("!login \(name) s3cret-pass")
        try await nc.expect("You are logged in as \(name).")
        await nc.close()
    }

    @Test func birthdaysAndAnniversariesAreAnnouncedOnceOnTheFamilysDay() async throws {
        let clock = TestClock("2025-05-02T15:00:00Z")
        let directory = TestServer.tempDirectory()
        try await stopping(try await Self.start(clock, in: directory)) { server in
            let ann = try await TestClient.user(server, "ann")
            try await ann.send("!set tz America/New_York")
            try await ann.expect("tz is now America/New_York")
            try await ann.send("!tree new Smiths")
            let code = try FamilyTests.code(in: try await ann.expect("Invite code for Smiths: "))
            let bob = try await TestClient.user(server, "bob")
            try await bob.send("!tree join \(code)")
            try await bob.expect("Welcome to Smiths")
            try await ann.send("!post hello from last year")
            try await ann.expect("Posted #1")

            clock.set("2026-04-30T15:00:00Z")
            try await ann.send("!event 2025-05-02 picnic by the river")
            try await ann.expect("Posted #2")
            try await ann.send("!post not on the day")
            try await ann.expect("Posted #3")
            try await ann.send("!person add Rose born 1931-05-02 in Lyon")
            try await ann.expect("is person #1")
            try await ann.send("!person add Tom born 1930")
            try await ann.expect("is person #2")
            try await ann.send("!person add Gone born 1920-05-02 died 2000-05-02")
            try await ann.expect("is person #3")
            try await ann.send("!tree link Rose partner of Tom married 1955-05-02 in Lyon")
            try await ann.expect("Rose is now Tom's partner (married 1955-05-02 in Lyon) in Smiths.")
            try await ann.send("!person me born 1990-05-02")
            try await ann.expect("You in Smiths")

            // 22:00 on 1 May in New York, the founder's zone: not the family's day yet.
            clock.set("2026-05-02T02:00:00Z")
            try await Self.logIn(server, "bob")
            try await ann.send("!family today")
            try await ann.expectNoLine(containing: "Today is", before: "On this day, 1 May, in Smiths: nothing yet")

            clock.set("2026-05-02T05:00:00Z")  // 01:00 on 2 May there
            try await Self.logIn(server, "bob")
            try await ann.expect("🎂 Today is ann's birthday: 36!")
            try await ann.expect("🎂 Today is Rose's birthday: 95!")
            try await ann.expect("💍 Rose and Tom married 71 years ago today (1955).")
            try await bob.expect("🎂 Today is Rose's birthday: 95!")

            // Once: another login that day says nothing more.
            try await Self.logIn(server, "bob")
            try await ann.send("!family today")
            try await ann.expectNoLine(containing: "Today is", before: "On this day, 2 May, in Smiths")
            try await ann.expect("1920 (106 years ago): Gone was born")
            try await ann.expect("1931 (95 years ago): Rose was born in Lyon")
            try await ann.expect("1955 (71 years ago): Rose and Tom married in Lyon")
            try await ann.expect("1990 (36 years ago): ann was born")
            try await ann.expect("2000 (26 years ago): Gone died")
            try await ann.expect("2025 (1 year ago): ann posted “hello from last year” (#1)")
            try await ann.expect("2025 (1 year ago): 📅 picnic by the river (ann, post #2)")

            // The family's page shows the same.
            let web = WebBrowser(server)
            try await web.signIn("ann")
            let page = try await web.get("/family/1")
            #expect(page.body.contains("On this day, 2 May"))
            #expect(page.body.contains("1955 (71 years ago): Rose and Tom married in Lyon"))
            #expect(!page.body.contains("ann posted “not on the day”"))
        }
        // After a restart, the day is still announced; the next year it is announced again.
        try await stopping(try await Self.start(clock, in: directory)) { server in
            let ann = try await TestClient.plain(server)
            try await ann.send("!login ann s3cret-pass")
            try await ann.expect("You are logged in as ann.")
            // The family channel's history replays what was said, once.
            try await ann.expect("💍 Rose and Tom married 71 years ago today (1955). (sent")
            try await Self.logIn(server, "bob")
            try await ann.send("!family today")
            try await ann.expectNoLine(containing: "Today is", before: "On this day, 2 May, in Smiths")
            clock.set("2027-05-02T12:00:00Z")
            try await Self.logIn(server, "bob")
            try await ann.expect("🎂 Today is Rose's birthday: 96!")
        }
    }
}
