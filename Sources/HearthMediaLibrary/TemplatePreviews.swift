import Foundation
import HearthCrypto
import HearthMedia
import Synchronization

/// Built-in templates' previews: public pictures whose ids come from the template's name, so a
/// page can link them without drawing anything; each is drawn on its first request
/// (`MediaRoutes`), not while the page that shows forty of them is being made.
extension MediaLibrary {
    /// The preview's id. The version changes when the drawings do, so no old preview is shown.
    static func templatePreviewID(_ name: String) -> String {
        String(Sodium.hashSecret("template-preview/v2/\(name)").prefix(32))
    }

    /// Each built-in template by its preview's id.
    private static let previewTemplates: [String: BuiltinTemplate] = Dictionary(
        uniqueKeysWithValues: BuiltinTemplate.all.map { (templatePreviewID($0.name), $0) })

    /// Where `template`'s preview is, drawn or not yet.
    public func templatePreviewURL(_ template: BuiltinTemplate) -> String {
        url(id: Self.templatePreviewID(template.name), format: "png")
    }

    /// The built-in template whose preview has `id`, if any.
    public func previewTemplate(id: String) -> BuiltinTemplate? { Self.previewTemplates[id] }

    /// Previews drawn in this process, by id: the drawing (under way or done) and the file it
    /// wrote. A server's media directory starts empty, so each new one drew all forty again: the
    /// tests run hundreds of servers in one process, and two browsers on the maker at once under
    /// load took longer than a browser waits. Another library's file is copied instead.
    private static let drawings = Mutex<[String: Task<URL, any Error>]>([:])

    /// Draws `template`'s preview with its example captions unless it is on disk already (or
    /// copies it from another library of this process that drew it).
    public func drawTemplatePreview(_ template: BuiltinTemplate) async throws {
        let id = Self.templatePreviewID(template.name)
        let target = fileURL(id: id, format: "png")
        guard !FileManager.default.fileExists(atPath: target.path), let renderer else { return }
        let draw: @Sendable () async throws -> URL = {
            try await self.run {
                let picture = template.picture()
                renderer.caption(picture, boxes: template.boxes, captions: template.example)
                return try self.write(picture.fitted(maxSide: 480).png(level: 3), id: id, format: .png)
            }
        }
        let drawing = Self.drawings.withLock { drawings -> Task<URL, any Error> in
            if let existing = drawings[id] { return existing }
            let started = Task { try await draw() }
            drawings[id] = started
            return started
        }
        let drawn = try? await drawing.value
        if drawn == target { return }
        let copied = try await run { () -> Bool in
            guard let drawn, let bytes = FileManager.default.contents(atPath: drawn.path) else { return false }
            _ = try self.write(Array(bytes), id: id, format: .png)
            return true
        }
        if copied { return }
        // That drawing failed, or its server's directory is gone: this library draws its own.
        Self.drawings.withLock { drawings in if drawings[id] == drawing { drawings[id] = nil } }
        _ = try await draw()
    }
}
