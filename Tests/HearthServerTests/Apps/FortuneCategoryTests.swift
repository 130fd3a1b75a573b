import Foundation
import HearthTesting
import Testing

/// Issue 40: categories of sayings — `!fortune science`, `!set fortunes wisdom,science`, and an
/// operator's strfile files and folders as categories.
@Suite struct FortuneCategoryTests {
    static let science = ["Atoms are mostly empty.", "Check your units.", "Light is fast."]
    static let wisdom = ["Patience makes better tea.", "Let today be enough."]
    static let poems = ["Roses grow.", "Rain falls.", "Snow melts."]

    /// A fortunes folder as an operator keeps it: strfile files (with their .dat indexes) and a
    /// folder of them.
    static func start(_ clock: TestClock, configure: (inout TestConfig) -> Void = { _ in }) async throws
        -> TestServer
    {
        let directory = TestServer.tempDirectory()
        func write(_ sayings: [String], _ path: String) throws {
            try (sayings.joined(separator: "\n%\n") + "\n%\n").write(
                toFile: directory + "/" + path, atomically: true, encoding: .utf8)
        }
        try write(science, "science")
        try Data([0, 0, 0, 2]).write(to: URL(fileURLWithPath: directory + "/science.dat"))
        try write(wisdom, "Wisdom")
        try FileManager.default.createDirectory(atPath: directory + "/poems", withIntermediateDirectories: true)
        try write(Array(poems.prefix(2)), "poems/spring")
        try write(Array(poems.suffix(1)), "poems/winter")
        return try await TestServer.start { config in
            config.clock = clock.hearth
            config.apps.fortunesDirectory = directory
            config.apps.builtinFortunes = false
            configure(&config)
        }
    }

    static func saying(_ line: String) -> String {
        String(line.split(separator: "“").last!.split(separator: "”").first!)
    }

    @Test func aCategoryAskedForOrChosenInTheSettings() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            let ivy = try await TestClient.user(server, "ivy")
            try await ivy.send("!fortune categories")
            // Users' sayings are categories too (none written yet).
            try await ivy.expect(
                "Fortune categories: by-friends (0) · community (0) · poems (3) · science (3) · wisdom (2)")
            try await ivy.expect("yours: all")
            try await ivy.send("!fortune scince")
            try await ivy.expect("there is no fortune category \"scince\" — did you mean science?")
            try await ivy.send("!fortune science tomorrow")
            try await ivy.expect("tomorrow? Give a place as @LAT,LON or @City")
            try await ivy.send("!fortune science @Lyon")
            let opened = try await ivy.expect("Your fortune for Wednesday 1 July (science): “")
            #expect(Self.science.contains(Self.saying(opened)))
            try await ivy.expect("opened in Lyon")

            try await ivy.send("!set fortunes astrology")
            // A sentence each: the unknown name, the list, where a place goes.
            try await ivy.expect(
                "there is no fortune category \"astrology\". Categories: by-friends, community, poems, science, "
                    + "wisdom. Give a place as @LAT,LON or @City")
            try await ivy.send("!set fortunes Wisdom,POEMS,wisdom")
            try await ivy.expect("fortunes is now wisdom,poems")
            try await ivy.send("!settings")
            try await ivy.expect("fortunes wisdom,poems (all or CATEGORY,CATEGORY)")
            // Five days from the chosen categories only: every one of their five sayings once.
            var seen: Set<String> = []
            for day in 2...6 {
                clock.set("2026-07-0\(day)T09:00:00Z")
                try await ivy.send("!fortune")
                let line = try await ivy.expect("Your fortune for")
                #expect(line.contains("(wisdom)") || line.contains("(poems)"), "\(line)")
                seen.insert(Self.saying(line))
            }
            #expect(seen == Set(Self.wisdom + Self.poems))
            try await ivy.send("!set fortunes all")
            try await ivy.expect("fortunes is now all")
        }
    }

    /// The page's form offers the categories and opens the cookie from the one chosen.
    @Test func theWebFormOpensACookieFromACategory() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await Self.start(clock)) { server in
            _ = try await TestClient.user(server, "ora")
            let browser = WebBrowser(server)
            try await browser.signIn("ora")
            var page = try await browser.get("/fortunes")
            #expect(page.body.contains("<option>science</option>") && page.body.contains("<option>poems</option>"))
            let refused = try await browser.post("/fortunes", form: ["category": "science @Lyon"])
            #expect(refused.status == 303)
            page = try await browser.get("/fortunes")
            #expect(page.body.contains("there is no fortune category"))
            let opened = try await browser.post("/fortunes", form: ["category": "science", "place": "Lyon"])
            #expect(opened.status == 303 && opened.location == "/fortunes/ora")
            page = try await browser.get("/fortunes/ora")
            let saying = try #require(page.body.firstMatch(of: /<blockquote class="saying">“(.*?)”/)?.1)
            #expect(Self.science.contains(String(saying)) && page.body.contains("opened in Lyon"))
        }
    }
}
