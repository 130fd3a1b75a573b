import Foundation
import HearthKit
import HearthStore

/// Recipes (Staple): write one line by line, publish, vote, comment, save, search.
enum RecipeCommands {
    static let group = "recipes"
    static let maxTitle = 120
    static let maxLine = 300
    static let maxIngredients = 60
    static let maxSteps = 40
    static let maxTags = 10
    static let maxTag = 30
    static let end = "."

    static func id(_ request: BotRequest, _ word: String) throws -> Int64 {
        guard let id = Int64(word.drop { $0 == "#" }), id > 0 else {
            throw request.usageError("\(word) is not a recipe number")
        }
        return id
    }

    /// A recipe the caller may see (not from someone who blocks them or whom they block).
    static func visible(_ request: BotRequest, _ id: Int64) async throws -> RecipeRow {
        guard let row = try await visible(request.services.store, viewer: request.caller.account?.id, id) else {
            throw BotError("there is no recipe #\(id)")
        }
        return row
    }

    /// The same rule for the web: nil when there is no such recipe for `viewer`.
    static func visible(_ store: any Store, viewer: Int64?, _ id: Int64) async throws -> RecipeRow? {
        guard let row = try await store.recipe(id: id), try await mayView(row, store, viewer: viewer) else {
            return nil
        }
        return row
    }

    /// Whether `viewer` may see a recipe that exists: not when either blocks the other.
    static func mayView(_ row: RecipeRow, _ store: any Store, viewer: Int64?) async throws -> Bool {
        guard let viewer else { return true }
        return try await !store.eitherBlocks(viewer, row.recipe.accountId)
    }

    /// Authors left out of `viewer`'s lists and searches: whom they block and who blocks them
    /// (the rule of `visible`, for many recipes at once).
    static func hiddenAuthors(_ store: any Store, viewer: Int64?) async throws -> Set<Int64> {
        guard let viewer else { return [] }
        return try await store.blockedIDs(by: viewer).union(try await store.blockerIDs(of: viewer))
    }

    /// Trending (`!recipes hot`, `/recipes`): recent recipes not hidden from `viewer`, hottest first.
    static func trending(_ store: any Store, viewer: Int64?, now: Date) async throws -> [RecipeRow] {
        let hidden = try await hiddenAuthors(store, viewer: viewer)
        return ranked(try await store.recentRecipes().filter { !hidden.contains($0.recipe.accountId) }, now: now)
    }

    static func ranked(_ candidates: [RecipeRow], now: Date) -> [RecipeRow] {
        candidates.sorted { hotScore($0.recipe, now: now) > hotScore($1.recipe, now: now) }
    }

    /// Full-text search (`!search`, `/recipes/search`), best first, without authors hidden from `viewer`.
    static func visibleSearch(_ store: any Store, _ query: RecipeSearch, viewer: Int64?, page: Int) async throws -> (
        rows: [RecipeRow], total: Int
    ) {
        let hidden = try await hiddenAuthors(store, viewer: viewer)
        let (rows, total) = try await store.searchRecipes(query, page: page)
        return (rows.filter { !hidden.contains($0.recipe.accountId) }, total)
    }

    static func tags(_ text: String) throws -> String {
        let words = text.lowercased().split { $0 == " " || $0 == "," }.map(String.init)
        if words == ["-"] || words.isEmpty { return "" }
        guard words.count <= maxTags,
            words.allSatisfy({ $0.count <= maxTag && $0.allSatisfy { $0.isLetter || $0 == "-" } })
        else {
            throw BotError("tags are up to \(maxTags) words of letters (and -), e.g. italian vegetarian")
        }
        return Array(NSOrderedSet(array: words)).compactMap { $0 as? String }.joined(separator: " ")
    }

    static func prompt(_ stage: RecipeDraft.Stage, _ draft: RecipeDraft) -> String {
        switch stage {
        case .title: return "What is the recipe called? (one line)"
        case .ingredients:
            return "Ingredients, one per line (a line “serves 4” says how many it feeds); a line with just \(end) "
                + "ends them."
        case .steps: return "Steps, one per line; a line with just \(end) ends them."
        case .photo: return "A photo? Give a picture id from !upload (or - for none)."
        case .tags: return "Cuisine and diet tags, e.g. italian vegetarian (or - for none)."
        case .ready:
            return
                "“\(draft.title)” is ready (\(parts(draft))): !recipe post to publish it, !recipe cancel to drop it."
        }
    }

