import Foundation
import HTTPTypes
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMedia
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import Hummingbird
import NIOCore

/// The HTTP side of pictures: image links (`/i/ID.EXT`), one-time upload links
/// (`/upload/TOKEN`: PUT from `curl -T`, POST from a browser form) and the draft/FILEHOST
/// endpoint (`/upload` with HTTP Basic login) for IRC clients that upload by themselves.
struct MediaRoutes {
    let core: Core
    let media: MediaLibrary
    var store: Store { core.store }

    /// The body limit: the largest image plus room for a form's headers.
    static let maxBodyBytes = MediaLimits.maxUploadBytes + 64 * 1024

    func add(to router: Router<HearthRequestContext>) {
        router.get("/i/:file") { request, context in try await image(request, context) }
        router.head("/i/:file") { request, context in
            let response = try await image(request, context)
            return Response(status: response.status, headers: response.headers)
        }
        router.get("/upload/:token") { _, context in try await form(context) }
        router.put("/upload/:token") { request, context in try await ticketUpload(request, context) }
        router.post("/upload/:token") { request, context in try await ticketUpload(request, context) }
        router.post("/upload") { request, context in try await fileHostUpload(request, context) }
    }

    static func text(_ status: HTTPResponse.Status, _ body: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }

    func image(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        let parts = file.split(separator: ".", maxSplits: 1)
        if parts.count == 2, parts[1] == "png", let template = media.previewTemplate(id: String(parts[0])) {
            try await media.drawTemplatePreview(template)  // a built-in's preview is drawn when first asked for
        }
        guard parts.count == 2, let bytes = try await media.read(id: String(parts[0]), ext: String(parts[1])) else {
            return Self.text(.notFound, "No such picture.")
        }
        let etag = "\"\(parts[0])\""
        let headers: HTTPFields = [
            .eTag: etag, .cacheControl: "public, max-age=31536000, immutable",
            .contentType: ImageFormat.allCases.first { $0.fileExtension == parts[1] }!.mimeType,
        ]
        // The file never changes, so a client holding it needs nothing more.
        if AssetRoutes.hasCopy(request, etag: etag) { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    func ticketAccount(_ context: HearthRequestContext) async throws -> (Int64, String)? {
        guard let token = context.parameters.get("token"), token.count == 32, token.allSatisfy(\.isHexDigit) else {
            return nil
        }
        let hash = Sodium.hashSecret(token)
        return try await store.uploadTicket(tokenHash: hash).map { ($0, hash) }
    }

    func form(_ context: HearthRequestContext) async throws -> Response {
        guard try await ticketAccount(context) != nil else { return Self.text(.notFound, Self.expired) }
        let html = """
            <!doctype html><meta charset="utf-8"><title>Upload to Hearth</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <link rel="stylesheet" href="/static/hearth.css"><body><main>
            <h1>Upload a picture</h1>
            <p>PNG, JPEG, GIF or WebP, up to \(MediaLimits.maxUploadBytes / 1024 / 1024) MiB. The link works once.</p>
            <form method="post" enctype="multipart/form-data">
            <input type="file" name="file" accept="image/png,image/jpeg,image/gif,image/webp" required>
            <button>Upload</button></form></main></body>
            """
        let headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static let expired = "This upload link has expired or was used already. Ask the bot for a new one: !upload"

    /// The uploaded bytes: the file part of a form, or the whole body.
    func uploadedBytes(_ request: Request) async throws -> [UInt8]? {
        guard let body = try? await request.body.collect(upTo: Self.maxBodyBytes) else { return nil }
        if let boundary = Multipart.boundary(request.headers[.contentType]) {
            return Multipart(body, boundary: boundary).firstFile ?? []
        }
        return [UInt8](buffer: body)
    }

    func ticketUpload(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        guard let (accountID, hash) = try await ticketAccount(context) else {
            return Self.text(.notFound, Self.expired)
        }
        return try await accept(request, accountID: accountID, ticket: hash)
    }

    /// Stores the upload and tells its owner where it is: in text, or a page leading into the
    /// meme maker for a browser (its `Accept` prefers HTML); `curl` gets the text.
    func accept(_ request: Request, accountID: Int64, ticket: String?) async throws -> Response {
        let image: ImageRecord
        switch try await keep(try await uploadedBytes(request), accountID: accountID, ticket: ticket) {
        case .success(let stored): image = stored
        case .failure(let refused): return Self.text(refused.status, refused.text)
        }
        let url = media.url(image)
        let short = String(image.id.prefix(8))
        core.notify(
            accountID: accountID,
            text:
                "Your picture \(short) is uploaded (\(image.width)×\(image.height)): \(url) — make a meme: !meme "
                + "\(short) top text | bottom text"
        )
        if WebUpload.prefersHTML(request) {
            return WebUpload.uploadedPage(image, short: short, status: .created, location: url)
        }
        return Self.text(
            .created,
            "Uploaded: picture \(short) (\(image.width)×\(image.height)) \(url)\nMake a meme: !meme \(short) top text "
                + "| bottom text",
            headers: [.location: url])
    }

    /// Checks and stores an uploaded picture (nil: the body was over the limit) as one of the
    /// account's, using up `ticket`; or the answer that refuses it.
    func keep(_ uploaded: [UInt8]?, accountID: Int64, ticket: String?) async throws
        -> Result<ImageRecord, UploadRefusal>
    {
        func refuse(_ status: HTTPResponse.Status, _ text: String) -> Result<ImageRecord, UploadRefusal> {
            .failure(UploadRefusal(status: status, text: text))
        }
        guard let bytes = uploaded else {
            return refuse(
                .contentTooLarge,
                "Not stored: the file is over \(MediaLimits.maxUploadBytes / 1024 / 1024) "
                    + "MiB.")
        }
        if bytes.isEmpty { return refuse(.badRequest, "Not stored: no file came with the request.") }
        let image: ImageRecord
        do {
            image = try await media.ingest(bytes, ownerID: accountID)
        } catch MediaLibrary.UploadError.invalid(let problem) {
            let status: HTTPResponse.Status
            switch problem {
            case .tooBig: status = .contentTooLarge
            case .notAnImage: status = .unsupportedMediaType
            default: status = .unprocessableContent
            }
            return refuse(status, "Not stored: \(problem).")
        } catch {
            return refuse(.unprocessableContent, "Not stored: \(error).")
        }
        guard try await store.addUpload(image, tokenHash: ticket) else {
            media.delete(ids: [image.id])
            return refuse(.gone, Self.expired)
        }
        return .success(image)
    }

    /// Why an upload was not stored, and the status that says so.
    struct UploadRefusal: Error {
        let status: HTTPResponse.Status
        let text: String
    }

    /// draft/FILEHOST: `Authorization: Basic name:password` (or name:resume-token).
    func fileHostUpload(_ request: Request, _ context: HearthRequestContext) async throws -> Response {
        let challenge: HTTPFields = [.wwwAuthenticate: "Basic realm=\"Hearth\""]
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) }
            ),
            let colon = decoded.firstIndex(of: ":")
        else {
            return Self.text(
                .unauthorized, "Log in with HTTP Basic: your account name and password (or resume token).",
                headers: challenge)
        }
        let name = String(decoded[..<colon])
        let secret = String(decoded[decoded.index(after: colon)...])
        let accounts = core.bot.services.accounts
        let address = context.client(request, core.config.httpProxies)
        let account: Stored<Account>
        do {
            account = try await accounts.checkSecret(name: name, secret: secret, address: address).0
        } catch {
            return Self.text(.unauthorized, "That name and password were not accepted.", headers: challenge)
        }
        return try await accept(request, accountID: account.id, ticket: nil)
    }
}
