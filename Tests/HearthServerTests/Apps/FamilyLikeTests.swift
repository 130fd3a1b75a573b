import Foundation
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// The family page's Like button shows whether you like a post, and pressing it again takes
/// the like back (as a recipe's vote does); the gallery lists only the posts with a picture.
@Suite struct FamilyLikeTests {
    @Test func aPressedLikeUndoesAndTheGalleryHoldsOnlyPictures() async throws {
        try await withServer { server in
            let (_, _, web) = try await FamilyFormTests.rivers(server)
            let back = try await RecipeFormTests.uploadPhoto(web, next: "/family/1")
            let chosen = try await web.get(back)
            let picture = try #require(
                chosen.body.firstMatch(of: /<input type="hidden" name="picture" value="([0-9a-f]+)">/)?.1)
            _ = try await web.post("/family/1/post", form: ["text": "with a picture", "picture": String(picture)])
            _ = try await web.post("/family/1/post", form: ["text": "words only"])

            let bobWeb = WebBrowser(server)
            try await bobWeb.signIn("bob")
            var page = try await bobWeb.get("/family/1")
            #expect(page.body.contains(#"<button class="like" aria-pressed="false">♥ Like</button>"#))
            #expect(!page.body.contains(#"name="undo""#))
            _ = try await bobWeb.post("/family/1/p/1/like", form: [:])
            page = try await bobWeb.get("/family/1")
            #expect(page.body.contains(#"<button class="like on" aria-pressed="true">♥ You like this</button>"#))
            #expect(page.body.contains(#"<input type="hidden" name="undo" value="1">"#))
            #expect(page.body.contains("♥ 1 ·"))
            // Ann does not like it: her button is not pressed.
            #expect(!(try await web.get("/family/1")).body.contains("You like this"))
            // The pressed button sends undo: the like is taken back.
            _ = try await bobWeb.post("/family/1/p/1/like", form: ["undo": "1"])
            page = try await bobWeb.get("/family/1")
            #expect(!page.body.contains("You like this") && !page.body.contains("♥ 1 ·"))

            let gallery = try await bobWeb.get("/family/1/photos")
            #expect(gallery.status == 200)
            #expect(gallery.body.contains(#"<img src="/i/\#(picture)"#))
            #expect(gallery.body.contains("with a picture") && !gallery.body.contains("words only"))
        }
    }
}