    /// An empty list's answer: the caller's waiting draft (an import's, say) and how to finish it,
    /// to them alone (a draft is not posted), else how to start one.
    static func noRecipesYet(_ request: BotRequest) async throws -> BotResponse {
        guard let me = request.caller.account,
            let draft = try await request.services.store.recipeDraft(accountID: me.id)
        else { return BotResponse(["No recipes yet — write one: !recipe new"]) }
        let what = draft.title.isEmpty ? "your untitled draft" : "your draft “\(draft.title)”"
        let next =
            draft.stage == .ready ? "!recipe post publishes it, !recipe cancel drops it." : prompt(draft.stage, draft)
        return BotResponse(["No recipes posted yet — \(what) is waiting (\(parts(draft))): \(next)"]).privately
    }

    /// "1 ingredient, 2 steps": how far a draft has got.
    static func parts(_ draft: RecipeDraft) -> String {
        Words.counted(draft.ingredientLines.count, "ingredient") + ", " + Words.counted(draft.stepLines.count, "step")
    }

    static func writing(_ me: AccountRef, _ on: Bool) -> SessionEffect { .captureLines(accountID: me.id, on: on) }

    /// A line said privately while the caller's draft collects lines: the draft takes it.
    static func continueDraft(
        bot: Bot, caller: Caller, presence: any PresenceDirectory, line: String
    ) async -> BotResponse? {
        guard let account = caller.account, let command = bot.commands["recipe"],
            let draft = try? await bot.services.store.recipeDraft(accountID: account.id), draft.stage != .ready
        else { return nil }
        if !caller.isIRC, looksLikeChat(line) {
            var response = BotResponse([
                "(That looked like chat, so it went to your channel, not into the recipe. \(prompt(draft.stage, draft))"
                    + " /cancel makes your lines chat again; !recipe cancel drops the draft.)"
            ])
            response.lineIsChat = true
            return response
        }
        let input = CommandLineInput(name: "recipe", words: [], rest: line)
        let request = BotRequest(caller: caller, input: input, command: command, bot: bot, presence: presence)
        do { return try await draftLine(request, line, draft: draft) } catch let error as BotError {
            return .failed("recipe: \(error.message)", command: "recipe", code: "INVALID_LINE")
        } catch {
            return .failed(
                "recipe: something went wrong on our side; try the line again.", command: "recipe",
                code: "INTERNAL_ERROR")
        }
    }

    /// A line that is clearly chat, not part of a recipe: a question.
    static func looksLikeChat(_ line: String) -> Bool {
        line.trimmingCharacters(in: .whitespaces).hasSuffix("?")
    }

    /// A line typed while a draft collects lines (not a command), into `draft` as just read (one
    /// read per line: a bot's fifty-line block is fifty of these in a row).
    static func draftLine(_ request: BotRequest, _ text: String, draft: RecipeDraft) async throws -> BotResponse {
        let me = try request.account()
        var draft = draft
        let before = draft.stage
        try await take(text, into: &draft, request, me)
        try await request.services.store.saveRecipeDraft(draft)
        // Quiet while lines of a part keep coming (a bot may send fifty at once); a new part is announced.
        // The title is said back, so a line taken by mistake is seen at once.
        let taken = before == .title ? "Title: “\(draft.title)”. " : ""
        let reply = draft.stage != before ? [taken + prompt(draft.stage, draft)] : []
        return BotResponse(reply, effects: draft.stage == .ready ? [writing(me, false)] : [])
    }

