import Foundation
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthProtocol
import HearthStore

/// Making memes, looking at them, liking, favouriting, trending.
enum MemeCommands {
    static let group = "memes"
    /// Text-size setting → caption scale.
    static let textScales = ["small": 0.8, "normal": 1.0, "large": 1.25]

    static func memeID(_ request: BotRequest, _ word: String) throws -> Int64 {
        guard let id = Int64(word.drop { $0 == "#" }), id > 0 else {
            throw request.usageError("\(word) is not a meme number")
        }
        return id
    }

    /// A meme the caller may see (not from someone who blocks them or whom they block).
    static func visibleMeme(_ request: BotRequest, _ id: Int64) async throws -> MemeRow {
        guard let row = try await visibleMeme(request.services.store, viewer: request.caller.account?.id, id) else {
            throw BotError("there is no meme #\(id)")
        }
        return row
    }

    /// The same rule for the web: nil when there is no such meme for `viewer`.
    static func visibleMeme(_ store: Store, viewer: Int64?, _ id: Int64) async throws -> MemeRow? {
        guard let row = try await store.meme(id: id), try await mayView(row, store, viewer: viewer) else { return nil }
        return row
    }

    /// Whether `viewer` may see a meme that exists: not when either blocks the other.
    static func mayView(_ row: MemeRow, _ store: Store, viewer: Int64?) async throws -> Bool {
        guard let viewer else { return true }
        return try await !store.eitherBlocks(viewer, row.meme.accountId)
    }

    /// `!meme SOURCE text | text`, `!meme show ID`, `!meme delete ID`.
    static let meme = BotCommand(
        "meme", group: group,
        usage: "TEMPLATE|IMAGE top text | bottom text  ·  IMAGE \"top\" \"bottom\" --box x,y,w,h --font F --color C"
            + " --outline C|none --align left|center|right --valign top|middle|bottom  ·  show ID  ·  delete ID",
        summary: "make a meme from a template or your picture (more | parts for templates with more texts)",
        example: "!meme sunset when the build is green | on the first try", arity: 1...Int.max
    ) { request in
        switch request.words[0].lowercased() {
        case "show" where request.words.count == 2:
            return try await show(request, try memeID(request, request.words[1]))
        case "delete" where request.words.count == 2:
            return try await delete(request, try memeID(request, request.words[1]))
        default: return try await make(request)
        }
    }

