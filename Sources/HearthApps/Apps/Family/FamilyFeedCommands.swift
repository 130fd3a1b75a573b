import Foundation
import HearthCrypto
import HearthKit
import HearthMedia
import HearthProtocol
import HearthStore

/// The family feed: posts, events, likes; comments go through `!comment post ID`.
enum FamilyFeedCommands {
    static let maxPost = 500

    /// A post of one of the caller's families.
    static func visiblePost(_ request: BotRequest, _ id: Int64) async throws -> Stored<FamilyPost> {
        let me = try request.account()
        guard let post = try await visiblePost(request.services.store, viewer: me.id, id) else {
            throw BotError("there is no post #\(id) in your families")
        }
        return post
    }

    /// The same rule for the web: nil unless the post is in one of `viewer`'s families.
    static func visiblePost(_ store: Store, viewer: Int64?, _ id: Int64) async throws -> Stored<FamilyPost>? {
        guard let post = try await store.familyPost(id: id),
            try await FamilyCommands.isMember(store, viewer: viewer, of: post.familyId)
        else { return nil }
        return post
    }

    static func publish(
        _ request: BotRequest, to family: Stored<FamilyRecord>, kind: String, text: String, imageID: String?,
        date: String?
    ) async throws -> BotResponse {
        let me = try request.account()
        let post = try await request.services.store.addFamilyPost(
            FamilyPost(
                familyId: family.id, accountId: me.id, kind: kind, text: text, imageId: imageID, eventDate: date,
                createdAt: request.services.clock.now()))
        let what = kind == "event" ? "an event on \(date!): \(text)" : "“\(text.prefix(80))”"
        let others = try await request.services.store.familyMemberIDs(family.id).subtracting([me.id])
        return BotResponse(
            ["Posted #\(post.id) to \(Words.possessive(family.name)) feed."],
            effects: others.sorted().flatMap { id -> [SessionEffect] in
                [
                    .notify(accountID: id, text: "\(me.name) posted to \(family.name): \(what) — !famfeed"),
                    // Members with no connection hear of it on their devices that asked.
                    .push(
                        PushNote(
                            accountID: id, kind: .family, text: "\(me.name) posted to \(family.name): \(what)",
                            link: "/family/\(family.id)")),
                ]
            })
    }

    static let post = BotCommand(
        "post", group: FamilyCommands.group, usage: "[#family-N] TEXT [IMAGE]",
        summary: "post to your family's feed (with one of your pictures)",
        example: "!post first day of school! 3f2a9c", arity: 1...Int.max, requiresLogin: true
    ) { request in
        let (me, family, skip) = try await FamilyCommands.target(request)
        var text = request.input.text(after: skip)
        var imageID: String?
        if let last = request.words.last, request.words.count > skip, last.count >= PictureCommands.minIDPrefix,
            last.allSatisfy(\.isHexDigit),
            let image = try? await PictureCommands.ownUpload(request, me, last)
        {
            imageID = image.id
            text = String(text.dropLast(last.count)).trimmingCharacters(in: .whitespaces)
        }
        guard text.count <= maxPost else { throw BotError("a post may have \(maxPost) characters") }
        guard !text.isEmpty || imageID != nil else { throw request.usageError("post what? some text or a picture") }
        return try await publish(request, to: family, kind: "text", text: text, imageID: imageID, date: nil)
    }

    static let event = BotCommand(
        "event", group: FamilyCommands.group, usage: "[#family-N] YYYY-MM-DD TITLE",
        summary: "put an event on your family's feed",
        example: "!event 2026-12-24 dinner at grandma's", arity: 2...Int.max, requiresLogin: true
    ) { request in
        let (_, family, skip) = try await FamilyCommands.target(request)
        guard request.words.count >= skip + 2 else { throw request.usageError() }
        let date = request.words[skip]
        guard LocalDays.utcDate(date) != nil, LocalDays.distance(date, date) == 0, date.count == 10 else {
            throw request.usageError("\(date) is not a date like 2026-12-24")
        }
        let title = request.input.text(after: skip + 1)
        guard title.count <= maxPost else { throw BotError("a title may have \(maxPost) characters") }
        return try await publish(request, to: family, kind: "event", text: title, imageID: nil, date: date)
    }

    static let famfeed = BotCommand(
        "famfeed", group: FamilyCommands.group, usage: "[#family-N] [PAGE]",
        summary: "your family's feed, newest first",
        example: "!famfeed",
        arity: 0...2, requiresLogin: true
    ) { request in
        let (_, family, skip) = try await FamilyCommands.target(request)
        let page = try Paging.page(request, request.words.dropFirst(skip).first)
        let (posts, total) = try await request.services.store.familyPosts(family.id, page: page)
        if total == 0 {
            return BotResponse(["\(Words.possessive(family.name)) feed is empty — !post TEXT or !event DATE TITLE"])
        }
        let now = request.services.clock.now()
        let url = FamilyCommands.linkable(request, family) ? request.services.pageURL("/family/\(family.id)") : nil
        var lines = ["\(request.style.bold("\(Words.possessive(family.name)) feed")):" + (url.map { " \($0)" } ?? "")]
        for (post, author) in posts {
            var line =
                "#\(post.id) \(author): " + (post.kind == "event" ? "📅 \(post.eventDate!) \(post.text)" : post.text)
            if let image = post.imageId, let media = request.services.media,
                let record = try await request.services.store.image(id: image)
            {
                line += " \(media.url(record))"
            }
            lines.append(
                line
                    + " · ♥\(post.likes) · \(Words.counted(post.comments, "comment")) · "
                    + TimeText.ago(from: post.createdAt, to: now)
            )
        }
        lines += Paging.footer(
            request, page: page, total: total, size: StoreLimits.familyPostPageSize, command: "!famfeed")
        lines.append(request.style.dim("!like post ID · !comment post ID TEXT · !comments post ID"))
        return BotResponse(lines)
    }

    static let all: [BotCommand] = [post, event, famfeed]
}