    /// The rules of a recipe, one line at a time: the draft's next line, as chat sends it and
    /// as a web form's block (`!recipe new` with lines) gives it. Throws what is wrong with it.
    static func take(_ text: String, into draft: inout RecipeDraft, _ request: BotRequest, _ me: AccountRef)
        async throws
    {
        let line = text.trimmingCharacters(in: .whitespaces)
        if line.count > maxLine { throw BotError("that line has \(line.count) characters; the limit is \(maxLine)") }
        switch draft.stage {
        case .title:
            guard !line.isEmpty, line != end else { throw BotError("the recipe needs a title") }
            guard line.count <= maxTitle else { throw BotError("a title may have \(maxTitle) characters") }
            draft.title = line
            draft.stage = .ingredients
        case .ingredients:
            if line == end {
                guard !draft.ingredients.isEmpty else { throw BotError("add at least one ingredient first") }
                draft.stage = .steps
            } else if let servings = try RecipeServings.said(line) {
                draft.servings = servings
            } else {
                guard draft.ingredientLines.count < maxIngredients else {
                    throw BotError("a recipe may have \(maxIngredients) ingredients; end them with \(end)")
                }
                draft.ingredients += (draft.ingredients.isEmpty ? "" : "\n") + line
            }
        case .steps:
            if line == end {
                guard !draft.steps.isEmpty else { throw BotError("add at least one step first") }
                draft.stage = .photo
            } else {
                guard draft.stepLines.count < maxSteps else {
                    throw BotError("a recipe may have \(maxSteps) steps; end them with \(end)")
                }
                draft.steps += (draft.steps.isEmpty ? "" : "\n") + line
            }
        case .photo:
            draft.photoImageId = line == "-" ? nil : try await PictureCommands.ownUpload(request, me, line).id
            draft.stage = .tags
        case .tags:
            draft.tags = try tags(line)
            draft.stage = .ready
        case .ready:
            break
        }
        draft.updatedAt = request.services.clock.now()
    }

    /// A whole recipe in one go (a web form): the command's block, line by line through `take`,
    /// into a draft of its own (one being written in chat is left alone). An error names the part.
    static func block(_ request: BotRequest, _ me: AccountRef) async throws -> RecipeDraft {
        var draft = RecipeDraft(accountId: me.id, now: request.services.clock.now())
        var counts: [RecipeDraft.Stage: Int] = [:]
        for line in request.input.block {
            let stage = draft.stage
            if stage == .ready { throw BotError("the recipe has more lines than its parts") }
            counts[stage, default: 0] += 1
            do { try await take(line, into: &draft, request, me) } catch let error as BotError {
                let (n, ends) = (counts[stage] ?? 1, line.trimmingCharacters(in: .whitespaces) == end)
                let part =
                    switch stage {
                    case .title: "the title"
                    case .ingredients: ends ? "the ingredients" : "ingredient \(n)"
                    case .steps: ends ? "the steps" : "step \(n)"
                    case .photo: "the photo"
                    case .tags, .ready: "the tags"
                    }
                throw BotError("\(part): \(error.message)")
            }
        }
        guard draft.stage == .ready else {
            throw BotError("the recipe needs a title, ingredients and steps — \(prompt(draft.stage, draft))")
        }
        return draft
    }

    static let recipe = BotCommand(
        "recipe", group: group, usage: "new · import URL · post · cancel · ID · edit ID FIELD VALUE · delete ID",
        summary: "write a recipe step by step, publish it, show one, or change yours", example: "!recipe new",
        arity: 1...Int.max
    ) { request in
        let word = request.words[0].lowercased()
        switch word {
        case "new": return try await new(request)
        case "import": return try await RecipeImport.run(request)
        case "post": return try await post(request)
        case "cancel": return try await cancel(request)
        case "edit": return try await edit(request)
        case "delete":
            let me = try request.account()
            guard request.words.count == 2 else { throw request.usageError() }
            let id = try id(request, request.words[1])
            guard try await request.services.store.deleteRecipe(id: id, by: me.id) else {
                throw BotError("you have no recipe #\(id)")
            }
            return BotResponse(["Recipe #\(id) is deleted, with its votes, comments and saves."])
        default:
            if request.words.count == 3, request.words[1].lowercased() == "for" {
                return try await show(request, try id(request, word), for: request.words[2])
            }
            guard request.words.count == 1 else { throw request.usageError() }
            return try await show(request, try id(request, word))
        }
    }

