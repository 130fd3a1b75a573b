import Foundation
import HearthAccounts
import HearthApps
import HearthTesting
import Synchronization
import Testing

@testable import HearthMedia

@Suite struct FortuneTests {
    static func start(_ clock: TestClock, sayings: [String]? = nil) async throws -> TestServer {
        var directory: String?
        if let sayings {
            directory = TestServer.tempDirectory()
            // A strfile source file, as Debian's fortunes packages ship them (plus an index to skip).
            try (sayings.joined(separator: "\n%\n") + "\n%\n").write(
                toFile: directory! + "/test-sayings", atomically: true, encoding: .utf8)
            try Data([0, 0, 0, 2]).write(to: URL(fileURLWithPath: directory! + "/test-sayings.dat"))
            try FileManager.default.createDirectory(atPath: directory! + "/off", withIntermediateDirectories: true)
            try "a rude one\n%\n".write(toFile: directory! + "/off/rude", atomically: true, encoding: .utf8)
        }
        return try await TestServer.start { config in
            config.clock = clock.hearth
            if let directory {
                config.apps.fortunesDirectory = directory
                config.apps.builtinFortunes = false
            }
        }
    }

    @Test func oneCookiePerLocalDayInEachTimeZoneWithCountdown() async throws {
        let clock = TestClock("2026-03-28T22:30:00Z")  // 23:30 in Paris, 18:30 in New York
        try await stopping(try await Self.start(clock)) { server in
            let pia = try await TestClient.user(server, "pia")
            try await pia.send("!set tz Europe/Paris")
            try await pia.expect("tz is now Europe/Paris")
            let ned = try await TestClient.user(server, "ned")
            try await ned.send("!set tz America/New_York")
            try await ned.expect("tz is now America/New_York")

            try await pia.send("!fortune")
            try await pia.expect("Your fortune for Saturday 28 March")
            let numbers = try await pia.expect("Lucky numbers: ")
            let drawn = numbers.split(separator: "·")[0].split(separator: " ").dropFirst(2).compactMap { Int($0) }
            #expect(
                drawn.count == 6 && Set(drawn).count == 6 && drawn.allSatisfy { (1...49).contains($0) }
                    && drawn == drawn.sorted())
            try await pia.send("!fortune")
            try await pia.expect("You opened today's cookie already")
            try await pia.expect("Next cookie in 30m (midnight Europe/Paris).")
            try await ned.send("!fortune")
            try await ned.expect("Your fortune for Saturday 28 March")
            try await ned.send("!fortune")
            try await ned.expect("Next cookie in 5h 30m (midnight America/New_York).")

            // 00:10 in Paris (a new day there), still the 28th in New York.
            clock.set("2026-03-28T23:10:00Z")
            try await pia.send("!fortune")
            try await pia.expect("Your fortune for Sunday 29 March")
            try await pia.expect("+12 points (2-day streak, +2 bonus)")
            try await ned.send("!fortune")
            try await ned.expect("Next cookie in 4h 50m")
            // The 29th is the day clocks go forward in Paris: 23 hours long.
            clock.set("2026-03-29T12:00:00Z")
            try await pia.send("!fortune")
            try await pia.expect("Next cookie in 10h (midnight Europe/Paris).")
        }
    }

    /// Issue 33, item 3: changing time zone opened a cookie for a day already passed and for one
    /// overlapping the last, with fake streaks, and a first-visit bonus per zone. Someone hopping
    /// zones and logging in again in each ends with the points of someone who stays home.
    @Test func zoneHoppingMintsNoCookiesStreaksOrVisitsOnTheLeaderboard() async throws {
        let clock = TestClock("2026-11-27T05:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let hop = try await TestClient.user(server, "hop")
            let stay = try await TestClient.user(server, "stay")
            for who in [hop, stay] {
                try await who.send("!fortune")
                try await who.expect("Your fortune for Friday 27 November")
            }
            func visit(_ name: String, bonus: Bool) async throws {
                let again = try await TestClient.plain(server)
                try await again.send("!login \(name) s3cret-pass")
                if bonus { try await again.expect("+2 points for your first visit today") }
                try await again.send("!points")
                try await again.expect("You have ")
                await again.close()
            }
            try await hop.send("!set tz America/Los_Angeles")
            try await hop.expect("tz is now America/Los_Angeles")
            try await hop.send("!fortune")
            try await hop.expect(
                "Your last cookie was for Friday 27 November, and Thursday 26 November here (America/Los_Angeles)")
            try await hop.expect("Next cookie in 27h (midnight America/Los_Angeles, Saturday 28 November).")
            try await visit("hop", bonus: false)
            clock.set("2026-11-27T12:00:00Z")
            try await hop.send("!set tz Pacific/Kiritimati")
            try await hop.expect("tz is now Pacific/Kiritimati")
            try await hop.send("!fortune")
            try await hop.expect("and Saturday 28 November here (Pacific/Kiritimati) overlaps that day")
            try await visit("hop", bonus: false)

            clock.set("2026-11-28T05:00:00Z")
            try await visit("stay", bonus: true)
            try await stay.send("!fortune")
            try await stay.expect("+12 points (2-day streak, +2 bonus)")
            try await hop.send("!fortune")
            try await hop.expect("overlaps that day")
            // UTC+14's 29th starts ten hours after the UTC 27th ended: a real next day.
            clock.set("2026-11-28T10:00:00Z")
            try await visit("hop", bonus: true)
            try await hop.send("!fortune")
            try await hop.expect("Your fortune for Sunday 29 November")
            try await hop.expect("+12 points (2-day streak, +2 bonus)")
            clock.set("2026-11-28T12:00:00Z")
            try await hop.send("!set tz UTC")
            try await hop.expect("tz is now UTC")
            try await hop.send("!fortune")
            try await hop.expect("Your last cookie was for Sunday 29 November, and Saturday 28 November here (UTC)")
            try await visit("hop", bonus: false)

            clock.set("2026-11-29T05:00:00Z")
            try await visit("stay", bonus: true)
            try await stay.send("!fortune")
            try await stay.expect("+14 points (3-day streak, +4 bonus)")
            try await hop.send("!fortune")
            try await hop.expect("You opened today's cookie already")
            try await visit("hop", bonus: false)
            clock.set("2026-11-29T10:00:00Z")
            try await hop.send("!set tz Pacific/Kiritimati")
            try await hop.expect("tz is now Pacific/Kiritimati")
            try await visit("hop", bonus: true)
            try await hop.send("!fortune")
            try await hop.expect("+14 points (3-day streak, +4 bonus)")

            // Three cookies (10 + 12 + 14) and three first visits (2 each) each.
            try await stay.send("!top points")
            try await stay.expect("Top points")
            try await stay.expect("1. hop — 42")
            try await stay.expect("2. stay — 42")
            try await hop.send("!fortune stats")
            try await hop.expect("3 opened · streak 3 days (longest 3)")
        }
    }

    @Test func noRepeatsUntilTheCatalogueIsSeenAndStreaksCountDays() async throws {
        let clock = TestClock("2026-06-01T12:00:00Z")
        let sayings = ["The first saying.", "The second saying.", "The third saying."]
        try await stopping(try await Self.start(clock, sayings: sayings)) { server in
            let rue = try await TestClient.user(server, "rue")
            var seen: [String] = []
            for day in 1...6 {
                clock.set(String(format: "2026-06-%02dT12:00:00Z", day))
                try await rue.send("!fortune")
                let line = try await rue.expect("Your fortune for")
                let saying = try #require(sayings.first { line.contains($0) }, "\(line)")
                seen.append(saying)
            }
            #expect(Set(seen[0..<3]) == Set(sayings) && Set(seen[3..<6]) == Set(sayings))
            #expect(!seen.contains("a rude one"))
            // Skip the 7th: the streak starts again on the 8th.
            clock.set("2026-06-08T12:00:00Z")
            try await rue.send("!fortune")
            try await rue.expect("+10 points")
            try await rue.send("!fortune stats")
            try await rue.expect("7 opened · streak 1 day (longest 6) · 0 places")
            try await rue.send("!fortunes")
            try await rue.expect("rue's cookies (7):")
            try await rue.expect("2026-06-08")
            try await rue.send("!points")
            // Cookies 10+12+14+16+18+20 and 10, plus a first-visit bonus on the day of registering.
            try await rue.expect("You have 102 points.")
        }
    }

    @Test func placesMapAndBadCoordinates() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let sol = try await TestClient.user(server, "sol")
            for (bad, answer) in [
                ("@91,0", "is off the globe"), ("@12,abc", "is not a place"),
                ("@Narnia", "I don't know a place called Narnia"),
                ("tomorrow", "Give a place as @LAT,LON or @City"),
            ] {
                try await sol.send("!fortune \(bad)")
                try await sol.expect(answer)
            }
            try await sol.send("!fortunes")
            try await sol.expect("sol has opened no cookies yet.")
            try await sol.send("!fortune @48.85,2.35 Paris")
            try await sol.expect("opened in Paris")
            clock.set("2026-07-02T09:00:00Z")
            try await sol.send("!fortune @Tokyo")
            try await sol.expect("opened in Tokyo")
            try await sol.send("!fortune stats")
            try await sol.expect(
                "2 opened · streak 2 days (longest 2) · 2 places · 9715 km between your first and latest places")
            try await sol.send("!fortune map")
            let line = try await sol.expect("sol's fortune map (2 places): http")
            let (png, response) = try await Web.fetch(try Web.link(in: line))
            #expect(response.statusCode == 200)
            let probe = try ImageProbe.inspect([UInt8](png))
            #expect(probe.format == .png && probe.width == WorldMap.width && probe.height > WorldMap.height)
            let image = try #require(GDImage.decode([UInt8](png), format: .png))
            // The map shows the part of the world around Paris and Tokyo, not all of it.
            let view = WorldMap.Viewport.around([
                WorldMap.Marker(lat: 48.85, lon: 2.35, label: ""), WorldMap.Marker(lat: 35.68, lon: 139.69, label: ""),
            ])
            #expect(view != .world)
            func project(_ lat: Double, _ lon: Double) -> (x: Int, y: Int) {
                view.project(lat: lat, lon: lon, width: WorldMap.width, height: WorldMap.height)
            }
            // Marker 1 sits at Paris' projected pixel: red around the white number.
            let (x, y) = project(48.85, 2.35)
            let pixel = image.pixel(x - 7, y)
            #expect(
                (pixel >> 16) & 0xFF > 180 && (pixel >> 8) & 0xFF < 90,
                "pixel \(String(pixel, radix: 16)) at \(x - 7),\(y)")
            // In the Indian Ocean there is only ocean.
            #expect(image.pixel(project(0, 80).x, project(0, 80).y) & 0xFFFFFF == WorldMap.ocean)
        }
    }

    @Test func friendsPrivacyBlocksAndSharing() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let ava = try await TestClient.user(server, "ava")
            let ben = try await TestClient.user(server, "ben")
            try await ava.send("!fortune")
            try await ava.expect("Your fortune for")
            try await ben.send("!fortunes ava")
            try await ben.expect("ava shares fortunes with friends only")
            try await ben.send("!fortune show 1")
            try await ben.expect("there is no fortune #1 you can see")
            try await ava.send("!follow ben")
            try await ava.expect("You now follow ben")
            try await ben.send("!follow ava")
            try await ben.expect("You now follow ava")
            try await ben.send("!fortunes ava")
            try await ben.expect("ava's cookies (1):")
            try await ava.send("!share fortune 1 ben")
            try await ben.expect("ava shares their fortune #1 of 2026-07-01")
            try await ben.send("!top points friends")
            try await ben.expect("1. ava — 12")
            try await ava.send("!block ben")
            try await ava.expect("You blocked ben")
            try await ben.send("!fortunes ava")
            try await ben.expect("ava shares fortunes with friends only")
            // Public privacy opens the list to everyone not blocked.
            let cal = try await TestClient.user(server, "cal")
            try await ava.send("!set privacy public")
            try await ava.expect("privacy is now public")
            try await cal.send("!fortunes ava")
            try await cal.expect("ava's cookies (1):")
        }
    }

    @Test func readyNoticeAtMidnightAndWaitingCookieAtLogin() async throws {
        let clock = TestClock("2026-07-01T21:59:59.300Z")  // 23:59:59.3 in Paris
        try await stopping(try await Self.start(clock)) { server in
            let eli = try await TestClient.user(server, "eli")
            try await eli.send("!set tz Europe/Paris")
            try await eli.expect("tz is now Europe/Paris")
            try await eli.send("!fortune")
            try await eli.expect("Your fortune for Wednesday 1 July")
            // Scheduled for midnight: it arrives without anyone asking.
            try await eli.expect("A new fortune cookie is ready — !fortune", timeout: 5)
            // Logging in the next day: a first-visit bonus, and told the cookie is waiting. The first
            // visit counted on registering, before the zone was set, keeps its date, 1 July, in
            // Paris (as a UTC day it overlapped Paris' 2nd, and eli lost that day's bonus).
            clock.set("2026-07-02T08:00:00Z")
            let again = try await TestClient.plain(server)
            try await again.send("!login eli s3cret-pass")
            try await again.expect(
                "🥠 +2 points for your first visit today; today's fortune cookie is waiting — !fortune.")
            // The day after, a first-visit bonus too.
            clock.set("2026-07-03T08:00:00Z")
            let later = try await TestClient.plain(server)
            try await later.send("!login eli s3cret-pass")
            try await later.expect(
                "+2 points for your first visit today; today's fortune cookie is waiting — !fortune.")
        }
    }
}
