import Foundation
import HTTPTypes
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthStore
import Hummingbird
import NIOCore

/// Pictures from a browser: a signed-in person's upload from a page's form (`POST /pictures`,
/// a file and the CSRF token, drag and drop or a phone's camera or album), which goes back to
/// the page it came from with the picture chosen; and the page an upload link answers a browser.
struct WebUpload {
    let routes: WebRoutes
    let media: MediaLibrary

    /// The meme maker, where an uploaded picture leads (`?picture=ID`).
    static let makerPath = "/make"

    func add(to router: Router<HearthRequestContext>) {
        router.post("/pictures") { request, context in try await upload(request, context) }
    }

    func upload(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        try await WebRoutes.answer {
            let (viewer, form) = try await routes.fileForm(request, back: Self.makerPath)
            let next = LocalRedirect.path(form.field("next") ?? Self.makerPath)
            guard routes.shared.uploads.allow(viewer.id) else {
                return routes.redirect(next, flash: Self.tooMany)
            }
            return try await store(form.firstFile ?? [], viewer: viewer, next: next)
        }
    }

    static let tooMany = "Not stored: at most \(WebLimits.uploadsPerHour) pictures an hour from the web; try later."

    func store(_ file: [UInt8], viewer: AccountRef, next: String) async throws -> Response {
        let image: ImageRecord
        switch try await MediaRoutes(core: routes.core, media: media).keep(file, accountID: viewer.id, ticket: nil) {
        case .success(let stored): image = stored
        case .failure(let refused): return routes.redirect(next, flash: refused.text)
        }
        let short = String(image.id.prefix(8))
        let separator = next.contains("?") ? "&" : "?"
        return routes.redirect(next + separator + "picture=" + short, flash: "Uploaded picture \(short).")
    }

    /// Whether a request's `Accept` ranks HTML above plain text (a browser's form, not `curl`,
    /// which sends `*/*`): HTML named with a weight above zero and at least any other text's.
    static func prefersHTML(_ request: Request) -> Bool {
        var html = 0.0
        var other = 0.0
        for field in request.headers[values: .accept] {
            for item in field.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let type = parts.first else { continue }
                let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                if type == "text/html" || type == "application/xhtml+xml" {
                    html = max(html, weight)
                } else if type == "text/plain" || type == "text/*" {
                    other = max(other, weight)
                }
            }
        }
        return html > 0 && html >= other
    }

    /// The page a browser gets for an upload: the picture and the way into the maker with it.
    static func uploadedPage(
        _ image: ImageRecord, short: String, status: HTTPResponse.Status, location: String
    ) -> Response {
        let path = MediaLibrary.path(id: image.id, format: image.format)
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Uploaded · Hearth</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <link rel="stylesheet" href="/static/hearth.css"></head><body><main class="uploaded">
            <h1>Uploaded</h1>
            <figure><img src="\(path)" alt="Your picture \(short)" width="\(image.width)" height="\(image.height)">
            </figure>
            <p>Picture <code>\(short)</code> (\(image.width)×\(image.height)) is yours now.</p>
            <p><a class="button" href="\(makerPath)?picture=\(short)">Make a meme with it</a></p>
            <p>In chat: <code>!meme \(short) top text | bottom text</code></p>
            </main></body></html>
            """
        let headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .location: location]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