    static func new(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let store = request.services.store
        if !request.input.block.isEmpty {
            // The web form says `imported` when it shows the imported draft to review: what it sends
            // is that draft, changed, citing its page. Any other form is a recipe of its own.
            var draft = try await block(request, me)
            if request.words.dropFirst().first?.lowercased() == "imported",
                let imported = try await store.recipeDraft(accountID: me.id)
            {
                draft.source = imported.source
                draft.servings = draft.servings ?? imported.servings
            }
            return try await publish(request, me, draft, fromDraft: draft.source != nil)
        }
        if let draft = try await store.recipeDraft(accountID: me.id) {
            let what = draft.title.isEmpty ? "an untitled draft" : "your draft “\(draft.title)”"
            return BotResponse(
                [
                    "You have \(what) (\(parts(draft))) — "
                        + "let's continue. \(prompt(draft.stage, draft))"
                ],
                effects: draft.stage == .ready ? [] : [writing(me, true)])
        }
        let draft = RecipeDraft(accountId: me.id, now: request.services.clock.now())
        try await store.saveRecipeDraft(draft)
        let where_ =
            request.caller.isIRC
            ? "Send me the lines privately (/msg hearth …)."
            : "Type the lines here; while you write they come to me, not to a channel (//text still chats,"
                + " /cancel makes your lines chat again)."
        return BotResponse(
            ["New recipe. \(where_) \(prompt(.title, draft)) (!recipe cancel drops it.)"], effects: [writing(me, true)])
    }

    static func post(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let store = request.services.store
        guard let draft = try await store.recipeDraft(accountID: me.id) else {
            throw BotError("you have no draft — start one with !recipe new")
        }
        guard !draft.title.isEmpty, !draft.ingredients.isEmpty, !draft.steps.isEmpty else {
            throw BotError("the draft needs a title, ingredients and steps first — \(prompt(draft.stage, draft))")
        }
        return try await publish(request, me, draft, fromDraft: true)
    }

    /// Publishes a finished draft (the one of chat, or a web form's).
    static func publish(_ request: BotRequest, _ me: AccountRef, _ draft: RecipeDraft, fromDraft: Bool)
        async throws -> BotResponse
    {
        let recipe = try await request.services.store.addRecipe(
            RecipeRecord(
                accountId: me.id, title: draft.title, ingredients: draft.ingredients, steps: draft.steps,
                photoImageId: draft.photoImageId, tags: draft.tags, source: draft.source,
                now: request.services.clock.now(), servings: draft.servings),
            fromDraft: fromDraft, feedText: "posted recipe \(FeedText.idMark) “\(draft.title)”")
        var response = BotResponse(
            [
                "Recipe #\(recipe.id) “\(recipe.title)” is posted — !recipe \(recipe.id) to see it."
                    + request.pageLink("/r/\(recipe.id)")
            ],
            effects: fromDraft ? [writing(me, false)] : [])
        response.madePage = "/r/\(recipe.id)"
        return response
    }

    static func cancel(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        guard try await request.services.store.deleteRecipeDraft(accountID: me.id) else {
            throw BotError("you have no draft")
        }
        return BotResponse(["Draft dropped."], effects: [writing(me, false)])
    }

    static func show(_ request: BotRequest, _ id: Int64, for servingsWord: String? = nil) async throws -> BotResponse {
        let row = try await visible(request, id)
        let r = row.recipe
        let servings = try servingsWord.map { try RecipeServings.wanted(request, r, $0) }
        var mine = ""
        if let me = request.caller.account {
            let marks = try await request.services.store.recipeMarks(id, by: me.id)
            let vote = marks.vote > 0 ? " · you voted ▲" : marks.vote < 0 ? " · you voted ▼" : ""
            mine = vote + (marks.saved ? " · saved" : "")
        }
        var lines = [
            "\(request.style.bold("#\(id) \(r.title)")) by \(row.author) · score \(r.score) (▲\(r.ups) ▼\(r.downs)) · "
                + Words.counted(r.comments, "comment") + mine
                + (r.tags.isEmpty ? "" : " · \(r.tags)")
        ]
        if let photo = r.photoImageId, let media = request.services.media,
            let image = try await request.services.store.image(id: photo)
        {
            lines.append("photo: \(media.url(image))")
        }
        if let source = r.source { lines.append("source: \(source)") }
        if let page = request.services.pageURL("/r/\(id)") { lines.append("page: \(page)") }
        let shown = RecipeServings.shown(r.value, servings: servings, in: RecipeServings.system(request.settings))
        let heading = RecipeServings.heading(r.value, servings: servings).map { " (\($0))" } ?? ""
        lines.append(request.style.bold("Ingredients") + heading + ":")
        lines += shown.ingredients.map { "• \($0)" }
        lines.append(request.style.bold("Steps:"))
        lines += shown.steps.enumerated().map { "\($0.offset + 1). \($0.element)" }
        lines.append(
            request.style.dim(
                "!up \(id) · !down \(id) · !save \(id) · !comment recipe \(id) TEXT · !comments recipe \(id)"))
        return BotResponse(lines)
    }