    static func make(_ request: BotRequest) async throws -> BotResponse {
        let me = try request.account()
        let media = try PictureCommands.media(request)
        let store = request.services.store
        let sourceWord = request.words[0]
        let text = request.input.text(after: 1)
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw request.usageError("what should it say? Separate the texts with |")
        }
        let (captions, options) =
            MemeBoxOptions.used(in: text) ? try MemeBoxOptions.parse(text) : (try MemeDraft.captions(text), [])
        let draft = try await MemeDraft.make(
            source: sourceWord, captions: captions, options: options, for: me, store: store, settings: request.settings)
        let (base, boxes, scale) = (draft.base, draft.boxes, draft.scale)
        let key = MediaLibrary.renderKey(base: base, boxes: boxes, captions: captions, textScale: scale)
        let image: ImageRecord
        if let cached = try await store.cachedRender(key: key) {
            image = cached
        } else {
            let rendered = try await media.renderMeme(base: base, boxes: boxes, captions: captions, textScale: scale)
            image = try await store.addRender(rendered, key: key)
            if image.id != rendered.id { media.delete(ids: [rendered.id]) }  // someone rendered it at the same moment
        }
        let caption = captions.joined(separator: " | ")
        let link = media.url(image)
        let meme = try await store.addMeme(
            MemeRecord(accountId: me.id, imageId: image.id, source: sourceWord.lowercased(), caption: caption),
            feedText: "made meme \(FeedText.idMark) “\(caption.prefix(60))” \(link)")
        var response = BotResponse([
            "\(request.style.bold("meme #\(meme.id)")) by \(me.name): \(link)" + request.pageLink("/m/\(meme.id)")
        ])
        response.madePage = "/m/\(meme.id)"
        return response
    }

    static func show(_ request: BotRequest, _ id: Int64) async throws -> BotResponse {
        let media = try PictureCommands.media(request)
        let row = try await visibleMeme(request, id)
        let m = row.meme
        var mine: [String] = []
        if let me = request.caller.account?.id {
            if try await request.services.store.hasReacted(.like, memeID: id, accountID: me) {
                mine.append("you like it")
            }
            if try await request.services.store.hasReacted(.fav, memeID: id, accountID: me) {
                mine.append("in your favourites")
            }
        }
        return BotResponse([
            "\(request.style.bold("meme #\(id)")) by \(row.author), \(TimeText.ago(from: m.createdAt, to: Date())) "
                + "from \(m.source): “\(m.caption)”",
            "♥ \(Words.counted(m.likes, "like")) · ★ \(Words.counted(m.favs, "favourite")) · "
                + Words.counted(m.comments, "comment")
                + (mine.isEmpty ? "" : " (\(mine.joined(separator: ", ")))")
                + " · \(media.url(id: m.imageId, format: row.format))"
                + request.pageLink("/m/\(id)"),
            request.style.dim(
                "!like \(id) · !fav \(id) · !comment meme \(id) TEXT · !comments meme \(id) · !share meme \(id) "
                    + "#channel"
            ),
        ])
    }

    static func delete(_ request: BotRequest, _ id: Int64) async throws -> BotResponse {
        let me = try request.account()
        guard try await request.services.store.deleteMeme(id: id, by: me.id) else {
            throw BotError("you have no meme #\(id) — !memes lists yours")
        }
        return BotResponse(["Meme #\(id) is deleted, with its likes and comments."])
    }

    static func table(_ request: BotRequest, _ rows: [MemeRow], media: MediaLibrary) -> [String] {
        let now = Date()
        return rows.map { row in
            let m = row.meme
            return
                "#\(m.id)  “\(m.caption.count > 40 ? m.caption.prefix(39) + "…" : Substring(m.caption))”  "
                + "♥\(m.likes) ★\(m.favs)  \(row.author)  \(TimeText.ago(from: m.createdAt, to: now))  "
                + media.url(id: m.imageId, format: row.format)
        }
    }

    /// `!memes [USER] [PAGE]` and `!memes grid [USER]`.
    static let memes = BotCommand(
        "memes", group: group, usage: "[USER] [PAGE]  ·  grid [USER]",
        summary: "memes as a table (yours or USER's), or one grid picture",
        example: "!memes alice 2", arity: 0...3
    ) { request in
        let media = try PictureCommands.media(request)
        let store = request.services.store
        var words = request.words
        let grid = words.first?.lowercased() == "grid"
        if grid { words.removeFirst() }
        var pageWord: String?
        if let last = words.last, Int(last) != nil { pageWord = words.removeLast() }
        guard words.count <= 1 else { throw request.usageError() }
        let owner: AccountRef
        if let name = words.first {
            let account = try await SocialCommands.person(request, name)
            owner = AccountRef(id: account.id, name: account.name)
        } else {
            owner = try request.account()
        }
        guard try await store.mayViewLists(of: owner.id, viewer: request.caller.account?.id) else {
            throw BotError("\(owner.name) shares memes with friends only (mutual follows)")
        }
        if grid {
            let (rows, total) = try await store.memes(of: owner.id, page: 1, pageSize: GridLayout.maxTiles)
            if total == 0 { return BotResponse(["\(owner.name) has no memes yet."]) }
            var images: [ImageRecord] = []
            for row in rows { if let image = try await store.image(id: row.meme.imageId) { images.append(image) } }
            let picture = try await media.grid(images, ownerID: request.caller.account?.id ?? owner.id)
            try await store.addImage(picture)
            let answer = BotResponse([
                "\(request.style.bold("\(Words.possessive(owner.name)) memes"))"
                    + " (\(images.count) of \(total)): \(media.url(picture))"
            ])
            return try await ListPrivacy.kept(answer, request, owner: owner.id)
        }
        let page = try Paging.page(request, pageWord)
        let (rows, total) = try await store.memes(of: owner.id, page: page)
        if total == 0 { return BotResponse(["\(owner.name) has no memes yet — make one: !meme sunset top | bottom"]) }
        if rows.isEmpty {
            return BotResponse(["There is no page \(page); there are \(Paging.pages(total, StoreLimits.memePageSize))."]
            )
        }
        let gallery = request.services.pageURL("/u/\(IRCNames.fold(owner.name))").map { " \($0)" } ?? ""
        var lines =
            ["\(request.style.bold("\(Words.possessive(owner.name)) memes")) (\(total)):\(gallery)"]
            + table(request, rows, media: media)
        lines += Paging.footer(
            request, page: page, total: total, size: StoreLimits.memePageSize, command: "!memes \(owner.name)")
        return try await ListPrivacy.kept(BotResponse(lines), request, owner: owner.id)
    }

    static func reaction(_ name: String, _ reaction: Reaction, on: Bool, summary: String) -> BotCommand {
        let usage = reaction == .like ? "[meme|post] ID" : "ID"
        return BotCommand(
            name, group: group, usage: usage, summary: summary, example: "!\(name) 12", arity: 1...2,
            requiresLogin: true
        ) { request in
            let me = try request.account()
            if reaction == .like, request.words.count == 2, request.words[0].lowercased() == "post" {
                let id = try memeID(request, request.words[1])
                _ = try await FamilyFeedCommands.visiblePost(request, id)
                guard let (changed, count) = try await request.services.store.likePost(id, accountID: me.id, on: on)
                else {
                    throw BotError("there is no post #\(id) in your families")
                }
                let what =
                    on
                    ? (changed ? "You like post #\(id)." : "You already like post #\(id).")
                    : (changed ? "You no longer like post #\(id)." : "You didn't like post #\(id).")
                return BotResponse(["\(what) It has \(count) like\(count == 1 ? "" : "s")."])
            }
            if request.words.count == 2 && request.words[0].lowercased() != "meme" { throw request.usageError() }
            let id = try memeID(request, request.words.last!)
            _ = try await visibleMeme(request, id)
            guard
                let (changed, count) = try await request.services.store.react(
                    reaction, memeID: id, accountID: me.id, on: on)
            else {
                throw BotError("there is no meme #\(id)")
            }
            let noun = (reaction == .like ? "like" : "favourite") + (count == 1 ? "" : "s")
            let what: String
            switch (reaction, on, changed) {
            case (.like, true, true): what = "You like meme #\(id)."
            case (.like, true, false): what = "You already like meme #\(id)."
            case (.like, false, true): what = "You no longer like meme #\(id)."
            case (.like, false, false): what = "You didn't like meme #\(id)."
            case (.fav, true, true): what = "Meme #\(id) is in your favourites (!favs)."
            case (.fav, true, false): what = "Meme #\(id) is already in your favourites."
            case (.fav, false, true): what = "Meme #\(id) is out of your favourites."
            case (.fav, false, false): what = "Meme #\(id) wasn't in your favourites."
            }
            return BotResponse(["\(what) It has \(count) \(noun)."])
        }
    }

    static let favs = BotCommand(
        "favs", group: group, usage: "[PAGE]", summary: "your favourite memes", example: "!favs", arity: 0...1,
        requiresLogin: true
    ) { request in
        let me = try request.account()
        let media = try PictureCommands.media(request)
        let page = try Paging.page(request, request.words.first)
        let (rows, total) = try await request.services.store.favourites(of: me.id, page: page)
        if total == 0 { return BotResponse(["No favourites yet — !fav ID on a meme you love."]) }
        return BotResponse(
            ["\(request.style.bold("Your favourites")) (\(total)):"] + table(request, rows, media: media)
                + Paging.footer(request, page: page, total: total, size: StoreLimits.memePageSize, command: "!favs"))
    }

    /// Trending: reactions weighted by age (a day-old like counts about a third of a new one).
    static func hotScore(_ m: Stored<MemeRecord>, now: Date) -> Double {
        let hours = max(0, now.timeIntervalSince(m.createdAt) / 3600)
        return Double(m.likes + 2 * m.favs + m.comments + 1) / pow(hours + 2, 1.5)
    }

    /// The memes of the last `hotWindow` that `viewer` may see, hottest first.
    static func hotMemes(_ store: any Store, viewer: Int64?, now: Date) async throws -> [MemeRow] {
        let recent = try await store.recentMemes(for: viewer, since: now.addingTimeInterval(-StoreLimits.hotWindow))
        return recent.sorted { hotScore($0.meme, now: now) > hotScore($1.meme, now: now) }
    }

    static let hot = BotCommand(
        "hot", group: group, usage: "[PAGE]", summary: "trending memes: most liked lately", example: "!hot",
        arity: 0...1
    ) { request in
        let media = try PictureCommands.media(request)
        let page = try Paging.page(request, request.words.first)
        let now = Date()
        let ranked = try await hotMemes(request.services.store, viewer: request.caller.account?.id, now: now)
        let slice = Array(ranked.dropFirst((page - 1) * StoreLimits.memePageSize).prefix(StoreLimits.memePageSize))
        if ranked.isEmpty { return BotResponse(["Nothing is trending yet — make a meme: !meme sunset top | bottom"]) }
        if slice.isEmpty { return BotResponse(["There is no page \(page)."]) }
        return BotResponse(
            ["\(request.style.bold("Hot memes")):"] + table(request, slice, media: media)
                + Paging.footer(
                    request, page: page, total: ranked.count, size: StoreLimits.memePageSize, command: "!hot"))
    }

    static let all: [BotCommand] = [
        meme, memes,
        reaction("like", .like, on: true, summary: "like a meme"),
        reaction("unlike", .like, on: false, summary: "take back your like"),
        reaction("fav", .fav, on: true, summary: "add a meme to your favourites"),
        reaction("unfav", .fav, on: false, summary: "remove a meme from your favourites"),
        favs, hot,
    ]

    /// `!profile` line: picture and meme counts.
    static func profileLine(_ context: ProfileContext, media: MediaLibrary?) async throws -> String? {
        let total = context.tally.memes
        var parts: [String] = []
        if let avatar = context.subject.avatarImageId, let media, let image = try await context.store.image(id: avatar)
        {
            parts.append("picture: \(media.url(image))")
        } else {
            parts.append("picture: none yet (!avatar IMAGE)")
        }
        parts.append("memes: \(total)")
        return parts.joined(separator: " · ")
    }
}
