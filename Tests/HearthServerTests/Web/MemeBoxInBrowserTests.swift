import Foundation
import HearthTesting
import Testing

/// Placing a text from the maker on a phone, in headless Chromium: the "Place and style" fields
/// open, the preview follows them, the post makes the meme, and nothing is wider than the phone.
@Suite struct MemeBoxInBrowserTests {
    typealias Pages = PagesInBrowserTests.Pages

    @Test func placingATextOnAPhone() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            let short = try await MemeBoxTests.upload(ann)
            try await Chromium.withBrowser { browser in
                let pages = Pages(browser: browser, base: "http://127.0.0.1:\(server.httpPort)")
                try await pages.open("/signin?next=/make")
                try await AccountInBrowserTests.submit(
                    pages, "form.signin", ["name": "ann", "password": "s3cret-pass"], to: "/make")
                #expect(try await pages.overflowOnAPhone("/make?picture=\(short)") == nil)
                try await browser.evaluate("document.querySelector('details.box-options').open = true; true")
                for (name, value) in [("x1", "2"), ("y1", "2"), ("w1", "46"), ("h1", "30"), ("color1", "red")] {
                    try await browser.evaluate(MemeMakerInBrowserTests.type(name, value))
                }
                try await browser.evaluate(MemeMakerInBrowserTests.type("text1", "placed here"))
                try await browser.waitUntil(MemeMakerInBrowserTests.previewShows("color1=red"), timeout: 10)
                let fits = try await browser.evaluate("document.documentElement.scrollWidth <= innerWidth")
                #expect(fits == "true")
                try await pages.screenshot("maker-box-phone.png")
                try await pages.follow("document.querySelector('form[data-preview] button').click()", to: "/m/1")
                try await ann.send("!meme show 1")
                try await ann.expect("“placed here")
                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}