    static let fields = ["title", "ingredients", "steps", "photo", "tags", "servings"]

    /// `!recipe edit ID FIELD VALUE`; ingredients and steps take `;`-separated lines.
    static func edit(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        if !request.input.block.isEmpty, request.words.count == 2 { return try await editAll(request, me) }
        guard request.words.count >= 4 else {
            throw request.usageError("edit needs an id, a field (\(fields.joined(separator: "|"))) and a value")
        }
        let id = try id(request, request.words[1])
        let field = request.words[2].lowercased()
        guard fields.contains(field) else {
            throw request.usageError("\(field) is not a field: \(fields.joined(separator: ", "))")
        }
        let value = request.input.text(after: 3)
        guard var recipe = try await request.services.store.recipe(id: id)?.recipe, recipe.accountId == me.id else {
            throw BotError("you have no recipe #\(id)")
        }
        func lines(_ text: String, max: Int) throws -> String {
            let parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            guard !parts.isEmpty, parts.count <= max, parts.allSatisfy({ $0.count <= maxLine }) else {
                throw BotError("give 1 to \(max) lines separated by ; (each up to \(maxLine) characters)")
            }
            return parts.joined(separator: "\n")
        }
        switch field {
        case "title":
            guard (1...maxTitle).contains(value.count) else {
                throw BotError("a title has 1 to \(maxTitle) characters")
            }
            recipe.title = value
        case "ingredients": recipe.ingredients = try lines(value, max: maxIngredients)
        case "steps": recipe.steps = try lines(value, max: maxSteps)
        case "photo":
            recipe.photoImageId = value == "-" ? nil : try await PictureCommands.ownUpload(request, me, value).id
        case "servings":
            guard let count = Int(value) else { throw request.usageError("servings is a number, e.g. 4") }
            recipe.servings = try RecipeServings.checked(count)
        default: recipe.tags = try tags(value)
        }
        _ = try await request.services.store.updateRecipe(recipe, by: me.id)
        return BotResponse(["Recipe #\(id): \(field) updated."])
    }

    /// `!recipe edit ID` with a whole recipe as its block (the web's editor): every field at
    /// once, by the rules of a new one.
    static func editAll(_ request: BotRequest, _ me: AccountRef) async throws -> BotResponse {
        let id = try id(request, request.words[1])
        guard var recipe = try await request.services.store.recipe(id: id)?.recipe, recipe.accountId == me.id else {
            throw BotError("you have no recipe #\(id)")
        }
        let draft = try await block(request, me)
        (recipe.title, recipe.ingredients, recipe.steps) = (draft.title, draft.ingredients, draft.steps)
        (recipe.photoImageId, recipe.tags, recipe.servings) = (draft.photoImageId, draft.tags, draft.servings)
        _ = try await request.services.store.updateRecipe(recipe, by: me.id)
        var response = BotResponse(["Recipe #\(id) “\(draft.title)” is updated."])
        response.madePage = "/r/\(id)"
        return response
    }

    static func table(_ rows: [RecipeRow], now: Date, photos: [Int64: String] = [:]) -> [String] {
        rows.map { row in
            let r = row.recipe
            return
                "#\(r.id)  \(r.title)  by \(row.author)  score \(r.score)  \(Words.counted(r.comments, "comment"))"
                + "\(r.tags.isEmpty ? "" : "  [\(r.tags)]")  \(TimeText.ago(from: r.createdAt, to: now))"
                + (photos[r.id].map { "  \($0)" } ?? "")
        }
    }

    /// A list's photos as links, by recipe (as meme lists link their pictures).
    static func photos(_ request: BotRequest, _ rows: [RecipeRow]) async throws -> [Int64: String] {
        guard let media = request.services.media else { return [:] }
        var links: [Int64: String] = [:]
        for row in rows {
            if let id = row.recipe.photoImageId, let image = try await request.services.store.image(id: id) {
                links[row.recipe.id] = media.url(image)
            }
        }
        return links
    }

