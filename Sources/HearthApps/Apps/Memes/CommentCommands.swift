import Foundation
import HearthKit
import HearthProtocol
import HearthStore

/// Comments and sharing for every kind of thing (memes now; recipes and family posts add
/// themselves to `Shareable.kinds`).
struct Shareable: Sendable {
    /// One line describing the thing, if the caller may see it, for `readers` (nil: the reply's
    /// own), with its page's link only where they may all open it (docs/SECURITY.md): a share
    /// grants no view.
    let describe: @Sendable (BotRequest, Int64, FortuneCommands.Readers?) async throws -> String

    static let kinds: [String: Shareable] = [
        "meme": Shareable { request, id, readers in
            let readers = readers ?? .init(replyTo: request)
            let media = try PictureCommands.media(request)
            let row = try await MemeCommands.visibleMeme(request, id)
            let opens = try await MemeCommands.visibleMeme(request.services.store, viewer: readers.viewer, id) != nil
            return
                "meme #\(id) by \(row.author): “\(row.meme.caption)” "
                + "\(media.url(id: row.meme.imageId, format: row.format))"
                + (opens ? request.pageLink("/m/\(id)") : "")
        },
        "recipe": Shareable { request, id, readers in
            let readers = readers ?? .init(replyTo: request)
            let row = try await RecipeCommands.visible(request, id)
            let opens = try await RecipeCommands.visible(request.services.store, viewer: readers.viewer, id) != nil
            return "recipe #\(id) “\(row.recipe.title)” by \(row.author) (score \(row.recipe.score)) — !recipe \(id)"
                + (opens ? request.pageLink("/r/\(id)") : "")
        },
        "post": Shareable { request, id, _ in
            let post = try await FamilyFeedCommands.visiblePost(request, id)
            let author = try await request.services.store.account(id: post.accountId)?.name ?? "someone"
            return "post #\(id) by \(author): \(post.kind == "event" ? "📅 \(post.eventDate ?? "") " : "")\(post.text)"
        },
        "fortune": Shareable { request, id, readers in
            let f = try await FortuneCommands.visibleFortune(request, id)
            let owner = try await request.services.store.account(id: f.accountId)
            // Said as "dan shares …": their own cookie is "their fortune", not "dan's".
            let whose =
                f.accountId == request.caller.account?.id ? "their" : Words.possessive(owner?.name ?? "someone")
            var link = ""
            if let owner {
                link = try await FortuneCommands.pageLink(
                    request, owner: owner.id, nameKey: owner.nameKey, for: readers)
            }
            return "\(whose) fortune #\(id) of \(f.day): “\(f.text)” — lucky numbers \(f.numbers)" + link
        },
    ]

    static func kind(_ request: BotRequest, _ word: String) throws -> (String, Shareable) {
        let name = word.lowercased()
        guard let kind = kinds[name] else {
            throw request.usageError(
                "\(word) is not something I know — use \(kinds.keys.sorted().joined(separator: ", "))")
        }
        return (name, kind)
    }
}

enum CommentCommands {
    static let group = "comments"
    static let maxCommentLength = 400

    static func targetID(_ request: BotRequest, _ word: String) throws -> Int64 {
        guard let id = Int64(word.drop { $0 == "#" }), id > 0 else {
            throw request.usageError("\(word) is not a number")
        }
        return id
    }

    static let comment = BotCommand(
        "comment", group: group, usage: "KIND ID TEXT  ·  delete COMMENT-ID",
        summary: "comment on a meme (or delete your comment)",
        example: "!comment meme 12 this made my day", arity: 2...Int.max, requiresLogin: true
    ) { request in
        let me = try request.account()
        let store = request.services.store
        if request.words[0].lowercased() == "delete", request.words.count == 2 {
            let id = try targetID(request, request.words[1])
            guard try await store.deleteComment(id: id, by: me.id) != nil else {
                throw BotError("you have no comment #\(id)")
            }
            return BotResponse(["Comment #\(id) is deleted."])
        }
        guard request.words.count >= 3 else { throw request.usageError("what do you want to say?") }
        let (kind, shareable) = try Shareable.kind(request, request.words[0])
        let id = try targetID(request, request.words[1])
        _ = try await shareable.describe(request, id, nil)  // exists and visible to the caller
        let text = request.input.text(after: 2)
        if text.count > maxCommentLength {
            throw BotError("a comment may have \(maxCommentLength) characters; yours has \(text.count)")
        }
        guard let commentID = try await store.addComment(kind: kind, targetID: id, accountID: me.id, text: text) else {
            throw BotError("there is no \(kind) #\(id)")
        }
        var effects: [SessionEffect] = []
        if let owner = try await store.commentTargetOwner(kind: kind, id: id), owner != me.id {
            let settings = UserSettings(stored: try await store.settings(owner))
            if settings.notify {
                effects.append(
                    .notify(accountID: owner, text: "\(me.name) commented on your \(kind) #\(id): \(text.prefix(80))"))
            }
        }
        return BotResponse(["Comment #\(commentID) added to \(kind) #\(id)."], effects: effects)
    }

