import Foundation
import HearthTesting
import Testing

/// The recipe and cookie stories in a real headless Chromium, at a phone's width and a
/// desktop's: sign in, write a recipe with a photo (taken through the page's file input), save
/// it, vote it up, see it as a card; open today's cookie and see its card, the time left and
/// the map. No console errors, no content-policy violations, nothing wider than the screen.
/// Screenshots go where `ChatPageTests` puts its own (scripts/screenshots: docs/screenshots).
@Suite struct RecipeAndCookieInBrowserTests {
    static let saying = "A recipe shared is a meal doubled."

    struct Screen {
        let name: String
        let width: Int
        let height: Int
        let mobile: Bool
        static let phone = Screen(name: "phone", width: 390, height: 844, mobile: true)
        static let desktop = Screen(name: "desktop", width: 1200, height: 900, mobile: false)
    }

    /// The browser at one screen size, and the steps the stories take.
    struct Story {
        let browser: Chromium
        let base: String
        let screen: Screen

        func open(_ path: String) async throws {
            try await browser.navigate(to: base + path)
            try await fit()
        }

        /// As tall as the page (a screenshot holds all of it), its pictures loaded.
        func fit() async throws {
            try await browser.emulate(width: screen.width, height: screen.height, mobile: screen.mobile)
            let height = Int(try await browser.evaluate("document.documentElement.scrollHeight")) ?? screen.height
            try await browser.emulate(
                width: screen.width, height: min(max(height, screen.height), 4000), mobile: screen.mobile)
            try await browser.waitUntil("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
        }

        /// Runs `action` (which leaves the page) and waits for the page at `path`.
        func follow(_ action: String, to path: String) async throws {
            try await browser.evaluate("window.__hearthOldPage = true; { \(action) } true")
            try await browser.waitUntil(
                "!window.__hearthOldPage && document.readyState === 'complete' "
                    + "&& location.pathname === \(Chromium.literal(path))", timeout: 30)
            try await fit()
        }

        func text(_ selector: String) async throws -> String {
            try await browser.evaluate(
                "(document.querySelector(\(Chromium.literal(selector)))?.textContent ?? '')"
                    + ".replace(/\\s+/g, ' ').trim()")
        }

        func count(_ selector: String) async throws -> Int {
            Int(try await browser.evaluate("document.querySelectorAll(\(Chromium.literal(selector))).length")) ?? -1
        }

        /// Nothing is wider than the screen.
        func fits() async throws -> Bool {
            try await browser.evaluate("document.documentElement.scrollWidth <= innerWidth") == "true"
        }

        func screenshot(_ name: String) async throws {
            try await browser.screenshot(to: ChatPageTests.screenshotPath("\(name)-\(screen.name).png"))
        }

        /// Fills `field` of the form `form` (a CSS selector) with `value`.
        func fill(_ form: String, _ field: String, _ value: String) -> String {
            "document.querySelector(\(Chromium.literal(form + " [name=" + field + "]"))).value = "
                + "\(Chromium.literal(value));"
        }
    }