    /// Score decayed by age: a day-old vote counts about a third of a new one.
    static func hotScore(_ r: Stored<RecipeRecord>, now: Date) -> Double {
        let hours = max(0, now.timeIntervalSince(r.createdAt) / 3600)
        return Double(r.score + r.comments + 1) / pow(hours + 2, 1.5)
    }

    static let recipes = BotCommand(
        "recipes", group: group, usage: "hot|new|top|foryou [PAGE]  ·  by USER [PAGE]",
        summary: "recipe lists: trending, newest, best, for you (your cuisines and people you follow), or by someone",
        example: "!recipes foryou", arity: 0...3
    ) { request in
        let store = request.services.store
        var words = request.words
        let kind = words.first?.lowercased() ?? "hot"
        if !words.isEmpty { words.removeFirst() }
        var author: AccountRef?
        if kind == "by" {
            guard let name = words.first else { throw request.usageError("by whom?") }
            let account = try await SocialCommands.person(request, name)
            author = AccountRef(id: account.id, name: account.name)
            words.removeFirst()
        }
        guard words.count <= 1 else { throw request.usageError() }
        let page = try Paging.page(request, words.first)
        let now = request.services.clock.now()
        let blocked = try await hiddenAuthors(store, viewer: request.caller.account?.id)
        // Someone who blocks you, or whom you block, is left out: not even how many recipes they have.
        if let author, blocked.contains(author.id) {
            throw BotError("\(Words.possessive(author.name)) recipes are not available to you")
        }
        let rows: [RecipeRow]
        let total: Int
        let title: String
        switch kind {
        case "new", "top", "by":
            let (found, count) = try await store.recipes(
                order: kind == "top" ? .top : .new, author: author?.id, page: page)
            (rows, total) = (found.filter { !blocked.contains($0.recipe.accountId) }, count)
            title = kind == "by" ? "Recipes by \(author!.name)" : kind == "top" ? "Top recipes" : "New recipes"
        case "hot", "foryou":
            var candidates = try await store.recentRecipes().filter { !blocked.contains($0.recipe.accountId) }
            if kind == "foryou" {
                let me = try request.account()
                let cuisines = Set(
                    (try await store.settings(me.id)["cuisine"] ?? "").split(separator: ",").map(String.init))
                let following = try await store.followingIDs(of: me.id)
                candidates = candidates.filter { row in
                    following.contains(row.recipe.accountId)
                        || !cuisines.isDisjoint(with: row.recipe.tags.split(separator: " ").map(String.init))
                }
                if candidates.isEmpty {
                    return BotResponse([
                        "Nothing for you yet — set your cuisines (!prefs cuisine italian,thai) or !follow people who "
                            + "cook."
                    ])
                }
            }
            let hot = ranked(candidates, now: now)
            total = hot.count
            rows = Array(hot.dropFirst((page - 1) * StoreLimits.recipePageSize).prefix(StoreLimits.recipePageSize))
            title = kind == "hot" ? "Hot recipes" : "Recipes for you"
        default:
            throw request.usageError("\(kind) is not a list: hot, new, top, foryou or by USER")
        }
        if total == 0 {
            if let author { return BotResponse(["\(author.name) has posted no recipes yet."]) }
            return try await noRecipesYet(request)
        }
        if rows.isEmpty { return BotResponse(["There is no page \(page)."]) }
        return BotResponse(
            ["\(request.style.bold(title)):"] + table(rows, now: now, photos: try await photos(request, rows))
                + Paging.footer(
                    request, page: page, total: total, size: StoreLimits.recipePageSize,
                    command: "!recipes \(kind)\(author.map { " \($0.name)" } ?? "")"))
    }

    static func vote(_ name: String, _ value: Int, summary: String) -> BotCommand {
        BotCommand(
            name, group: group, usage: "ID", summary: summary, example: "!\(name) 12", arity: 1...1, requiresLogin: true
        ) { request in
            let me = try request.account()
            let id = try id(request, request.words[0])
            _ = try await visible(request, id)
            guard let (ups, downs) = try await request.services.store.vote(recipeID: id, accountID: me.id, value: value)
            else {
                throw BotError("there is no recipe #\(id)")
            }
            let what =
                value > 0
                ? "You voted recipe #\(id) up."
                : value < 0 ? "You voted recipe #\(id) down." : "Your vote on recipe #\(id) is gone."
            return BotResponse(["\(what) Score \(ups - downs) (▲\(ups) ▼\(downs))."])
        }
    }