    static let comments = BotCommand(
        "comments", group: group, usage: "KIND ID [PAGE]", summary: "the comments on a meme",
        example: "!comments meme 12",
        arity: 2...3
    ) { request in
        let (kind, shareable) = try Shareable.kind(request, request.words[0])
        let id = try targetID(request, request.words[1])
        let head = try await shareable.describe(request, id, nil)
        if kind == "post" {  // a family's post and its comments stay in the family
            let post = try await FamilyFeedCommands.visiblePost(request, id)
            return FamilyPrivacy.kept(try await listing(request, kind, id, head), request, familyID: post.familyId)
        }
        return try await listing(request, kind, id, head)
    }

    /// `head` and a page of the comments on `kind` `id`.
    static func listing(_ request: BotRequest, _ kind: String, _ id: Int64, _ head: String) async throws
        -> BotResponse
    {
        let page = try Paging.page(request, request.words.count > 2 ? request.words[2] : nil)
        let (rows, total) = try await request.services.store.comments(
            kind: kind, targetID: id, page: page, viewer: request.caller.account?.id)
        if total == 0 { return BotResponse([head, "No comments yet — !comment \(kind) \(id) TEXT"]) }
        let now = Date()
        return BotResponse(
            [head]
                + rows.map {
                    "#\($0.id) \(request.style.bold($0.author)): \($0.text) · "
                        + "\(TimeText.ago(from: $0.createdAt, to: now))"
                }
                + Paging.footer(
                    request, page: page, total: total, size: StoreLimits.commentPageSize,
                    command: "!comments \(kind) \(id)"))
    }

    static let share = BotCommand(
        "share", group: group, usage: "KIND ID #CHANNEL|USER",
        summary: "show a meme to a channel you are in, or to someone",
        example: "!share meme 12 #lobby", arity: 3...3, requiresLogin: true
    ) { request in
        let me = try request.account()
        let (kind, shareable) = try Shareable.kind(request, request.words[0])
        if kind == "post" { throw BotError("family posts stay in the family") }
        let id = try targetID(request, request.words[1])
        let target = request.words[2]
        if IRCNames.isChannel(target) {
            let line = try await shareable.describe(request, id, .anyone)
            guard
                let live = request.presence.channel(
                    nameKey: IRCNames.fold(target), sessionID: request.caller.sessionID),
                live.callerIsMember
            else { throw BotError("join \(target) first; you can share only where you are") }
            // The bot speaks for the caller: not where the caller may not speak (+m, a ban).
            if let refusal = live.callerSendRefusal { throw BotError("you can't share in \(live.name): \(refusal)") }
            return BotResponse(
                ["Shared in \(live.name)."],
                effects: [.channelMessage(nameKey: IRCNames.fold(target), text: "\(me.name) shares \(line)")])
        }
        let person = try await SocialCommands.other(request, me, target)
        if try await request.services.store.eitherBlocks(me.id, person.id) {
            throw BotError("you can't share with \(person.name)")
        }
        let line = try await shareable.describe(request, id, .account(person.id))
        if request.presence.sessionUsing(nickKey: IRCNames.fold(person.name)) == nil {
            _ = try await request.services.store.keepOfflineMessage(
                recipientKey: person.nameKey, senderID: me.id, senderName: me.name, text: "shared \(line)")
            return BotResponse(["\(person.name) is offline; they will see it when they next log in."])
        }
        return BotResponse(
            ["Shared with \(person.name)."],
            effects: [.notify(accountID: person.id, text: "\(me.name) shares \(line)")])
    }

    static let all: [BotCommand] = [comment, comments, share]
}
