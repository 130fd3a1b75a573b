import Foundation
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthStore

/// The meme maker on the web (`/make`): pick a template (searchable) or one of your pictures,
/// type the captions, see a preview drawn by the same rules and renderer as `!meme`, and post —
/// the post is `!meme SOURCE text | text` said by the signed-in user.
enum MemeMaker {
    /// Caption fields a form may carry (`text1`…); no built-in template has more boxes.
    static let maxFields = 6
    /// Characters of a search word and of a source word (a template name or a picture id).
    static let maxWordLength = 40

    /// A field as one caption of the command: one line, and `|` (which separates captions in
    /// chat) shown as `/` instead of starting another caption.
    static func caption(_ field: String?) -> String {
        (field ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
            .replacingOccurrences(of: "|", with: "/").trimmingCharacters(in: .whitespaces)
    }

    /// The source word of a form or query: one word, or nil.
    static func source(_ fields: [String: String]) -> String? {
        guard let word = (fields["picture"] ?? fields["source"])?.trimmingCharacters(in: .whitespaces),
            !word.isEmpty, word.count <= maxWordLength, !word.contains(where: { $0.isWhitespace || $0 == "|" })
        else { return nil }
        return word
    }

    /// The captions of a form, up to its last non-empty field.
    static func captions(_ fields: [String: String]) -> [String] {
        var texts = (1...maxFields).map { caption(fields["text\($0)"]) }
        while texts.last?.isEmpty == true { texts.removeLast() }
        return texts
    }

    static let page = WebPage("/make", name: "maker", template: MemeTemplates.maker) { request in
        let me = try request.signedIn("Sign in to make a meme.")
        let store = request.services.store
        guard let media = request.services.media else {
            throw WebRefusal.notFound("Pictures are not set up on this server.")
        }
        let word = String((request.query["q"] ?? "").trimmingCharacters(in: .whitespaces).prefix(maxWordLength))
        // A post that failed comes back with its form (`WebAction.formPage`), else the link's query.
        let typed = request.form.isEmpty ? request.query : request.form
        let source = source(typed)
        var templates: [[String: Any]] = []
        let shown = BuiltinTemplate.all.filter { PictureCommands.matches($0, word) }
        for template in shown {
            // Drawn when the browser first asks for it: a fresh server's page answers at once.
            let preview = media.templatePreviewURL(template)
            templates.append([
                "name": template.name, "summary": template.summary, "selected": template.name == source,
                "keywords": ([template.name, template.summary] + template.keywords).joined(separator: " ").lowercased(),
                "image": URL(string: preview)?.path ?? preview,
            ])
        }
        let own = try await store.templates(for: me.id).filter { PictureCommands.matches($0.value, word) }
        let (uploads, _) = try await store.uploads(of: me.id, page: 1)
        var values: [String: Any] = [
            "q": word, "templates": templates, "noMatch": templates.isEmpty && own.isEmpty,
            "own": own.map { ["name": $0.name, "image": MediaLibrary.path(id: $0.imageId, format: "jpeg")] },
            "uploads": uploads.map {
                ["id": PictureCommands.shortID($0.id), "image": MediaLibrary.path(id: $0.id, format: $0.format)]
            },
            "hasUploads": !uploads.isEmpty, "maxUpload": MediaLibrary.maxUploadMiB,
            "maxCaption": MediaLimits.maxCaptionBytes,
        ]
        if let source {
            let texts = (1...maxFields).map { caption(typed["text\($0)"]) }
            do {
                let (_, boxes) = try await MemeDraft.picture(source, for: me, store: store)
                let count = min(boxes.count, maxFields)
                values["fields"] = (0..<count).map { i in
                    [
                        "n": i + 1, "value": texts[i],
                        "label": count == 2 ? (i == 0 ? "Top text" : "Bottom text") : "Text \(i + 1)",
                    ] as [String: Any]
                }
                var query = "source=" + WebText.queryEncoded(source)
                for (i, text) in texts.prefix(count).enumerated() where !text.isEmpty {
                    query += "&text\(i + 1)=" + WebText.queryEncoded(text)
                }
                values["source"] = source
                values["preview"] = "/make/preview?" + query
            } catch let error as BotError {
                values["problem"] = error.message
            }
        }
        return WebContent(title: "Make a meme", summary: "Pick a picture, type the captions, post.", values: values)
    }

    /// The live preview: the same draft and renderer as `!meme`, nothing stored.
    static let preview = WebPicture("/make/preview") { request in
        let me = try request.signedIn("Sign in to make a meme.")
        guard let media = request.services.media else {
            throw WebRefusal.notFound("Pictures are not set up on this server.")
        }
        guard let source = source(request.query) else { throw BotError("choose a template or a picture first") }
        let store = request.services.store
        let (_, boxes) = try await MemeDraft.picture(source, for: me, store: store)
        let texts = (1...maxFields).map { caption(request.query["text\($0)"]) }
        var captions = try MemeDraft.captions(texts.prefix(boxes.count).joined(separator: "|"))
        var options: [MemeBoxOptions] = []
        if let placed = placedTexts(request.query) {
            (captions, options) = try MemeBoxOptions.parse(placed)
        }
        let settings = UserSettings(stored: try await store.settings(me.id))
        let draft = try await MemeDraft.make(
            source: source, captions: captions, options: options, for: me, store: store, settings: settings)
        let bytes = try await media.previewMeme(
            base: draft.base, boxes: draft.boxes, captions: draft.captions, textScale: draft.scale)
        return WebPicture.Drawn(bytes: bytes, contentType: "image/jpeg")
    }

    /// Posting the maker's form: `!meme SOURCE text | text`; then the meme's page, or the maker
    /// again (422) with what was typed and the reason.
    static let post: WebAction = {
        var action = WebAction(
            "/make",
            command: { _, form in
                guard let source = source(form) else { return nil }
                if let placed = placedTexts(form) { return "!meme \(source) " + placed }
                return "!meme \(source) " + captions(form).joined(separator: " | ")
            }, back: { _ in "/make" })
        action.formPage = page
        return action
    }()
}
