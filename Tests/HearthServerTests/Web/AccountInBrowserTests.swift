import Foundation
import HearthTesting
import Testing

/// A person's account from sign-up to deletion in a real headless Chromium, through the forms
/// alone: sign up → the recovery codes → a setting and a profile picture → sign out
/// everywhere → forgot password with a code → delete the account. On a desktop and a phone,
/// with no console error, no content-policy violation and nothing wider than the phone.
@Suite struct AccountInBrowserTests {
    typealias Pages = PagesInBrowserTests.Pages

    /// Fills a form's fields (by name) and presses its button; waits for the page at `path`.
    static func submit(_ pages: Pages, _ form: String, _ fields: [String: String], to path: String) async throws {
        var script = "const f = document.querySelector(\(Chromium.literal(form)));"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            script += "f.elements[\(Chromium.literal(name))].value = \(Chromium.literal(value));"
        }
        try await pages.follow(script + "f.querySelector('button').click();", to: path)
    }

    @Test func anAccountFromSignUpToDeletion() async throws {
        try await withServer { server in
            let nc = try await TestClient.user(server, "alice")
            try await nc.send("!set privacy public")
            try await nc.expect("privacy is now public")
            try await nc.send("!meme success signed up | on a phone")
            try await nc.expect("meme #1 by alice")
            try await Chromium.withBrowser { browser in
                let pages = Pages(browser: browser, base: "http://127.0.0.1:\(server.httpPort)")
                try await pages.open("/")
                #expect(try await pages.title() == "Hearth")
                #expect(try await pages.loadedPictures(".home-memes img") == 1)
                // The site is an app: its worker takes the offline shell.
                #expect(
                    try await browser.evaluate(
                        "navigator.serviceWorker.ready.then(r => r.active ? r.scope : '')") == pages.base + "/")
                try await pages.screenshot("home-visitor.png")

                try await pages.open("/signup")
                try await pages.screenshot("signup.png")
                try await Self.submit(
                    pages, "form[action='/signup']",
                    [
                        "name": "dora", "password": "s3cret pass", "password2": "s3cret pass",
                        "email": "dora@example.org",
                    ],
                    to: "/welcome")
                let codes = try await pages.texts("ol.recovery code")
                #expect(codes.count == 8)
                #expect(try await pages.text("header .who").contains("dora"))
                try await pages.screenshot("signup-codes.png")
                // "I have saved these codes" must be ticked to go on.
                try await browser.evaluate("document.querySelector('form.saved button').click()")
                #expect(try await browser.evaluate("location.pathname") == "/welcome")
                try await pages.follow(
                    "document.querySelector('form.saved input').checked = true;"
                        + "document.querySelector('form.saved button').click()", to: "/settings")

                try await Self.submit(pages, "form.settings", ["tz": "Europe/Paris", "color": "on"], to: "/settings")
                #expect(try await pages.text(".flash").contains("tz is now Europe/Paris"))
                // A wide picture, chosen in the file input; the slider picks its right end.
                try await browser.evaluate(
                    """
                    (async () => {
                      const c = document.createElement('canvas'); c.width = 300; c.height = 100;
                      const g = c.getContext('2d');
                      [['#e11', 0], ['#1a1', 100], ['#11e', 200]].forEach(([s, x]) => {
                        g.fillStyle = s; g.fillRect(x, 0, 100, 100); });
                      const blob = await new Promise(done => c.toBlob(done, 'image/png'));
                      const t = new DataTransfer(); t.items.add(new File([blob], 'me.png', { type: 'image/png' }));
                      const f = document.querySelector('form.avatar-form');
                      f.elements.picture.files = t.files;
                      f.elements.picture.dispatchEvent(new Event('change'));
                      f.elements.focus.value = 100; f.elements.focus.dispatchEvent(new Event('input'));
                    })()
                    """)
                try await browser.waitUntil("!document.querySelector('canvas.crop-preview').hidden")
                try await pages.follow("document.querySelector('form.avatar-form button').click()", to: "/settings")
                #expect(try await pages.text(".flash") == "Your profile picture is changed.")
                #expect(try await pages.loadedPictures("img.avatar.large") == 1)
                // A circle: a square box, rounded by half.
                #expect(
                    try await browser.evaluate(
                        "(s => s.width === s.height && s.borderRadius === '50%')"
                            + "(getComputedStyle(document.querySelector('img.avatar.large')))") == "true")
                try await pages.screenshot("settings.png")

                try await pages.follow(
                    "document.querySelector('form[action=\"/signout/all\"] button').click()", to: "/")
                #expect(try await pages.text(".flash").hasPrefix("Signed out everywhere"))
                #expect(try await pages.text("header .who").contains("Sign in"))

                try await pages.open("/recover")
                try await Self.submit(
                    pages, "form[action='/recover']",
                    ["name": "dora", "code": codes[2], "password": "n3w-pass", "password2": "n3w-pass"],
                    to: "/settings")
                #expect(try await pages.text(".flash").contains("Password reset for dora"))
                try await pages.screenshot("recovered.png")

                // Phone width, dark: nothing wider than the screen on any account page.
                var wide: [String] = []
                for (path, name) in [
                    ("/settings", "settings-phone-dark.png"), ("/", "home-phone-dark.png"), ("/signup", nil),
                    ("/recover", nil), ("/welcome", nil),
                ] {
                    if let problem = try await pages.overflowOnAPhone(path, screenshot: name) { wide.append(problem) }
                }
                #expect(wide.isEmpty, "\(wide)")

                try await pages.open("/settings")
                try await Self.submit(
                    pages, "form[action='/settings/delete']", ["confirm": "dora", "password": "n3w-pass"], to: "/")
                #expect(try await pages.text(".flash").hasPrefix("Your account dora and everything"))
                try await pages.screenshot("deleted.png")

                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}
