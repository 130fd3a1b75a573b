import Foundation
import HearthCrypto
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthStore

/// Uploads, your pictures, templates and your profile picture.
enum PictureCommands {
    static let group = "pictures"
    /// Shortest image-id prefix people may type.
    static let minIDPrefix = 6

    static func media(_ request: BotRequest) throws -> MediaLibrary {
        guard let media = request.services.media else { throw BotError("pictures are not set up on this server") }
        return media
    }

    /// One of the caller's uploads, by its id or the first few characters of it.
    static func ownUpload(_ request: BotRequest, _ me: AccountRef, _ text: String) async throws -> ImageRecord {
        try await ownUpload(request.services.store, me, text)
    }

    static func ownUpload(_ store: Store, _ me: AccountRef, _ text: String) async throws -> ImageRecord {
        let prefix = text.lowercased()
        guard prefix.count >= minIDPrefix, prefix.allSatisfy({ $0.isHexDigit }) else {
            throw BotError(
                "\"\(text)\" is not a picture id — !images lists yours (the first \(minIDPrefix) characters are enough)"
            )
        }
        let found = try await store.uploads(of: me.id, idPrefix: prefix)
        guard let image = found.first else {
            throw BotError("you have no picture \(text) — !images lists yours, !upload adds one")
        }
        if found.count > 1 { throw BotError("\(text) matches several of your pictures; type more of the id") }
        return image
    }

    static func shortID(_ id: String) -> String { String(id.prefix(8)) }

    static let upload = BotCommand(
        "upload", group: group, summary: "a one-time link to upload a picture to (curl -T or a browser)",
        example: "!upload", arity: 0...0, requiresLogin: true
    ) { request in
        let me = try request.account()
        let media = try media(request)
        let token = Sodium.hex(Sodium.randomBytes(16))
        try await request.services.store.addUploadTicket(
            tokenHash: Sodium.hashSecret(token), accountID: me.id,
            expiresAt: Date().addingTimeInterval(MediaLibrary.uploadLinkLifetime))
        let link = "\(media.publicURL)/upload/\(token)"
        let minutes = Int(MediaLibrary.uploadLinkLifetime / 60)
        return BotResponse(
            request.caller.channel == nil ? [] : ["I sent you an upload link privately."],
            privateLines: [
                "Upload one picture within \(minutes) minutes: curl -T photo.jpg \(link)  — or open \(link) in a "
                    + "browser.",
                "PNG, JPEG, GIF or WebP, up to \(MediaLibrary.maxUploadMiB) MiB; I'll tell you its id here.",
            ])
    }

    static let images = BotCommand(
        "images", group: group, usage: "[PAGE]", summary: "your uploaded pictures with their ids and links",
        example: "!images 2", arity: 0...1, requiresLogin: true
    ) { request in
        let me = try request.account()
        let media = try media(request)
        let page = try Paging.page(request, request.words.first)
        let (images, total) = try await request.services.store.uploads(of: me.id, page: page)
        if total == 0 { return BotResponse(["You have no pictures yet — !upload gives you a link to add one."]) }
        if images.isEmpty {
            return BotResponse(["There is no page \(page); you have \(Paging.pages(total, StoreLimits.imagePageSize))."]
            )
        }
        let now = Date()
        var lines = ["\(request.style.bold("Your pictures")) (\(total)):"]
        lines += images.map {
            "\(shortID($0.id))  \($0.width)×\($0.height) \($0.format)  \(TimeText.ago(from: $0.createdAt, to: now))  "
                + "\(media.url($0))"
        }
        lines += Paging.footer(request, page: page, total: total, size: StoreLimits.imagePageSize, command: "!images")
        return BotResponse(lines)
    }

    /// Whether a built-in template answers a search word (`!templates WORD`, the maker's search).
    static func matches(_ template: BuiltinTemplate, _ word: String?) -> Bool {
        guard let word = word?.lowercased(), !word.isEmpty else { return true }
        return template.name.contains(word) || template.keywords.contains { $0.contains(word) }
            || template.summary.lowercased().contains(word)
    }

