import Foundation
import HearthKit
import HearthMedia
import HearthStore

/// `!recipe import URL` (and the field on /recipes/new): a page's schema.org Recipe becomes the
/// caller's draft, to review and post (or change on the web) — never published unseen.
enum RecipeImport {
    static let accept = "text/html,application/xhtml+xml,application/ld+json;q=0.9,*/*;q=0.5"
    /// The longest source line an import writes (the page's address and its facts).
    static let maxSource = 300

    /// `line` within `limit` characters, an ellipsis marking a cut.
    static func cut(_ line: String, _ limit: Int) -> String {
        line.count <= limit ? line : String(line.prefix(limit - 1)) + "…"
    }

    static func run(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        guard request.words.count == 2 else {
            throw request.usageError("import which page? e.g. !recipe import https://example.com/soup")
        }
        let store = request.services.store
        if let draft = try await store.recipeDraft(accountID: me.id) {
            let what = draft.title.isEmpty ? "an untitled draft" : "a draft “\(draft.title)”"
            throw BotError("you have \(what) already — !recipe post or !recipe cancel it first")
        }
        guard let fetcher = request.services.pageFetcher else { throw BotError("this server does not fetch pages") }
        let page = try await fetcher.fetch(request.words[1], accept: accept)
        let host = page.url.host ?? "that page"
        guard let found = RecipeSchema.read(String(decoding: page.body, as: UTF8.self)) else {
            throw BotError(
                "\(host) describes no recipe on that page (schema.org Recipe as JSON-LD or microdata);"
                    + " write it yourself with !recipe new")
        }
        guard !found.title.isEmpty, !found.ingredients.isEmpty, !found.steps.isEmpty else {
            throw BotError("the recipe on \(host) has no title, ingredients or steps I can read")
        }
        var notes: [String] = []
        let photo = await self.photo(found, page: page, fetcher, request, me, notes: &notes)
        var draft = try await draft(found, photo: photo, request, me, notes: &notes)
        draft.source = cut(
            ([page.url.absoluteString] + [found.facts].compactMap { $0 }).joined(separator: " · "), maxSource)
        try await store.saveRecipeDraft(draft)
        let style = request.style
        let counts = [
            Words.counted(draft.ingredientLines.count, "ingredient"), Words.counted(draft.stepLines.count, "step"),
        ].joined(separator: ", ")
        var lines = [
            "Imported “\(draft.title)” from \(host) as your draft (\(counts)\(photo == nil ? "" : ", a photo")"
                + "\(found.facts.map { " · \($0)" } ?? "")). Check it:",
            style.bold("Ingredients:"),
        ]
        lines += draft.ingredientLines.map { "• \($0)" }
        lines.append(style.bold("Steps:"))
        lines += draft.stepLines.enumerated().map { "\($0.offset + 1). \($0.element)" }
        lines += notes.map { style.dim($0) }
        lines.append(
            style.dim("!recipe post publishes it, !recipe cancel drops it") + request.pageLink("/recipes/new"))
        var response = BotResponse(lines)
        response.madePage = "/recipes/new"
        return response
    }

    /// The draft the recipe makes, through the rules a typed draft follows (`RecipeCommands.take`);
    /// lines past the limits are cut, and said so.
    static func draft(
        _ found: RecipeSchema, photo: String?, _ request: BotRequest, _ me: AccountRef, notes: inout [String]
    ) async throws -> RecipeDraft {
        let ingredients = found.ingredients.prefix(RecipeCommands.maxIngredients)
        let steps = found.steps.prefix(RecipeCommands.maxSteps)
        if ingredients.count < found.ingredients.count || steps.count < found.steps.count {
            notes.append(
                "Kept the first \(RecipeCommands.maxIngredients) ingredients and \(RecipeCommands.maxSteps) steps"
                    + " of \(found.ingredients.count) and \(found.steps.count).")
        }
        let lines =
            [cut(found.title, RecipeCommands.maxTitle)] + ingredients.map { cut($0, RecipeCommands.maxLine) }
            + [RecipeCommands.end] + steps.map { cut($0, RecipeCommands.maxLine) } + [RecipeCommands.end]
            + [photo ?? "-", "-"]
        var draft = RecipeDraft(accountId: me.id, now: request.services.clock.now())
        for line in lines { try await RecipeCommands.take(line, into: &draft, request, me) }
        // "4 servings", "serves 6", "4": the servings, read as a typed "serves" line would be.
        if let yield = found.yield {
            draft.servings = (try? RecipeServings.said(yield) ?? RecipeServings.said("serves " + yield)) ?? nil
        }
        return draft
    }

    /// The page's photo fetched under the same guard, kept as the caller's upload; nil (and a
    /// note) when there is none or it cannot be had.
    static func photo(
        _ found: RecipeSchema, page: PageFetcher.Page, _ fetcher: PageFetcher, _ request: BotRequest,
        _ me: AccountRef, notes: inout [String]
    ) async -> String? {
        guard let address = found.image, let media = request.services.media else { return nil }
        guard let url = URL(string: address, relativeTo: page.url)?.absoluteURL else {
            notes.append("The photo's address could not be read; add one with !upload.")
            return nil
        }
        do {
            let picture = try await fetcher.fetch(
                url.absoluteString, accept: "image/*", maxBytes: MediaLimits.maxUploadBytes)
            let image = try await media.ingest(picture.body, ownerID: me.id)
            // Not kept (over the quota, or the store failed): the file goes too.
            guard (try? await request.services.store.addUpload(image, tokenHash: nil)) == true else {
                media.delete(ids: [image.id])
                notes.append("No photo: it could not be kept; add one with !upload.")
                return nil
            }
            return image.id
        } catch let error as BotError {
            notes.append("No photo: \(error.message).")
        } catch {
            notes.append("No photo: it is not a picture I can read (\(error)).")
        }
        return nil
    }
}
