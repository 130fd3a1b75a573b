import Foundation
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// The recipes app on the web: a recipe with its comments, the trending list, the search, and
/// the forms that vote and comment (each one the bot command it stands for). Every page reads
/// through the rules the commands use (`RecipeCommands.visible`, `hiddenAuthors`).
enum RecipePages {
    /// The longest search the search page takes (the form's `maxlength` too).
    static let maxQuery = 200
    /// How long a link preview's summary may be.
    static let maxSummary = 200

    static let recipe = WebPage("/r/:id", name: "recipe", template: RecipeTemplates.recipe) { request in
        let id = try request.id()
        let store = request.services.store
        // The recipe and its comments in one read (`RecipeCommands.visible`'s rule, then).
        guard let read = try await store.recipeWithComments(id: id, page: request.page, viewer: request.viewer?.id),
            try await RecipeCommands.mayView(read.row, store, viewer: request.viewer?.id)
        else {
            throw WebRefusal.notFound("There is no recipe #\(id).")
        }
        let (row, comments, total) = (read.row, read.comments, read.total)
        let r = row.recipe
        let now = request.services.clock.now()
        let ingredients = r.ingredients.split(separator: "\n").map(String.init)
        // `?serves=6` scales it (as `!recipe ID for 6`), in the reader's units (`!set units`).
        var settings: UserSettings?
        if let viewer = request.viewer { settings = UserSettings(stored: try await store.settings(viewer.id)) }
        let asked = request.query["serves"].flatMap { Int($0) }
        let wanted = r.servings != nil && (1...RecipeServings.maxServings).contains(asked ?? 0) ? asked : nil
        let shown = RecipeServings.shown(r.value, servings: wanted, in: RecipeServings.system(settings))
        var values: [String: Any] = [
            "id": id, "title": r.title, "author": row.author, "authorKey": IRCNames.fold(row.author),
            "ago": TimeText.ago(from: r.createdAt, to: now),
            "created": TimeText.iso8601(r.createdAt),
            "score": r.score, "ups": r.ups, "downs": r.downs, "commentsText": WebText.counted(r.comments, "comment"),
            "ingredients": shown.ingredients, "steps": shown.steps,
            "tags": tagLinks(r.tags), "hasTags": !r.tags.isEmpty,
            "comments": WebPartials.comments(comments, now: now),
            "maxComment": CommentCommands.maxCommentLength,
        ]
        if let source = r.source { values["source"] = source }
        if let written = r.servings {
            values["servings"] = [
                "id": id, "shown": wanted ?? written, "max": RecipeServings.maxServings,
                "heading": RecipeServings.heading(r.value, servings: wanted) ?? "",
            ]
        }
        if let viewer = request.viewer {
            let marks = try await store.recipeMarks(id, by: viewer.id)
            values["marks"] = buttons(marks)
            values["voted"] = marks.vote != 0
            values["mine"] = r.accountId == viewer.id
        }
        values["paging"] = WebPaging.links(page: request.page, total: total, size: StoreLimits.commentPageSize)
        var photo: String?
        if let imageID = r.photoImageId, let image = try await store.image(id: imageID) {
            photo = MediaLibrary.path(id: image.id, format: image.format)
            values["photo"] = photo
        }
        return WebContent(
            title: "\(r.title) — a recipe by \(row.author)", summary: summary(row, ingredients: ingredients),
            image: photo, values: values)
    }

    /// `/recipes`: trending, ranked as `!recipes hot` ranks them.
    static let trending = WebPage(
        "/recipes", name: "recipes", template: RecipeTemplates.trending, nav: WebNavLink("Recipes", position: 20)
    ) { request in
        let now = request.services.clock.now()
        let hot = try await HotLists.trending(request.services, viewer: request.viewer?.id, now: now)
        let size = StoreLimits.recipePageSize
        let rows = hot.dropFirst((request.page - 1) * size).prefix(size)
        var values: [String: Any] = [
            "recipes": try await items(Array(rows), request.services, now: now), "maxQuery": maxQuery,
            "paging": WebPaging.links(page: request.page, total: hot.count, size: size),
        ]
        if hot.isEmpty { values["none"] = true }
        return WebContent(
            title: "Trending recipes",
            summary: "What people on Hearth are cooking: the recipes with the most votes and talk lately.",
            values: values)
    }