    /// A stored template matches by its name, title (an imported pack's) or keywords.
    static func matches(_ template: TemplateRecord, _ word: String?) -> Bool {
        guard let word = word?.lowercased(), !word.isEmpty else { return true }
        return template.nameKey.contains(word) || (template.title?.lowercased().contains(word) ?? false)
            || template.keywords.contains { $0.lowercased().contains(word) }
    }

    static let templates = BotCommand(
        "templates", group: group, usage: "[WORD]", summary: "meme templates with preview links (those matching WORD)",
        example: "!templates brain", arity: 0...1
    ) { request in
        let media = try media(request)
        let word = request.words.first?.lowercased()
        let builtins = BuiltinTemplate.all.filter { matches($0, word) }
        var lines: [String] = []
        for template in builtins {
            let link = media.templatePreviewURL(template)
            lines.append(
                "\(request.style.bold(template.name)) (\(template.boxes.count) texts) — \(template.summary) · \(link)")
        }
        let own = try await request.services.store.templates(for: request.caller.account?.id).filter {
            matches($0.value, word)
        }
        for template in own {
            let whose = template.ownerId == nil ? "everyone's" : "yours"
            let title = template.title.map { " — \($0)" } ?? ""
            lines.append(
                "\(request.style.bold(template.name)) (\(whose))\(title) · "
                    + media.url(id: template.imageId, format: "jpeg"))
        }
        if lines.isEmpty { return BotResponse(["No template matches \"\(word ?? "")\" — !templates lists them all."]) }
        lines.append(
            request.style.dim(
                "Use one: !meme NAME top text | bottom text — e.g. !meme \(builtins.first?.name ?? "sunset") hello | "
                    + "world"
            ))
        return BotResponse(lines)
    }

    static let templateAdd = BotCommand(
        "template", group: group, usage: "add NAME IMAGE",
        summary: "make one of your pictures a template (top and bottom text)",
        example: "!template add office 3f2a9c", arity: 3...3, requiresLogin: true
    ) { request in
        let me = try request.account()
        guard request.words[0].lowercased() == "add" else { throw request.usageError() }
        let name = request.words[1]
        if let problem = TemplateNames.problem(name) { throw BotError(problem) }
        let image = try await ownUpload(request, me, request.words[2])
        let boxes = String(decoding: try JSONEncoder().encode(CaptionBox.classic), as: UTF8.self)
        do {
            _ = try await request.services.store.addTemplate(
                TemplateRecord(ownerId: me.id, name: name, imageId: image.id, boxes: boxes))
        } catch StoreError.nameTaken {
            throw BotError("you already have a template called \(name)")
        }
        return BotResponse(["Template \(request.style.bold(name)) is ready: !meme \(name) top text | bottom text"])
    }

    static let avatar = BotCommand(
        "avatar", group: SocialCommands.profileGroup, usage: "IMAGE|off",
        summary: "your profile picture (one of your uploads)",
        example: "!avatar 3f2a9c", arity: 1...1, requiresLogin: true
    ) { request in
        let me = try request.account()
        let media = try media(request)
        if request.words[0].lowercased() == "off" {
            try await request.services.store.setAvatar(me.id, imageID: nil)
            return BotResponse(["Your profile has no picture now."])
        }
        let image = try await ownUpload(request, me, request.words[0])
        try await request.services.store.setAvatar(me.id, imageID: image.id)
        return BotResponse(["Your profile picture is now \(media.url(image)) — see !profile."])
    }

    static let all: [BotCommand] = [upload, images, templates, templateAdd, avatar]
}

extension MediaLibrary {
    static var maxUploadMiB: Int { MediaLimits.maxUploadBytes / 1024 / 1024 }
}
