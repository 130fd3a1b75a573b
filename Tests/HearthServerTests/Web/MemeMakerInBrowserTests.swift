import Foundation
import HearthTesting
import Testing

/// The meme maker in a real headless Chromium: sign in → a meme from a template with its live
/// preview → like → comment; a photo dropped on the maker → a meme from it; follow someone from
/// their page. On a desktop and a phone, with no console error, no content-policy violation and
/// nothing wider than the phone.
@Suite struct MemeMakerInBrowserTests {
    typealias Pages = PagesInBrowserTests.Pages

    /// Types `text` into the maker's field `name` as a person would (an input event).
    static func type(_ name: String, _ text: String) -> String {
        "(i => { i.value = \(Chromium.literal(text)); i.dispatchEvent(new Event('input', { bubbles: true })); })"
            + "(document.querySelector('form[data-preview]').elements[\(Chromium.literal(name))]); true"
    }

    /// The preview shows `part` in its query, drawn and loaded.
    static func previewShows(_ part: String) -> String {
        "(i => i.getAttribute('src').includes(\(Chromium.literal(part))) && i.complete && i.naturalWidth > 0"
            + " && !i.classList.contains('loading'))(document.getElementById('preview'))"
    }

    @Test func makingAMemeInABrowser() async throws {
        try await withServer { server in
            let alice = try await TestClient.user(server, "alice")
            _ = try await TestClient.user(server, "bob")
            try await Chromium.withBrowser { browser in
                let pages = Pages(browser: browser, base: "http://127.0.0.1:\(server.httpPort)")
                try await pages.open("/signin?next=/make")
                try await AccountInBrowserTests.submit(
                    pages, "form.signin", ["name": "alice", "password": "s3cret-pass"], to: "/make")
                #expect(try await pages.title() == "Make a meme · Hearth")
                let all = try await pages.count(".template-grid#templates a.template")
                #expect(all > 5)
                // The search narrows the grid as one types.
                try await browser.evaluate(
                    "(q => { q.value = 'sun'; q.dispatchEvent(new Event('input')); })"
                        + "(document.querySelector('input[data-filter]')); true")
                let shown = try await pages.count("#templates a.template:not([hidden])")
                #expect(shown >= 1 && shown < all)
                try await pages.screenshot("maker-search.png")
                try await pages.follow("document.querySelector('a[href=\"/make?source=sunset\"]').click()", to: "/make")
                try await browser.evaluate(Self.type("text1", "when the build is green"))
                try await browser.waitUntil(Self.previewShows("text1=when"), timeout: 10)
                try await browser.evaluate(Self.type("text2", "on the first try"))
                try await browser.waitUntil(Self.previewShows("text2=on"), timeout: 10)
                try await pages.fit(width: Pages.desktop.width, mobile: false)
                try await pages.screenshot("maker-preview.png")
                try await pages.follow("document.querySelector('form[data-preview] button').click()", to: "/m/1")
                #expect(try await pages.text(".flash").hasPrefix("meme #1 by alice"))
                // Share and copy: the buttons the script shows; a copy says so.
                #expect(try await browser.evaluate("document.querySelector('[data-copy]').hidden") == "false")
                try await browser.evaluate("document.querySelector('[data-copy]').click(); true")
                try await browser.waitUntil("document.querySelector('[data-share-status]').textContent !== ''")
                try await pages.follow(
                    "document.querySelector('form[action=\"/m/1/like\"] button').click()", to: "/m/1")
                #expect(try await pages.text(".flash").contains("You like meme #1"))
                try await AccountInBrowserTests.submit(
                    pages, "form.comment-form", ["text": "made on the web"], to: "/m/1")
                #expect(try await pages.texts(".comment .text") == ["made on the web"])
                try await pages.screenshot("meme-made.png")

                // A photo dropped on the maker: uploaded, chosen, captioned, posted.
                try await pages.open("/make")
                try await pages.follow(
                    """
                    (async () => {
                      const c = document.createElement('canvas'); c.width = 480; c.height = 320;
                      const g = c.getContext('2d'); g.fillStyle = '#2a7'; g.fillRect(0, 0, 480, 320);
                      g.fillStyle = '#fc3'; g.beginPath(); g.arc(240, 160, 90, 0, 7); g.fill();
                      const blob = await new Promise(done => c.toBlob(done, 'image/png'));
                      const t = new DataTransfer(); t.items.add(new File([blob], 'sun.png', { type: 'image/png' }));
                      document.querySelector('.dropzone').dispatchEvent(
                        new DragEvent('drop', { dataTransfer: t, bubbles: true, cancelable: true }));
                    })()
                    """, to: "/make")
                #expect(try await pages.text(".flash").hasPrefix("Uploaded picture "))
                try await browser.evaluate(Self.type("text1", "my own sun"))
                try await browser.waitUntil(Self.previewShows("text1=my"), timeout: 10)
                try await pages.screenshot("maker-upload.png")
                try await pages.follow("document.querySelector('form[data-preview] button').click()", to: "/m/2")
                try await alice.send("!meme show 2")
                try await alice.expect("“my own sun”")

                // Follow bob from his page.
                try await pages.open("/u/bob")
                try await pages.follow("document.querySelector('form.follow button').click()", to: "/u/bob")
                #expect(try await pages.text(".flash") == "You now follow bob.")
                #expect(try await pages.text("form.follow button") == "Unfollow")
                try await pages.screenshot("profile-followed.png")
                try await pages.open("/u/alice")
                try await pages.screenshot("profile-own.png")

                // Phone width, dark: nothing wider than the screen.
                var wide: [String] = []
                for (path, name) in [
                    ("/make", "maker-phone-dark.png"), ("/make?source=sunset", "maker-editor-phone-dark.png"),
                    ("/m/1", "meme-made-phone-dark.png"), ("/u/bob", "profile-phone-dark.png"), ("/u/alice", nil),
                ] {
                    if let problem = try await pages.overflowOnAPhone(path, screenshot: name) { wide.append(problem) }
                }
                #expect(wide.isEmpty, "\(wide)")
                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}
