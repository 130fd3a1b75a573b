import Foundation
import HearthTesting
import Testing

@testable import HearthApps
@testable import HearthServer

/// Writing, changing, saving and voting on recipes from the web: each form is the command it
/// stands for (`!recipe new` with the recipe as its block, `!recipe edit ID`, `!save`, `!up`),
/// so the limits, the rules and who may do what are chat's.
@Suite struct RecipeFormTests {
    static let hostile = "Soup <script>alert(1)</script>"

    /// The fields of a recipe form: a title, ingredient and step lists, tags.
    static func recipe(
        title: String = hostile, ingredients: [String] = ["4 tomatoes", "<img src=x onerror=alert(2)> salt"],
        steps: [String] = ["Chop.", "Simmer for 20 minutes."], tags: String = "italian vegan"
    ) -> [String: String] {
        [
            "title": title, "ingredients": ingredients.joined(separator: "\r\n"),
            "steps": steps.joined(separator: "\r\n"), "tags": tags,
        ]
    }

    /// Uploads a picture through the page's photo form (the server's `/pictures`); returns
    /// where it leads (`next?picture=ID`).
    static func uploadPhoto(_ browser: WebBrowser, next: String) async throws -> String {
        let (body, headers) = MemeMakerTests.uploadForm(
            csrf: browser.cookies["hearth_csrf"], file: Web.samplePNG(), next: next)
        let answer = try await browser.send("POST", "/pictures", body: body, headers: headers)
        #expect(answer.status == 303)
        return try #require(answer.location)
    }

