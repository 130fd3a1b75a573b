import Foundation
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// The memes app on the web: a meme with its comments, a person's gallery and profile, and
/// the forms that like, favourite and comment (each one the bot command it stands for).
enum MemePages {
    static func imagePath(_ row: MemeRow) -> String { MediaLibrary.path(id: row.meme.imageId, format: row.format) }

    static let meme = WebPage("/m/:id", name: "meme", template: MemeTemplates.meme) { request in
        let id = try request.id()
        let store = request.services.store
        // The meme and its comments in one read (`MemeCommands.visibleMeme`'s rule, then).
        guard let read = try await store.memeWithComments(id: id, page: request.page, viewer: request.viewer?.id),
            try await MemeCommands.mayView(read.row, store, viewer: request.viewer?.id)
        else {
            throw WebRefusal.notFound("There is no meme #\(id).")
        }
        let (row, comments, total) = (read.row, read.comments, read.total)
        let m = row.meme
        let now = Date()
        var values: [String: Any] = [
            // Stored as `top | bottom`: trimmed, and an empty box left out, so the heading reads
            // "hello world", not "hello  world".
            "id": id, "caption": m.caption,
            "captions": m.caption.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty },
            "source": m.source, "author": row.author, "authorKey": IRCNames.fold(row.author),
            "ago": TimeText.ago(from: m.createdAt, to: now),
            "created": TimeText.iso8601(m.createdAt),
            "likesText": WebText.counted(m.likes, "like"), "favsText": WebText.counted(m.favs, "favourite"),
            "commentsText": WebText.counted(m.comments, "comment"), "image": imagePath(row),
            "comments": WebPartials.comments(comments, now: now),
            "maxComment": CommentCommands.maxCommentLength,
        ]
        values["paging"] = WebPaging.links(page: request.page, total: total, size: StoreLimits.commentPageSize)
        if let viewer = request.viewer {
            values["liked"] = try await store.hasReacted(.like, memeID: id, accountID: viewer.id)
            values["faved"] = try await store.hasReacted(.fav, memeID: id, accountID: viewer.id)
        }
        return WebContent(
            title: "Meme #\(id) by \(row.author)",
            summary:
                "“\(m.caption)” — ♥ \(m.likes) · ★ \(m.favs) · \(WebText.counted(m.comments, "comment"))",
            image: imagePath(row),
            values: values)
    }

    /// `/u/NAME`: the profile (unless either blocks the other) and the memes, if the owner's
    /// lists are open to the viewer (the same rules as `!profile` and `!memes NAME`).
    static let gallery = WebPage("/u/:name", name: "gallery", template: MemeTemplates.gallery) { request in
        let store = request.services.store
        let subject = try await request.person()
        if let viewer = request.viewer, try await store.isBlocked(viewer.id, by: subject.id) {
            throw WebRefusal.notFound("Nobody is called \(request.parameters["name"] ?? "").")
        }
        let tally = try await store.profileTally(of: subject.id)
        var values: [String: Any] = [
            "name": subject.name, "bio": subject.bio,
            "joined": subject.createdAt.formatted(.iso8601.year().month().day()),
            "followers": Words.counted(tally.followers, "follower"), "following": tally.following,
            "memeCount": Words.counted(tally.memes, "meme"), "recipes": Words.counted(tally.recipes, "recipe"),
            "points": Words.counted(tally.points, "point"), "whose": Words.possessive(subject.name),
        ]
        if let avatar = subject.avatarImageId, let image = try await store.image(id: avatar) {
            values["avatar"] = MediaLibrary.path(id: image.id, format: image.format)
        }
        // What the user set from an IRC client (METADATA), as `!profile` shows it.
        let fields = ProfileFields.shownPairs(try await store.profileFields(subject.id))
        values["fields"] = fields.map { ["label": $0.label, "value": $0.value] }
        values["hasFields"] = !fields.isEmpty
        var image = values["avatar"] as? String
        if let viewer = request.viewer {
            values["isSelf"] = viewer.id == subject.id
            values["follows"] = try await store.follows(viewer.id, subject.id)
        }
        values["key"] = IRCNames.fold(subject.name)
        if try await store.mayViewLists(of: subject.id, viewer: request.viewer?.id) {
            let cards = try await recipeCards(
                request.services, of: subject.id, viewer: request.viewer?.id, now: request.services.clock.now())
            // The recipes' own list (`RecipeTemplates.table`), which reads `recipes` inside.
            if !cards.isEmpty { values["recipeList"] = ["recipes": cards] }
            let friends = try await store.people(.friends, of: subject.id, after: nil)
            values["friends"] = friends.names.map { ["name": $0, "key": IRCNames.fold($0)] }
            values["hasFriends"] = !friends.names.isEmpty
            let (rows, total) = try await store.memes(of: subject.id, page: request.page)
            values["memes"] = rows.map { ["id": $0.meme.id, "caption": $0.meme.caption, "image": imagePath($0)] }
            values["paging"] = WebPaging.links(page: request.page, total: total, size: StoreLimits.memePageSize)
            values["open"] = true
            // Uploads too, when the owner chose to show them (`!set gallery uploads`).
            if UserSettings(stored: try await store.settings(subject.id))["gallery"] == "uploads" {
                let (uploads, _) = try await store.uploads(of: subject.id, page: 1)
                values["uploads"] = uploads.map { ["image": MediaLibrary.path(id: $0.id, format: $0.format)] }
                values["hasUploads"] = !uploads.isEmpty
            }
            image = image ?? rows.first.map(imagePath)
        }
        return WebContent(
            title: "\(subject.name) on Hearth",
            summary: subject.bio.isEmpty ? "\(Words.possessive(subject.name)) memes and profile" : subject.bio,
            image: image,
            values: values)
    }

    /// `/hot`: trending memes, ranked as `!hot` ranks them, for this viewer.
    static let hot = WebPage(
        "/hot", name: "hot", template: MemeTemplates.hot, nav: WebNavLink("Memes", position: 10)
    ) { request in
        let now = Date()
        let ranked = try await HotLists.hotMemes(request.services, viewer: request.viewer?.id, now: now)
        let size = StoreLimits.memePageSize
        let slice = ranked.dropFirst((request.page - 1) * size).prefix(size)
        let memes: [[String: Any]] = slice.map {
            [
                "id": $0.meme.id, "caption": $0.meme.caption, "image": imagePath($0), "author": $0.author,
                "likes": $0.meme.likes, "favs": $0.meme.favs,
            ]
        }
        return WebContent(
            title: "Hot memes", summary: "The memes people like most lately.", image: slice.first.map(imagePath),
            values: ["memes": memes, "paging": WebPaging.links(page: request.page, total: ranked.count, size: size)])
    }

    /// A person's newest recipes as photo cards (left out for a viewer either side blocks,
    /// as `!recipes by` leaves them out).
    static func recipeCards(_ services: BotServices, of accountID: Int64, viewer: Int64?, now: Date) async throws
        -> [[String: Any]]
    {
        let store = services.store
        if let viewer, try await store.eitherBlocks(viewer, accountID) { return [] }
        let (rows, _) = try await store.recipes(order: .new, author: accountID, page: 1)
        return try await RecipePages.items(rows, services, now: now)
    }

    /// Follow and unfollow on a profile: `!follow NAME` / `!unfollow NAME`.
    static let follow = WebAction(
        "/u/:name/follow",
        command: { p, form in
            guard let name = p["name"], !name.isEmpty, !name.contains(where: \.isWhitespace) else { return nil }
            return "!\(form["undo"] == "1" ? "unfollow" : "follow") \(name)"
        }, back: { p in "/u/\(WebText.queryEncoded(p["name"] ?? ""))" })

    static let actions: [WebAction] = [
        follow,
        WebAction("/m/:id/like", command: { p, form in toggle(p, form, on: "like", off: "unlike") }, back: back),
        WebAction("/m/:id/fav", command: { p, form in toggle(p, form, on: "fav", off: "unfav") }, back: back),
        WebAction(
            "/m/:id/comment",
            command: { p, form in
                guard let id = p["id"], let text = form["text"]?.trimmingCharacters(in: .whitespacesAndNewlines),
                    !text.isEmpty
                else { return nil }
                // One line: a comment is said as one chat line.
                return "!comment meme \(id) " + text.split(whereSeparator: \.isNewline).joined(separator: " ")
            }, back: back),
    ]

    static func back(_ parameters: [String: String]) -> String { "/m/\(parameters["id"] ?? "")" }

    static func toggle(_ parameters: [String: String], _ form: [String: String], on: String, off: String) -> String? {
        guard let id = parameters["id"] else { return nil }
        return "!\(form["undo"] == "1" ? off : on) \(id)"
    }
}