    @Test func writeARecipeWithAPhotoSaveItVoteAndOpenACookie() async throws {
        // Now, held still (the page's script counts down on the browser's own clock).
        let clock = TestClock(ISO8601DateFormatter().string(from: Date()))
        try await stopping(try await FortuneTests.start(clock, sayings: [Self.saying])) { server in
            for name in ["deskcook", "phonecook"] { _ = try await TestClient.user(server, name) }
            try await Chromium.withBrowser { browser in
                let base = "http://127.0.0.1:\(server.httpPort)"
                var wide: [String] = []
                for (number, (screen, cook)) in [(Screen.desktop, "deskcook"), (Screen.phone, "phonecook")]
                    .enumerated()
                {
                    let story = Story(browser: browser, base: base, screen: screen)
                    try await Self.recipeStory(story, cook: cook, recipe: number + 1)
                    try await Self.cookieStory(story, cook: cook)
                    for path in [
                        "/recipes/new", "/r/\(number + 1)", "/r/\(number + 1)/edit", "/recipes", "/recipes/saved",
                        "/fortunes/\(cook)", "/fortunes",
                    ] {
                        try await story.open(path)
                        if try await !story.fits() { wide.append("\(screen.name) \(path)") }
                    }
                    if screen.mobile {  // dark, on a phone: the cookie and the recipe
                        try await browser.colorScheme("dark")
                        let shots = [("/fortunes/\(cook)", "cookie-dark"), ("/r/\(number + 1)", "recipe-dark")]
                        for (path, name) in shots {
                            try await story.open(path)
                            try await story.screenshot(name)
                        }
                        try await browser.colorScheme("light")
                    }
                    // Signed out for the next one.
                    try await story.open("/")
                    try await story.follow(
                        "document.querySelector('form[action=\"/signout\"] button').click()", to: "/")
                }
                #expect(wide.isEmpty, "wider than the screen: \(wide)")
                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }

    /// Signs in, writes a recipe with a photo, saves it and votes it up; it is recipe `recipe`.
    static func recipeStory(_ story: Story, cook: String, recipe: Int) async throws {
        try await story.open("/signin?next=/recipes")
        try await story.follow(
            story.fill("form.signin", "name", cook) + story.fill("form.signin", "password", "s3cret-pass")
                + "document.querySelector('form.signin').requestSubmit()", to: "/recipes")
        try await story.follow("document.querySelector('a[href=\"/recipes/new\"]').click()", to: "/recipes/new")
        try await story.screenshot("recipe-editor")

        // The photo: a picture drawn in a canvas, given to the file input as a phone's camera would.
        try await story.browser.evaluate(
            """
            new Promise(done => {
              const canvas = document.createElement('canvas');
              canvas.width = 480; canvas.height = 360;
              const g = canvas.getContext('2d');
              g.fillStyle = '#f4e2c6'; g.fillRect(0, 0, 480, 360);
              g.fillStyle = '#7a3c1e'; g.beginPath(); g.ellipse(240, 190, 200, 130, 0, 0, 7); g.fill();
              g.fillStyle = '#d6442a'; g.beginPath(); g.ellipse(240, 175, 180, 105, 0, 0, 7); g.fill();
              g.fillStyle = '#3c8c3c';
              for (const [x, y] of [[190, 150], [260, 190], [300, 140], [220, 210]]) {
                g.beginPath(); g.ellipse(x, y, 18, 10, 0.5, 0, 7); g.fill();
              }
              canvas.toBlob(blob => {
                const files = new DataTransfer();
                files.items.add(new File([blob], 'soup.png', { type: 'image/png' }));
                document.querySelector('form.photo-form input[type=file]').files = files.files;
                done(true);
              }, 'image/png');
            })
            """)
        try await story.follow("document.querySelector('form.photo-form').requestSubmit()", to: "/recipes/new")
        #expect(try await story.count("form.photo-form img") == 1)
        #expect(try await story.count("form.recipe-form input[name=photo]") == 1)
        try await story.follow(
            story.fill("form.recipe-form", "title", "Tomato basil soup")
                + story.fill("form.recipe-form", "ingredients", "4 ripe tomatoes\n1 onion\na handful of basil")
                + story.fill("form.recipe-form", "steps", "Soften the onion.\nAdd the tomatoes; simmer 20 minutes.")
                + story.fill("form.recipe-form", "tags", "italian vegan")
                + "document.querySelector('form.recipe-form').requestSubmit()", to: "/r/\(recipe)")
        #expect(try await story.text("article.recipe h1") == "Tomato basil soup")
        #expect(try await story.count("ul.ingredients li") == 3)
        #expect(try await story.count("article.recipe figure img") == 1)
        #expect(try await story.text(".flash").hasPrefix("Recipe #\(recipe) “Tomato basil soup” is posted"))

        try await story.follow("document.querySelector('form[action$=\"/save\"] button').click()", to: "/r/\(recipe)")
        #expect(try await story.text("form[action$='/save'] button") == "★ Saved")
        try await story.follow(
            "document.querySelector('form[action$=\"/vote\"] button.vote').click()", to: "/r/\(recipe)")
        #expect(try await story.text("button.vote.on") == "▲ You voted up")
        #expect(try await story.text(".counts").contains("score 1"))
        try await story.screenshot("recipe-saved-voted")

        try await story.open("/recipes/saved")
        #expect(try await story.text(".recipe-card a.title") == "Tomato basil soup")
        try await story.open("/recipes")
        #expect(try await story.count(".recipe-card .photo img") >= 1)
        try await story.screenshot("recipe-cards")
    }

    /// Opens today's cookie from the page, in Paris: its card, the time left, the map.
    static func cookieStory(_ story: Story, cook: String) async throws {
        try await story.open("/fortunes/\(cook)")
        #expect(try await story.count("form.cookie.closed") == 1)
        try await story.follow(
            story.fill("form.cookie", "place", "Paris") + "document.querySelector('form.cookie button').click()",
            to: "/fortunes/\(cook)")
        #expect(try await story.count(".flash") == 0)  // the card says it
        #expect(try await story.text("article.cookie blockquote.saying") == "“\(saying)”")
        #expect(try await story.count("article.cookie .lucky .number") == 6)
        #expect(try await story.text("article.cookie .meta").contains("opened in Paris"))
        // The script keeps the server's words ("7h 12m"), ticking.
        let left = try await story.text(".countdown time.left")
        #expect(left.wholeMatch(of: /(\d+h( \d+m)?|\d+m|under a minute)/) != nil, "\(left)")
        #expect(try await story.count("figure.map img") == 1)
        try await story.screenshot("cookie")
        try await story.open("/fortunes")
        #expect(try await story.count(".fortune-map figure img") == 1)
        try await story.screenshot("fortune-map-zoomed")
    }
}