    static func saveCommand(_ name: String, saved: Bool) -> BotCommand {
        BotCommand(
            name, group: group, usage: "ID",
            summary: saved ? "keep a recipe in your list" : "take a recipe out of your list",
            example: "!\(name) 12", arity: 1...1, requiresLogin: true
        ) { request in
            let me = try request.account()
            let id = try id(request, request.words[0])
            _ = try await visible(request, id)
            guard let changed = try await request.services.store.saveRecipe(id, for: me.id, saved: saved) else {
                throw BotError("there is no recipe #\(id)")
            }
            if saved {
                return BotResponse([
                    changed ? "Recipe #\(id) saved — !saved lists them." : "Recipe #\(id) was saved already."
                ])
            }
            return BotResponse([changed ? "Recipe #\(id) is out of your saved list." : "Recipe #\(id) wasn't saved."])
        }
    }

    static let saved = BotCommand(
        "saved", group: group, usage: "[PAGE]", summary: "the recipes you saved", example: "!saved", arity: 0...1,
        requiresLogin: true
    ) { request in
        let me = try request.account()
        let page = try Paging.page(request, request.words.first)
        let (rows, total) = try await request.services.store.recipes(order: .new, savedBy: me.id, page: page)
        if total == 0 { return BotResponse(["Nothing saved yet — !save ID on a recipe you like."]) }
        return BotResponse(
            ["\(request.style.bold("Saved recipes")) (\(total)):"]
                + table(rows, now: request.services.clock.now(), photos: try await photos(request, rows))
                + Paging.footer(request, page: page, total: total, size: StoreLimits.recipePageSize, command: "!saved"))
    }

    static let search = BotCommand(
        "search", group: group, usage: "WORDS [cuisine:X] [diet:X]  ·  by USER  ·  user PREFIX  ·  chat WORDS",
        summary: "search recipes (tom* for prefixes, \"quoted phrases\", OR, NOT), people, or chat you can read",
        example: "!search tomato basil cuisine:italian",
        arity: 1...Int.max
    ) { request in
        if request.words[0].lowercased() == "user" {
            guard request.words.count == 2 else { throw request.usageError("search user PREFIX") }
            let found = try await request.services.store.findPeople(prefix: request.words[1], after: nil)
            return BotResponse(
                found.names.isEmpty
                    ? ["Nobody's name starts with \(request.words[1])."]
                    : ["People: " + found.names.joined(separator: ", ")])
        }
        if request.words[0].lowercased() == "chat" {
            return try await ChatSearch.reply(request, request.input.text(after: 1))
        }
        // A person's recipes: `!search by alice [PAGE]` is `!recipes by alice [PAGE]`.
        if request.words[0].lowercased() == "by", (2...3).contains(request.words.count) {
            return try await recipes.handler(request)
        }
        let query = try RecipeSearchQuery.parse(request.input.text(after: 0))
        // The best matches only: a search is refined with more words rather than paged.
        let (rows, total) = try await visibleSearch(
            request.services.store, query, viewer: request.caller.account?.id, page: 1)
        if rows.isEmpty { return BotResponse(["No recipe matches — try fewer words, or a prefix like tom*."]) }
        let more =
            total > rows.count
            ? [request.style.dim("showing the best \(rows.count) — add words to narrow it down")] : []
        return BotResponse(
            ["\(request.style.bold("Found \(total)")):"]
                + table(rows, now: request.services.clock.now(), photos: try await photos(request, rows)) + more)
    }

    static let prefs = BotCommand(
        "prefs", group: group, usage: "cuisine A,B,…", summary: "your favourite cuisines, for !recipes foryou",
        example: "!prefs cuisine italian,thai",
        arity: 0...2, requiresLogin: true
    ) { request in
        let me = try request.account()
        guard request.words.first?.lowercased() == "cuisine" else {
            let current = try await request.services.store.settings(me.id)["cuisine"] ?? ""
            return BotResponse([
                "Your cuisines: \(current.isEmpty ? "none yet" : current.replacingOccurrences(of: ",", with: ", ")) — "
                    + "change with !prefs cuisine italian,thai"
            ])
        }
        let list =
            request.words.count > 1 ? try tags(request.words[1]).split(separator: " ").joined(separator: ",") : ""
        try await request.services.store.setSetting(me.id, key: "cuisine", value: list)
        return BotResponse([
            list.isEmpty ? "Cuisines cleared." : "Your cuisines: \(list.replacingOccurrences(of: ",", with: ", "))."
        ])
    }