    @Test func aRecipeWrittenOnTheWebWithAPhotoIsTheCommandsRecipe() async throws {
        try await withServer { server in
            let cook = try await TestClient.user(server, "cook")
            let browser = WebBrowser(server)
            try await browser.signIn("cook")
            var page = try await browser.get("/recipes/new")
            #expect(page.status == 200)
            #expect(page.body.contains(#"<form method="post" action="/recipes/new""#))
            #expect(page.body.contains(#"maxlength="\#(RecipeCommands.maxTitle)""#))
            #expect(page.body.contains(#"<form method="post" action="/pictures" enctype="multipart/form-data""#))

            // The photo first: it comes back to the form, chosen.
            let back = try await Self.uploadPhoto(browser, next: "/recipes/new")
            #expect(back.hasPrefix("/recipes/new?picture="))
            page = try await browser.get(back)
            let photo = try #require(
                page.body.firstMatch(of: /<input type="hidden" name="photo" value="([0-9a-f]+)">/)?.1)
            #expect(page.body.contains(#"<img src="/i/\#(photo)."#))

            var fields = Self.recipe()
            fields["photo"] = String(photo)
            let posted = try await browser.post("/recipes/new", form: fields)
            #expect(posted.status == 303 && posted.location == "/r/1")
            page = try await browser.get("/r/1")
            #expect(page.body.contains("<h1>Soup &lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
            #expect(page.body.contains("<li>&lt;img src=x onerror=alert(2)&gt; salt</li>"))
            #expect(!page.body.contains("<script>alert") && !page.body.contains("<img src=x"))
            #expect(page.body.contains(#"<ol class="steps"><li>Chop.</li><li>Simmer for 20 minutes.</li></ol>"#))
            #expect(page.body.contains(#"<img src="/i/\#(photo)."#))
            #expect(page.body.contains(#"<a class="button" href="/r/1/edit">"#))  // the author may edit it

            // Chat sees the same recipe, said by cook.
            try await cook.send("!recipe 1")
            try await cook.expect("#1 \(Self.hostile) by cook · score 0 (▲0 ▼0) · 0 comments · italian vegan")
            try await cook.expect("photo: http")
            try await cook.expect("• <img src=x onerror=alert(2)> salt")

            // Lists show it as a card with its photo.
            for list in ["/recipes", "/recipes/search?q=soup"] {
                let cards = try await WebBrowser(server).get(list).body
                #expect(cards.contains(#"<a class="photo" href="/r/1"><img src="/i/\#(photo)."#), "\(list)")
                #expect(cards.contains(#"<a class="title" href="/r/1">Soup &lt;script&gt;"#), "\(list)")
            }
        }
    }

    @Test func aRecipeDraftInChatIsLeftAlone() async throws {
        try await withServer { server in
            let cook = try await TestClient.user(server, "cook")
            try await cook.send("!recipe new")
            try await cook.expect("What is the recipe called?")
            try await cook.send("Half-written stew")
            try await cook.expect("Title: “Half-written stew”")
            let browser = WebBrowser(server)
            try await browser.signIn("cook")
            _ = try await browser.get("/recipes/new")
            let posted = try await browser.post("/recipes/new", form: Self.recipe(title: "Web soup"))
            #expect(posted.status == 303 && posted.location == "/r/1")
            try await cook.send("!recipe new")
            try await cook.expect("You have your draft “Half-written stew” (0 ingredients, 0 steps)")
        }
    }

    /// Each limit crossed by one: a clear message on the form's page, and nothing published.
    @Test func theLimitsAreChatsAndNothingIsPublishedPastThem() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "cook")
            let browser = WebBrowser(server)
            try await browser.signIn("cook")
            _ = try await browser.get("/recipes/new")
            let long = String(repeating: "a", count: RecipeCommands.maxLine + 1)
            let tooMany = (0...RecipeCommands.maxIngredients).map { "item \($0)" }
            let cases: [([String: String], String)] = [
                (
                    Self.recipe(title: String(repeating: "t", count: RecipeCommands.maxTitle + 1)),
                    "the title: a title may have \(RecipeCommands.maxTitle) characters"
                ),
                (Self.recipe(title: ""), "the title: the recipe needs a title"),
                (
                    Self.recipe(ingredients: tooMany),
                    "ingredient \(RecipeCommands.maxIngredients + 1): a recipe may have"
                ),
                (
                    Self.recipe(steps: (0...RecipeCommands.maxSteps).map { "step \($0)" }),
                    "step \(RecipeCommands.maxSteps + 1): a recipe may have \(RecipeCommands.maxSteps) steps"
                ),
                (
                    Self.recipe(ingredients: ["salt", long]),
                    "ingredient 2: that line has \(RecipeCommands.maxLine + 1) characters"
                ),
                (Self.recipe(ingredients: []), "the ingredients: add at least one ingredient first"),
                (Self.recipe(steps: ["", " "]), "the steps: add at least one step first"),
                (
                    Self.recipe(tags: (0...RecipeCommands.maxTags).map { "t\($0)" }.joined(separator: " ")),
                    "the tags: tags are up to \(RecipeCommands.maxTags) words"
                ),
                (
                    Self.recipe().merging(["photo": "deadbeef"]) { $1 },
                    "the photo: you have no picture deadbeef"
                ),
            ]
            for (form, message) in cases {
                // The form again, with the answer and everything typed: nothing is lost.
                let answer = try await browser.post("/recipes/new", form: form)
                #expect(answer.status == 422, "\(message)")
                let problem = try #require(
                    answer.body.firstMatch(of: /<p class="problem" role="alert">([^<]*)<\/p>/)?.1)
                #expect(problem.contains(message), "\(problem)")
                let typed = WebEscaping.escape(form["ingredients"] ?? "")
                #expect(answer.body.contains(">" + typed + "</textarea>"), "\(message)")
                #expect(answer.body.contains(#"value="\#(WebEscaping.escape(form["title"] ?? ""))""#))
            }
            #expect(try await WebBrowser(server).get("/r/1").status == 404)

            // At the limits exactly, it is published.
            let full = Self.recipe(
                title: String(repeating: "t", count: RecipeCommands.maxTitle),
                ingredients: (1...RecipeCommands.maxIngredients).map {
                    "\($0) " + String(repeating: "i", count: 200)
                },
                steps: (1...RecipeCommands.maxSteps).map { _ in
                    String(repeating: "é", count: RecipeCommands.maxLine)
                })
            let posted = try await browser.post("/recipes/new", form: full)
            #expect(posted.location == "/r/1")
            let shown = try await browser.get("/r/1")
            #expect(shown.body.components(separatedBy: "<li>").count - 1 >= RecipeCommands.maxIngredients)

            // A form over its byte limit is refused whole.
            var huge = Self.recipe()
            huge["steps"] = String(repeating: "x", count: WebLimits.maxLongFormBytes)
            #expect(try await browser.post("/recipes/new", form: huge).status == 413)
            // A short form keeps its smaller limit.
            let comment = String(repeating: "x", count: WebLimits.maxFormBytes)
            #expect(try await browser.post("/r/1/comment", form: ["text": comment]).status == 413)
        }
    }

    @Test func onlyTheCookChangesARecipeAndStrangersAndVisitorsAreRefused() async throws {
        try await withServer { server in
            _ = try await TestClient.user(server, "cook")
            _ = try await TestClient.user(server, "eve")
            let cook = WebBrowser(server)
            try await cook.signIn("cook")
            _ = try await cook.get("/recipes/new")
            let back = try await Self.uploadPhoto(cook, next: "/recipes/new")
            let photo = try #require(
                try await cook.get(back).body.firstMatch(of: /name="photo" value="([0-9a-f]+)"/)?.1)
            var fields = Self.recipe(title: "Tomato soup")
            fields["photo"] = String(photo)
            #expect(try await cook.post("/recipes/new", form: fields).location == "/r/1")

            // A visitor: asked to sign in, for the page and the form.
            let visitor = WebBrowser(server)
            #expect(try await visitor.get("/recipes/new").status == 401)
            #expect(try await visitor.get("/r/1/edit").status == 401)
            let refused = try await visitor.post("/r/1/edit", form: Self.recipe(title: "Mine now"))
            #expect(refused.status == 303 && refused.location == "/signin?next=%2Fr%2F1%2Fedit")
            #expect(try await visitor.post("/recipes/new", form: Self.recipe()).location?.hasPrefix("/signin") == true)

            // A stranger: no edit page, and the form changes nothing.
            let eve = WebBrowser(server)
            try await eve.signIn("eve")
            let forbidden = try await eve.get("/r/1/edit")
            #expect(forbidden.status == 403 && forbidden.body.contains("only they may change it"))
            _ = try await eve.get("/r/1")
            #expect(!(try await eve.get("/r/1").body.contains("/r/1/edit")))
            let stranger = try await eve.post("/r/1/edit", form: Self.recipe(title: "Eve's soup"))
            #expect(stranger.status == 403 && stranger.body.contains("only they may change it"))
            // Without the CSRF token: refused before anything runs, even for the cook.
            #expect(try await cook.post("/r/1/edit", form: Self.recipe(title: "x"), csrf: false).status == 403)
            #expect(try await cook.post("/recipes/new", form: Self.recipe(title: "x"), csrf: false).status == 403)
            #expect(try await cook.get("/r/1").body.contains("<h1>Tomato soup</h1>"))

            // The cook's edit page holds the recipe; a change keeps the photo unless it is dropped.
            let edit = try await cook.get("/r/1/edit")
            #expect(edit.status == 200 && edit.body.contains(#"value="Tomato soup""#))
            #expect(edit.body.contains(">4 tomatoes\n&lt;img src=x onerror=alert(2)&gt; salt</textarea>"))
            #expect(edit.body.contains(#"name="photo" value="\#(photo)"#))
            var changed = Self.recipe(title: "Tomato & basil <soup>", steps: ["Chop.", "Blend."], tags: "french")
            changed["photo"] = String(photo)
            let saved = try await cook.post("/r/1/edit", form: changed)
            #expect(saved.location == "/r/1")
            var page = try await cook.get("/r/1")
            #expect(page.body.contains("<h1>Tomato &amp; basil &lt;soup&gt;</h1>"))
            #expect(page.body.contains(#"<ol class="steps"><li>Chop.</li><li>Blend.</li></ol>"#))
            #expect(page.body.contains(#"<img src="/i/\#(photo)."#) && page.body.contains(">french</a>"))
            changed["nophoto"] = "1"
            _ = try await cook.post("/r/1/edit", form: changed)
            page = try await cook.get("/r/1")
            #expect(!page.body.contains(#"<img src="/i/"#))
        }
    }

    @Test func savingAndVotingShowWhatYouDid() async throws {
        try await withServer { server in
            let cook = try await TestClient.user(server, "cook")
            let fan = try await TestClient.user(server, "fan")
            let browser = WebBrowser(server)
            try await browser.signIn("cook")
            _ = try await browser.get("/recipes/new")
            #expect(try await browser.post("/recipes/new", form: Self.recipe(title: "Soup")).location == "/r/1")

            let web = WebBrowser(server)
            try await web.signIn("fan")
            var page = try await web.get("/r/1")
            #expect(page.body.contains(#"<button class="save" aria-pressed="false">☆ Save</button>"#))
            #expect(page.body.contains(#"<button class="vote" aria-pressed="false">▲ Vote up</button>"#))
            #expect(!page.body.contains("/r/1/edit"))  // not theirs

            _ = try await web.post("/r/1/save", form: ["saved": "1"])
            page = try await web.get("/r/1")
            #expect(page.body.contains("Recipe #1 saved"))
            #expect(page.body.contains(#"<button class="save on" aria-pressed="true">★ Saved</button>"#))
            #expect(page.body.contains(#"<input type="hidden" name="saved" value="0">"#))
            #expect(try await web.get("/recipes/saved").body.contains(#"<a class="title" href="/r/1">Soup</a>"#))
            try await fan.send("!saved")
            try await fan.expect("Saved recipes")
            try await fan.expect("#1  Soup  by cook")

            // A vote said in chat shows on the page; pressing it again takes it back.
            try await fan.send("!up 1")
            try await fan.expect("You voted recipe #1 up.")
            page = try await web.get("/r/1")
            #expect(page.body.contains(#"<button class="vote on" aria-pressed="true">▲ You voted up</button>"#))
            #expect(page.body.contains(#"<input type="hidden" name="vote" value="unvote">"#))
            _ = try await web.post("/r/1/vote", form: ["vote": "unvote"])
            page = try await web.get("/r/1")
            #expect(page.body.contains("Your vote on recipe #1 is gone."))
            #expect(page.body.contains("score 0"))
            _ = try await web.post("/r/1/vote", form: ["vote": "down"])
            page = try await web.get("/r/1")
            #expect(page.body.contains(#"<button class="vote on" aria-pressed="true">▼ You voted down</button>"#))

            _ = try await web.post("/r/1/save", form: ["saved": "0"])
            #expect(try await web.get("/r/1").body.contains("Recipe #1 is out of your saved list."))
            #expect(try await web.get("/recipes/saved").body.contains("Nothing saved yet"))
            // Signed out: no buttons, a sign-in link; the form asks to sign in.
            let visitor = WebBrowser(server)
            #expect(!(try await visitor.get("/r/1").body.contains(#"action="/r/1/save""#)))
            #expect(try await visitor.get("/recipes/saved").status == 401)
            #expect(try await visitor.post("/r/1/save", form: [:]).location == "/signin?next=%2Fr%2F1")
            _ = cook
        }
    }
}
