import Foundation
import HearthTesting
import Testing

/// The family page's GEDCOM form in a real headless Chromium: a .ged file chosen in its file
/// input is sent as a file (multipart, no script needed), the import answers above the page, and
/// the people are in the tree; both download links (5.5.1, 7.0) are there. No console errors,
/// nothing wider than a phone.
@Suite struct FamilyGEDCOMInBrowserTests {
    typealias Story = RecipeAndCookieInBrowserTests.Story

    @Test func aChosenFileIsImportedFromTheFamilyPage() async throws {
        try await withServer { server in
            let ann = try await TestClient.user(server, "ann")
            try await ann.send("!tree new Rivers")
            try await ann.expect("Invite code for Rivers: ")
            try await Chromium.withBrowser { browser in
                let story = Story(
                    browser: browser, base: "http://127.0.0.1:\(server.httpPort)",
                    screen: RecipeAndCookieInBrowserTests.Screen.phone)
                try await story.open("/signin?next=/family/1")
                try await story.follow(
                    story.fill("form.signin", "name", "ann") + story.fill("form.signin", "password", "s3cret-pass")
                        + "document.querySelector('form.signin').requestSubmit()", to: "/family/1")
                #expect(try await story.count("a[download][href^=\"/family/1/tree.ged\"]") == 2)
                #expect(try await story.count("a[download][href$=\"&version=7\"]") == 1)
                let file = Chromium.literal(FamilyGEDCOMStoryTests.elsewhere)
                try await browser.evaluate(
                    """
                    const files = new DataTransfer();
                    files.items.add(new File([\(file)], 'dupont.ged', { type: 'text/plain' }));
                    const input = document.querySelector('form.import-form input[type=file]');
                    input.files = files.files;
                    true
                    """)
                try await story.follow("document.querySelector('form.import-form').requestSubmit()", to: "/family/1")
                #expect(try await story.text(".flash").contains("Imported into Rivers: 3 people added"))
                #expect(try await story.text("section.people").contains("Jean Dupont, born 1900 in Saint-Étienne"))
                #expect(try await story.fits())
                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}
