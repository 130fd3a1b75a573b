import Foundation
import HTTPTypes
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthStore
import Hummingbird
import NIOCore

/// memegen's URL API, so its clients and chat bots work against Hearth: `/images/TEMPLATE/top/bottom.EXT`
/// (`MemeURL`) draws a meme on a built-in or operator template, and `/templates` lists them as
/// JSON with example URLs. A picture is kept by content (the render cache memes use) and the last
/// ones in memory by URL: asking again costs no drawing. New drawings are limited per address.
struct MemeURLRoutes {
    let core: Core
    let media: MediaLibrary
    let shared: WebShared

    /// Pictures one address may have drawn a minute (asking for one already drawn is free).
    static let rendersPerMinute = 30
    /// Drawn pictures kept in memory by key, at most this many and bytes.
    static let cacheEntries = 512
    static let cacheBytes = 48 * 1024 * 1024

    func add(to router: Router<HearthRequestContext>) {
        router.get("/images/**") { request, context in try await image(request, context) }
        router.get("/templates") { _, _ in try await templates(nil) }
        router.get("/templates/:id") { _, context in try await templates(context.parameters.get("id") ?? "") }
    }

    /// A template as a caption can be drawn on it: the picture and its boxes.
    struct Template {
        var id: String
        var name: String
        var base: MediaLibrary.MemeBase
        var boxes: [CaptionBox]
        var example: [String]
        var keywords: [String]
        var source: String? = nil
    }

    /// The built-in templates, then the operator's (`hearth template add`), by id.
    func allTemplates() async throws -> [Template] {
        var all = BuiltinTemplate.all.map {
            Template(
                id: $0.name, name: $0.summary, base: .builtin($0), boxes: $0.boxes, example: $0.example,
                keywords: $0.keywords)
        }
        for stored in try await core.store.templates(for: nil) where BuiltinTemplate.named(stored.nameKey) == nil {
            guard let image = try await core.store.image(id: stored.imageId) else { continue }
            let boxes =
                (try? JSONDecoder().decode([CaptionBox].self, from: Data(stored.boxes.utf8))) ?? CaptionBox.classic
            let example =
                stored.example.count == boxes.count
                ? stored.example
                : boxes.count == 2 ? ["top text", "bottom text"] : boxes.indices.map { "text \($0 + 1)" }
            all.append(
                Template(
                    id: stored.nameKey, name: stored.title ?? stored.name, base: .stored(image), boxes: boxes,
                    example: example, keywords: stored.keywords, source: stored.source))
        }
        return all
    }

    func image(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        // The same URL again is answered from memory before any parsing or database read.
        let uriKey = "uri " + request.uri.description
        if let kept = shared.memeURLPictures.get(uriKey) { return Self.answer(kept, etag: uriKey) }
        let path = String(request.uri.path.dropFirst("/images/".count))
        let url: MemeURL
        do {
            url = try MemeURL.parse(path: path, query: request.uri.query.flatMap(WebForms.decode) ?? [:])
        } catch {
            return MediaRoutes.text(.badRequest, error.description)
        }
        if url.format == .webp && !GDImage.writesWebP {
            return MediaRoutes.text(.unsupportedMediaType, "This server's libgd cannot write WebP: use png or jpg.")
        }
        guard let template = try await allTemplates().first(where: { $0.id == url.template }) else {
            return MediaRoutes.text(.notFound, "There is no template \"\(url.template)\": /templates lists them.")
        }
        let boxes = Array(url.boxes(template.boxes).prefix(max(1, url.lines.count)))
        if !url.layoutTop && url.lines.count > template.boxes.count {
            return MediaRoutes.text(
                .badRequest, "\(template.id) has \(template.boxes.count) text boxes; the URL gave \(url.lines.count).")
        }
        let captions = url.lines.isEmpty ? [""] : url.lines
        let key =
            MediaLibrary.renderKey(base: template.base, boxes: boxes, captions: captions, textScale: 1)
            + ".\(url.format.rawValue).\(url.width ?? 0)x\(url.height ?? 0)"
        let contentType = url.format.imageFormat.mimeType
        func answer(_ bytes: [UInt8]) -> Response {
            let picture = WebPicture.Drawn(bytes: bytes, contentType: contentType)
            shared.memeURLPictures.put(uriKey, picture)
            return Self.answer(picture, etag: uriKey)
        }
        if let stored = try await core.store.cachedRender(key: key),
            let bytes = try await media.read(id: stored.id, ext: url.format.imageFormat.fileExtension)
        {
            return answer(bytes)
        }
        if let wait = shared.memeURLRenders.take(context.client(request, core.config.httpProxies)) {
            return MediaRoutes.text(
                .tooManyRequests, "Too many new memes from your address: at most \(Self.rendersPerMinute) a minute.",
                headers: [.retryAfter: String(Int(wait.rounded(.up)))])
        }
        let rendered = try await media.renderMeme(
            base: template.base, boxes: boxes, captions: captions, textScale: 1, format: url.format.imageFormat,
            width: url.width, height: url.height)
        let image = try await core.store.addRender(rendered, key: key)
        if image.id != rendered.id { media.delete(ids: [rendered.id]) }  // drawn by another request meanwhile
        guard let bytes = try await media.read(id: image.id, ext: url.format.imageFormat.fileExtension) else {
            return MediaRoutes.text(.internalServerError, "The picture was drawn but could not be read back.")
        }
        return answer(bytes)
    }

    static func answer(_ picture: WebPicture.Drawn, etag: String) -> Response {
        let headers: HTTPFields = [
            .contentType: picture.contentType, .cacheControl: "public, max-age=86400",
            .eTag: "\"\(Sodium.hashSecret(etag).prefix(32))\"",
        ]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: picture.bytes)))
    }

    /// memegen's template objects: id, name, lines, blank and example URLs, keywords.
    func templates(_ id: String?) async throws -> Response {
        let base = media.publicURL
        let all = try await allTemplates()
        let chosen = id.map { id in all.filter { $0.id == id.lowercased() } } ?? all
        if id != nil && chosen.isEmpty {
            return MediaRoutes.text(.notFound, "There is no template \"\(id!)\": /templates lists them.")
        }
        let objects: [[String: Any]] = chosen.map { t in
            let text = t.example.map(MemeURL.escape).joined(separator: "/")
            return [
                "id": t.id, "name": t.name, "lines": t.boxes.count, "overlays": 0, "styles": [String](),
                "blank": "\(base)/images/\(t.id).png",
                "example": ["text": t.example, "url": "\(base)/images/\(t.id)/\(text).png"],
                "source": t.source.map { $0 as Any } ?? NSNull(), "keywords": t.keywords,
                "_self": "\(base)/templates/\(t.id)",
            ]
        }
        let json = try JSONSerialization.data(
            withJSONObject: id == nil ? objects as Any : objects[0] as Any,
            options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: [UInt8](json))))
    }
}
