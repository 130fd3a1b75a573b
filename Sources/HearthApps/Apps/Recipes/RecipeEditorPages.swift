import Foundation
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// Writing a recipe on the web: a new one (`/recipes/new`) and your own (`/r/ID/edit`), in one
/// form of title, ingredient and step lists (one per line), photo and tags. The form is sent as
/// `!recipe new` (or `!recipe edit ID`) with the recipe as its block: the lines a chat draft
/// takes, in order, through the same rules (`RecipeCommands.take`).
enum RecipeEditorPages {
    static let new = WebPage("/recipes/new", name: "recipeEditor", template: RecipeTemplates.editor) { request in
        let viewer = try request.signedIn("Sign in to write a recipe.")
        var values = limits
        values["action"] = "/recipes/new"
        values["heading"] = "Write a recipe"
        values["button"] = "Publish"
        values["back"] = "/recipes/new"
        values["importable"] = true
        // An imported draft comes here to be reviewed: its fields, and the page it came from.
        let imported = try await request.services.store.recipeDraft(accountID: viewer.id).flatMap {
            $0.source == nil ? nil : $0
        }
        if let imported {
            (values["title"], values["ingredients"], values["steps"]) =
                (imported.title, imported.ingredients, imported.steps)
            (values["tags"], values["importedFrom"]) = (imported.tags, imported.source)
        }
        try await photo(request, viewer, current: imported?.photoImageId, into: &values)
        typed(request, into: &values)
        return WebContent(title: "Write a recipe", summary: "Share a recipe on Hearth.", values: values)
    }

    static let edit = WebPage("/r/:id/edit", name: "recipeEdit", template: RecipeTemplates.editor) { request in
        let viewer = try request.signedIn("Sign in to change your recipe.")
        let id = try request.id()
        guard let row = try await RecipeCommands.visible(request.services.store, viewer: viewer.id, id) else {
            throw WebRefusal.notFound("There is no recipe #\(id).")
        }
        guard row.recipe.accountId == viewer.id else {
            throw WebRefusal.forbidden("Recipe #\(id) is \(Words.possessive(row.author)); only they may change it.")
        }
        let r = row.recipe
        var values = limits
        values["action"] = "/r/\(id)/edit"
        values["heading"] = "Change recipe #\(id)"
        values["button"] = "Save changes"
        values["back"] = "/r/\(id)"
        (values["title"], values["ingredients"], values["steps"]) = (r.title, r.ingredients, r.steps)
        values["tags"] = r.tags
        try await photo(request, viewer, current: r.photoImageId, into: &values)
        typed(request, into: &values)
        return WebContent(title: "Change “\(r.title)”", summary: "Change a recipe on Hearth.", values: values)
    }

    /// The limits the form's fields show (the same constants the rules check).
    static var limits: [String: Any] {
        [
            "maxTitle": RecipeCommands.maxTitle, "maxLine": RecipeCommands.maxLine,
            "maxIngredients": RecipeCommands.maxIngredients, "maxSteps": RecipeCommands.maxSteps,
            "maxTags": RecipeCommands.maxTags,
        ]
    }

    /// The photo the form sends: one just uploaded (`?picture=ID`) or typed before (the viewer's
    /// own), else the recipe's current one.
    static func photo(_ request: WebRequest, _ viewer: AccountRef, current: String?, into values: inout [String: Any])
        async throws
    {
        let store = request.services.store
        var image: ImageRecord?
        if let picture = request.query["picture"] ?? request.form["photo"], !picture.isEmpty {
            image = try? await PictureCommands.ownUpload(store, viewer, picture)
        }
        if image == nil, let current { image = try await store.image(id: current) }
        guard let image else { return }
        values["photoID"] = image.id
        values["photo"] = MediaLibrary.path(id: image.id, format: image.format)
    }

    /// What was typed, when the form comes back after its command failed: nothing is lost.
    static func typed(_ request: WebRequest, into values: inout [String: Any]) {
        guard !request.form.isEmpty else { return }
        for field in ["title", "ingredients", "steps", "tags"] { values[field] = request.form[field] ?? "" }
        if request.form["nophoto"] != nil { (values["photo"], values["photoID"]) = (nil, nil) }
    }

    static func text(_ value: String?) -> String { (value ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The block a form stands for: the title, the ingredients and `.`, the steps and `.`, the
    /// photo (or `-`) and the tags (or `-`) — each list one item a line, blank lines left out.
    static func block(_ form: [String: String]) -> String {
        func line(_ field: String) -> String {
            (form[field] ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
                .trimmingCharacters(in: .whitespaces)
        }
        func lines(_ field: String) -> [String] {
            (form[field] ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0 != RecipeCommands.end }
        }
        let photo = form["nophoto"] != nil || line("photo").isEmpty ? "-" : line("photo")
        let tags = line("tags").isEmpty ? "-" : line("tags")
        let parts =
            [line("title")] + lines("ingredients") + [RecipeCommands.end] + lines("steps") + [RecipeCommands.end]
            + [photo, tags]
        return parts.joined(separator: "\n")
    }

    static let actions: [WebAction] = {
        var write = WebAction(
            "/recipes/new",
            command: { _, form in "!recipe new" + (form["imported"] == "1" ? " imported" : "") + "\n" + block(form) },
            back: { _ in "/recipes/new" })
        write.isLong = true
        write.formPage = new
        var change = WebAction(
            "/r/:id/edit",
            command: { p, form in RecipePages.recipeID(p).map { "!recipe edit \($0)\n" + block(form) } },
            back: { p in RecipePages.recipeID(p).map { "/r/\($0)/edit" } ?? "/recipes" })
        change.isLong = true
        change.formPage = edit
        var fetch = WebAction(
            "/recipes/import",
            command: { _, form in
                let url = text(form["url"])
                return url.isEmpty || url.contains(where: \.isWhitespace) ? nil : "!recipe import \(url)"
            }, back: { _ in "/recipes/new" })
        fetch.formPage = new
        let save = WebAction(
            "/r/:id/save",
            command: { p, form in
                guard let id = RecipePages.recipeID(p) else { return nil }
                return form["saved"] == "0" ? "!unsave \(id)" : "!save \(id)"
            }, back: RecipePages.back)
        return [write, change, save, fetch]
    }()
}