    static let edamam = BotCommand(
        "edamam", group: group, usage: "WORDS  ·  save N",
        summary: "find recipes on Edamam and import one (when the server has keys)",
        example: "!edamam chicken curry", arity: 1...Int.max, requiresLogin: true
    ) { request in
        let me = try request.account()
        guard let client = request.services.edamam else {
            throw BotError(
                "Edamam is not set up on this server: the operator starts Hearth with --edamam-app-id ID "
                    + "--edamam-app-key KEY (free keys at https://developer.edamam.com)"
            )
        }
        if request.words[0].lowercased() == "save" {
            guard request.words.count == 2, let n = Int(request.words[1]) else {
                throw request.usageError("save which? e.g. !edamam save 2")
            }
            guard let found = client.lastResult(n, for: me.id) else {
                throw BotError("there is no result \(n) — search first: !edamam WORDS")
            }
            let ingredients = found.ingredientLines.prefix(maxIngredients).map { String($0.prefix(maxLine)) }.joined(
                separator: "\n")
            let labels = ((found.cuisineType ?? []) + (found.dietLabels ?? [])).joined(separator: " ")
            let recipe = try await request.services.store.addRecipe(
                RecipeRecord(
                    accountId: me.id, title: String(found.label.prefix(maxTitle)),
                    ingredients: ingredients.isEmpty ? "(see the source)" : ingredients,
                    steps: "Follow the method at \(found.url)", photoImageId: nil, tags: (try? tags(labels)) ?? "",
                    source: "\(found.source ?? "Edamam") — \(found.url) (via Edamam)", now: request.services.clock.now()
                ),
                fromDraft: false,
                feedText: "imported recipe \(FeedText.idMark) “\(found.label.prefix(60))” from Edamam"
            )
            return BotResponse([
                "Imported as recipe #\(recipe.id) “\(recipe.title)” (source: \(found.source ?? "Edamam")) — "
                    + "!recipe \(recipe.id)\(request.pageLink("/r/\(recipe.id)"))"
            ])
        }
        let results = try await client.search(request.input.text(after: 0), for: me.id)
        if results.isEmpty { return BotResponse(["Edamam found nothing for that."]) }
        var lines = ["\(request.style.bold("From Edamam")):"]
        for (index, r) in results.enumerated() {
            let cuisine = (r.cuisineType ?? []).first.map { " · \($0)" } ?? ""
            let time = (r.totalTime ?? 0) > 0 ? " · \(Int(r.totalTime!)) min" : ""
            lines.append(
                "\(index + 1). \(r.label) — \(r.source ?? "?") · \(r.ingredientLines.count) "
                    + "ingredients\(cuisine)\(time) · \(r.url)"
            )
        }
        lines.append(request.style.dim("Import one: !edamam save N"))
        return BotResponse(lines)
    }

    static let all: [BotCommand] = [
        recipe, recipes, edamam,
        vote("up", 1, summary: "vote a recipe up"), vote("down", -1, summary: "vote a recipe down"),
        vote("unvote", 0, summary: "take back your vote"),
        saveCommand("save", saved: true), saveCommand("unsave", saved: false), saved, search, prefs,
    ]

    static func profileLine(_ context: ProfileContext) async throws -> String? {
        "recipes: \(context.tally.recipes)"
    }

    /// On login: a draft in progress is mentioned, and its lines keep coming to the bot.
    static func onLogin(_ services: BotServices, _ account: AccountRef) async throws -> [SessionEffect] {
        guard let draft = try await services.store.recipeDraft(accountID: account.id) else { return [] }
        let name = draft.title.isEmpty ? "a recipe draft" : "your recipe draft “\(draft.title)”"
        var effects: [SessionEffect] = [
            .notify(
                accountID: account.id, text: "You have \(name) — !recipe new to continue it, !recipe cancel to drop it."
            )
        ]
        if draft.stage != .ready { effects.append(.captureLines(accountID: account.id, on: false)) }
        return effects
    }
}
