import Foundation
import HearthTesting
import Testing

/// The family story in a real headless Chromium, at a desktop's width and a phone's (dark):
/// sign in, post to the family with a photo, comment, like, switch family and back, share a
/// place by its typed name, open the gallery. No console errors, no content-policy violations,
/// nothing wider than the screen. Screenshots go to docs/screenshots (scripts/screenshots).
@Suite struct FamilyInBrowserTests {
    typealias Story = RecipeAndCookieInBrowserTests.Story
    typealias Screen = RecipeAndCookieInBrowserTests.Screen

    @Test func postWithAPhotoCommentLikeSwitchShareAPlaceAndOpenTheGallery() async throws {
        try await withServer { server in
            var first: [String: Int] = [:]
            for (number, name) in ["deskmum", "phonemum"].enumerated() {
                let member = try await TestClient.user(server, name)
                try await member.send("!tree new Rivers")
                try await member.expect("Invite code for Rivers: ")
                try await member.send("!tree new Hills")
                try await member.expect("You founded Hills.")
                first[name] = number * 2 + 1
            }
            try await Chromium.withBrowser { browser in
                let base = "http://127.0.0.1:\(server.httpPort)"
                var wide: [String] = []
                for (screen, name) in [(Screen.desktop, "deskmum"), (Screen.phone, "phonemum")] {
                    let story = Story(browser: browser, base: base, screen: screen)
                    if screen.mobile { try await browser.colorScheme("dark") }
                    let id = first[name]!
                    try await Self.familyStory(story, name: name, family: id, other: id + 1)
                    for path in ["/family/\(id)", "/family/\(id)/photos", "/family/\(id + 1)"] {
                        try await story.open(path)
                        if try await !story.fits() { wide.append("\(screen.name) \(path)") }
                    }
                    try await browser.colorScheme("light")
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

    static func familyStory(_ story: Story, name: String, family: Int, other: Int) async throws {
        let page = "/family/\(family)"
        try await story.open("/signin?next=\(page)")
        try await story.follow(
            story.fill("form.signin", "name", name) + story.fill("form.signin", "password", "s3cret-pass")
                + "document.querySelector('form.signin').requestSubmit()", to: page)
        // The photo, given to the file input as a phone's camera would.
        try await story.browser.evaluate(
            """
            new Promise(done => {
              const canvas = document.createElement('canvas');
              canvas.width = 480; canvas.height = 360;
              const g = canvas.getContext('2d');
              g.fillStyle = '#bfe0f4'; g.fillRect(0, 0, 480, 360);
              g.fillStyle = '#3c8c3c'; g.beginPath(); g.ellipse(240, 360, 300, 140, 0, 0, 7); g.fill();
              canvas.toBlob(blob => {
                const files = new DataTransfer();
                files.items.add(new File([blob], 'hills.png', { type: 'image/png' }));
                document.querySelector('form.photo-form input[type=file]').files = files.files;
                done(true);
              }, 'image/png');
            })
            """)
        try await story.follow("document.querySelector('form.photo-form').requestSubmit()", to: page)
        #expect(try await story.count("form.post-form input[name=picture]") == 1)
        try await story.follow(
            story.fill("form.post-form", "text", "The hills this morning")
                + "document.querySelector('form.post-form').requestSubmit()", to: page)
        #expect(try await story.count(".post figure img") == 1)
        try await story.follow(
            story.fill("form.comment-form", "text", "Lovely!")
                + "document.querySelector('form.comment-form').requestSubmit()", to: page)
        #expect(try await story.text(".post .comment").contains("Lovely!"))
        try await story.follow("document.querySelector('form.like-form button').click()", to: page)
        #expect(try await story.text("button.like.on") == "♥ You like this")
        try await story.screenshot("family")

        // Switch to the other family and back.
        try await story.follow("document.querySelector('nav.families a').click()", to: "/family/\(other)")
        try await story.follow("document.querySelector('nav.families a').click()", to: page)

        // A place by its typed name: consent first.
        try await story.follow(
            "document.querySelector('form[action$=\"/place\"] input[name=sharing][value=on]').form.requestSubmit()",
            to: page)
        try await story.follow(
            story.fill("form[data-geolocate]", "place", "Paris")
                + "document.querySelector('form[data-geolocate]').requestSubmit()", to: page)
        #expect(try await story.text(".flash").contains("Paris"))
        try await story.screenshot("family-place")

        try await story.open("\(page)/photos")
        #expect(try await story.count("img") >= 1)
        try await story.screenshot("family-gallery")
    }
}