    /// `/recipes/search?q=…`: the full-text search of `!search`, with its syntax and messages.
    static let search = WebPage("/recipes/search", name: "recipeSearch", template: RecipeTemplates.search) {
        request in
        let text = (request.query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        var values: [String: Any] = ["maxQuery": maxQuery, "q": text, "qURL": WebText.queryEncoded(text)]
        func content(_ title: String) -> WebContent {
            WebContent(title: title, summary: "Search the recipes on Hearth.", values: values)
        }
        guard !text.isEmpty else { return content("Search recipes") }
        guard text.count <= maxQuery else {
            values["problem"] = "A search may have \(maxQuery) characters; yours has \(text.count). Use fewer words."
            return content("Search recipes")
        }
        let query: RecipeSearch
        do { query = try RecipeSearchQuery.parse(text) } catch let error as BotError {
            values["problem"] = error.message.prefix(1).uppercased() + error.message.dropFirst()
            return content("Search recipes")
        }
        let now = request.services.clock.now()
        let (rows, total) = try await RecipeCommands.visibleSearch(
            request.services.store, query, viewer: request.viewer?.id, page: request.page)
        values["searched"] = true
        values["recipes"] = try await items(rows, request.services, now: now)
        values["found"] = !rows.isEmpty
        values["total"] = total
        values["paging"] = WebPaging.links(page: request.page, total: total, size: StoreLimits.recipePageSize)
        return content("Recipes matching “\(text)”")
    }

    /// The vote and save buttons, showing what the viewer did: a pressed button undoes it.
    static func buttons(_ marks: RecipeMarks) -> [[String: Any]] {
        func vote(_ value: Int, _ arrow: String, _ word: String) -> [String: Any] {
            let on = marks.vote == value
            return [
                "path": "vote", "field": "vote", "value": on ? "unvote" : word, "kind": "vote", "on": on,
                "pressed": on ? "true" : "false",
                "label": "\(arrow) " + (on ? "You voted \(word)" : "Vote \(word)"),
            ]
        }
        return [
            vote(1, "▲", "up"), vote(-1, "▼", "down"),
            [
                "path": "save", "field": "saved", "value": marks.saved ? "0" : "1", "kind": "save", "on": marks.saved,
                "pressed": marks.saved ? "true" : "false",
                "label": marks.saved ? "★ Saved" : "☆ Save",
            ],
        ]
    }

    /// `/recipes/saved`: the recipes the viewer saved (`!saved`), newest first.
    static let saved = WebPage("/recipes/saved", name: "recipesSaved", template: RecipeTemplates.saved) { request in
        let viewer = try request.signedIn("Sign in to see the recipes you saved.")
        let store = request.services.store
        let (rows, total) = try await store.recipes(order: .new, savedBy: viewer.id, page: request.page)
        let hidden = try await RecipeCommands.hiddenAuthors(store, viewer: viewer.id)
        let shown = rows.filter { !hidden.contains($0.recipe.accountId) }
        let values: [String: Any] = [
            "recipes": try await items(shown, request.services, now: request.services.clock.now()), "total": total,
            "paging": WebPaging.links(page: request.page, total: total, size: StoreLimits.recipePageSize),
        ]
        return WebContent(title: "Saved recipes", summary: "The recipes you keep.", values: values)
    }

    /// A card of a list of recipes: its photo (if any), title, author, score, comments, tags.
    static func item(_ row: RecipeRow, photo: String?, now: Date) -> [String: Any] {
        let r = row.recipe
        var values: [String: Any] = [
            "id": r.id, "title": r.title, "author": row.author, "authorKey": IRCNames.fold(row.author),
            "score": r.score, "comments": r.comments, "tags": tagLinks(r.tags),
            "ago": TimeText.ago(from: r.createdAt, to: now),
        ]
        if let photo { values["photo"] = photo }
        return values
    }

    /// The cards of a list, with their photos' paths (kept with the hot lists for a moment: a
    /// picture's path never changes, and a list shows the same few again and again).
    static func items(_ rows: [RecipeRow], _ services: BotServices, now: Date) async throws -> [[String: Any]] {
        var cards: [[String: Any]] = []
        for row in rows {
            var photo: String?
            if let id = row.recipe.photoImageId {
                if let shared = services.hotLists {
                    photo = try await shared.photo(id, services)
                } else if let image = try await services.store.image(id: id) {
                    photo = MediaLibrary.path(id: image.id, format: image.format)
                }
            }
            cards.append(item(row, photo: photo, now: now))
        }
        return cards
    }

    /// Each tag with the search that finds its recipes (tags are cuisines and diets alike).
    static func tagLinks(_ tags: String) -> [[String: String]] {
        tags.split(separator: " ").map { ["tag": String($0), "query": WebText.queryEncoded("cuisine:\($0)")] }
    }

    /// For link previews: who wrote it, its score, and the first ingredients.
    static func summary(_ row: RecipeRow, ingredients: [String]) -> String {
        let text = "By \(row.author) · score \(row.recipe.score) · " + ingredients.joined(separator: ", ")
        return text.count <= maxSummary ? text : String(text.prefix(maxSummary - 1)) + "…"
    }

    /// A query string's value, percent-encoded (only unreserved ASCII is left as it is).

    static let votes = ["up": "up", "down": "down", "unvote": "unvote"]

    static let actions: [WebAction] = [
        WebAction(
            "/r/:id/vote",
            command: { p, form in
                guard let id = recipeID(p), let command = form["vote"].flatMap({ votes[$0] }) else { return nil }
                return "!\(command) \(id)"
            }, back: back),
        WebAction(
            "/r/:id/comment",
            command: { p, form in
                guard let id = recipeID(p),
                    let text = form["text"]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
                else { return nil }
                // One line: a comment is said as one chat line.
                return "!comment recipe \(id) " + text.split(whereSeparator: \.isNewline).joined(separator: " ")
            }, back: back),
    ]

    static func recipeID(_ parameters: [String: String]) -> Int64? {
        parameters["id"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    static func back(_ parameters: [String: String]) -> String {
        recipeID(parameters).map { "/r/\($0)" } ?? "/recipes"
    }
}
